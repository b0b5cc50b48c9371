import type { Meta, StoryObj } from '@storybook/react-vite';
import { ERROR_CODES } from '@app/contracts';
import { ResetRequestView } from './ResetRequest.tsx';

const noop = () => undefined;

const meta = {
  title: 'Widgets/password-reset-request',
  component: ResetRequestView,
  args: { email: '', fieldErrors: {}, formErrors: [], busy: false, sent: false, onChange: noop, onSubmit: noop, onRetry: noop },
} satisfies Meta<typeof ResetRequestView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = {};
export const Filled: Story = { args: { email: 'anna@example.ru' } };
export const Submitting: Story = { args: { email: 'anna@example.ru', busy: true } };
export const EmailRequired: Story = { args: { fieldErrors: { email: ['Введите email'] } } };
export const EmailInvalid: Story = { args: { email: 'anna@example', fieldErrors: { email: ['Введите корректный email'] } } };
export const RateLimited: Story = { args: { email: 'anna@example.ru', formErrors: [ERROR_CODES.RATE_LIMITED.message] } };
export const ErrorList: Story = { args: { email: 'anna@example.ru', formErrors: ['Сервис временно недоступен', 'Попробуйте через несколько минут'] } };
export const Sent: Story = { args: { email: 'anna@example.ru', sent: true } };
