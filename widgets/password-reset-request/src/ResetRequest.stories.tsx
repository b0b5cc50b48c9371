import type { Meta, StoryObj } from '@storybook/react-vite';
import { ERROR_CODES } from '@app/contracts';
import { ResetRequestView } from './ResetRequest.tsx';
import { useResetRequestForm } from './use-reset-request-form.ts';

/** The form in one state. */
function ResetRequestStory({ email, errors, formErrors, busy = false, sent = false }: { email?: string; errors?: Record<string, string[]>; formErrors?: string[]; busy?: boolean; sent?: boolean }) {
  const form = useResetRequestForm({ email, errors, formErrors, onSubmit: () => new Promise(() => undefined) });
  return <ResetRequestView form={{ ...form, busy: busy || form.busy }} sent={sent} onRetry={() => undefined} />;
}

const meta = {
  title: 'Widgets/password-reset-request',
  component: ResetRequestStory,
  args: {},
} satisfies Meta<typeof ResetRequestStory>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = {};
export const Filled: Story = { args: { email: 'anna@example.ru' } };
export const Submitting: Story = { args: { email: 'anna@example.ru', busy: true } };
export const EmailRequired: Story = { args: { errors: { email: ['Введите email'] } } };
export const EmailInvalid: Story = { args: { email: 'anna@example', errors: { email: ['Введите корректный email'] } } };
export const RateLimited: Story = { args: { email: 'anna@example.ru', formErrors: [ERROR_CODES.RATE_LIMITED.message] } };
export const ErrorList: Story = { args: { email: 'anna@example.ru', formErrors: ['Сервис временно недоступен', 'Попробуйте через несколько минут'] } };
export const Sent: Story = { args: { email: 'anna@example.ru', sent: true } };
