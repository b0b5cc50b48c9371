import type { Meta, StoryObj } from '@storybook/react-vite';
import { ERROR_CODES } from '@app/contracts';
import { ResetPasswordFormView } from './ResetPasswordForm.tsx';
import { useResetPasswordForm, type ResetPasswordValues } from './use-reset-password-form.ts';

/** The form in one state. */
function ResetPasswordStory({ email = 'anna@example.ru', values, errors, formErrors, busy = false, saved = false, link = 'valid' }: { email?: string; values?: Partial<ResetPasswordValues>; errors?: Record<string, string[]>; formErrors?: string[]; busy?: boolean; saved?: boolean; link?: 'checking' | 'valid' | 'invalid' }) {
  const form = useResetPasswordForm({ token: 'token', email, values, errors, formErrors, onSubmit: () => new Promise(() => undefined) });
  return <ResetPasswordFormView email={email} form={{ ...form, busy: busy || form.busy }} saved={saved} link={link} />;
}

const filled = { password: 'new-secret-password', password_confirmation: 'new-secret-password' };

const meta = {
  title: 'Widgets/password-reset-form',
  component: ResetPasswordStory,
  args: {},
} satisfies Meta<typeof ResetPasswordStory>;
export default meta;
type Story = StoryObj<typeof meta>;

export const CheckingLink: Story = { args: { link: 'checking' } };
export const LinkUsedOrExpired: Story = { args: { link: 'invalid' } };
export const Empty: Story = {};
export const Filled: Story = { args: { values: filled } };
export const Submitting: Story = { args: { values: filled, busy: true } };
export const BothRequired: Story = { args: { errors: { password: ['Введите пароль'], password_confirmation: ['Повторите пароль'] } } };
export const TooShort: Story = { args: { values: { password: 'short', password_confirmation: 'short' }, errors: { password: ['Пароль должен быть не короче 8 символов'] } } };
export const PasswordsDiffer: Story = { args: { values: { password: 'new-secret-password', password_confirmation: 'other-password' }, errors: { password_confirmation: ['Пароли не совпадают'] } } };
export const LinkInvalid: Story = { args: { values: filled, formErrors: [ERROR_CODES.RESET_TOKEN_INVALID.message] } };
export const ErrorList: Story = { args: { values: filled, formErrors: [ERROR_CODES.RESET_TOKEN_INVALID.message, 'Введите корректный email'] } };
export const RateLimited: Story = { args: { values: filled, formErrors: [ERROR_CODES.RATE_LIMITED.message] } };
export const WithoutEmail: Story = { args: { email: '' } };
export const Saved: Story = { args: { values: filled, saved: true } };
