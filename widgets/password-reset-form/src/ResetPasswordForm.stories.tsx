import type { Meta, StoryObj } from '@storybook/react-vite';
import { ERROR_CODES } from '@app/contracts';
import { ResetPasswordFormView } from './ResetPasswordForm.tsx';

const empty = { password: '', password_confirmation: '' };
const filled = { password: 'new-secret-password', password_confirmation: 'new-secret-password' };
const noop = () => undefined;

const meta = {
  title: 'Widgets/password-reset-form',
  component: ResetPasswordFormView,
  args: { email: 'anna@example.ru', values: empty, fieldErrors: {}, formErrors: [], busy: false, saved: false, onChange: noop, onSubmit: noop },
} satisfies Meta<typeof ResetPasswordFormView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = {};
export const Filled: Story = { args: { values: filled } };
export const Submitting: Story = { args: { values: filled, busy: true } };
export const BothRequired: Story = { args: { fieldErrors: { password: ['Введите пароль'], password_confirmation: ['Повторите пароль'] } } };
export const TooShort: Story = { args: { values: { password: 'short', password_confirmation: 'short' }, fieldErrors: { password: ['Пароль должен быть не короче 8 символов'] } } };
export const PasswordsDiffer: Story = { args: { values: { password: 'new-secret-password', password_confirmation: 'other-password' }, fieldErrors: { password_confirmation: ['Пароли не совпадают'] } } };
export const LinkInvalid: Story = { args: { values: filled, formErrors: [ERROR_CODES.RESET_TOKEN_INVALID.message] } };
export const ErrorList: Story = { args: { values: filled, formErrors: [ERROR_CODES.RESET_TOKEN_INVALID.message, 'Введите корректный email'] } };
export const RateLimited: Story = { args: { values: filled, formErrors: [ERROR_CODES.RATE_LIMITED.message] } };
export const WithoutEmail: Story = { args: { email: '' } };
export const Saved: Story = { args: { values: filled, saved: true } };
