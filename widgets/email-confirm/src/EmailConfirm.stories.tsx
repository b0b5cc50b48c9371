import type { Meta, StoryObj } from '@storybook/react-vite';
import { ERROR_CODES } from '@app/contracts';
import { EmailConfirmView, type EmailConfirmViewProps } from './EmailConfirm.tsx';
import { useCodeForm } from './use-code-form.ts';

const noop = () => undefined;

/** The overlay in one state: the code form as the container would have it. */
function EmailConfirmStory({ code, codeErrors, formErrors, busy = false, ...view }: Omit<EmailConfirmViewProps, 'form'> & { code?: string; codeErrors?: string[]; formErrors?: string[]; busy?: boolean }) {
  const form = useCodeForm({ code, errors: codeErrors ? { code: codeErrors } : undefined, formErrors, onSubmit: () => new Promise(() => undefined) });
  return <EmailConfirmView {...view} form={{ ...form, busy: busy || form.busy }} />;
}

const meta = {
  title: 'Widgets/email-confirm',
  component: EmailConfirmStory,
  args: {
    email: 'anna@example.ru',
    supportUrl: 'mailto:support@neurostudio.local',
    confirmed: false,
    resendBusy: false,
    resendIn: 0,
    resendSent: false,
    resendErrors: [],
    loggingOut: false,
    onResend: noop,
    onLogout: noop,
    onContinue: noop,
  },
} satisfies Meta<typeof EmailConfirmStory>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = {};
export const Filled: Story = { args: { code: '482913' } };
export const Submitting: Story = { args: { code: '482913', busy: true } };
export const CodeRequired: Story = { args: { codeErrors: ['Введите код из письма'] } };
export const CodeNotSixDigits: Story = { args: { code: '4829', codeErrors: ['Код состоит из 6 цифр'] } };
export const WrongCode: Story = { args: { code: '000000', codeErrors: [ERROR_CODES.CODE_INVALID.message] } };
export const CodeExpired: Story = { args: { code: '482913', codeErrors: [ERROR_CODES.CODE_EXPIRED.message] } };
export const TooManyAttempts: Story = { args: { code: '111111', codeErrors: [ERROR_CODES.CODE_ATTEMPTS_EXCEEDED.message] } };
export const RateLimited: Story = { args: { code: '482913', formErrors: [ERROR_CODES.RATE_LIMITED.message] } };
export const NoConnection: Story = { args: { code: '482913', formErrors: ['Нет соединения с сервером. Проверьте интернет и попробуйте снова'] } };
export const ResendSending: Story = { args: { resendBusy: true } };
export const JustRegistered: Story = { args: { resendIn: 58 } };
export const ResendCountdown: Story = { args: { resendSent: true, resendIn: 42 } };
export const ResendTooSoon: Story = { args: { resendErrors: [ERROR_CODES.RESEND_TOO_SOON.message] } };
export const LoggingOut: Story = { args: { loggingOut: true } };
export const LongEmail: Story = { args: { email: 'anna.konstantinova-rimskaya.1987@very-long-company-domain.example.ru' } };
export const Confirmed: Story = { args: { code: '482913', confirmed: true } };
