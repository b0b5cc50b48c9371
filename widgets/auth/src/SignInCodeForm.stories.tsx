import type { Meta, StoryObj } from '@storybook/react-vite';
import { SignInCodeView, useSignInCodeForm, type CodeValues } from './SignInCodeForm.tsx';

/** The sign-in's code step in one state. */
function SignInCodeStory({ recovery = false, values, errors, formErrors, busy = false }: { recovery?: boolean; values?: Partial<CodeValues>; errors?: Record<string, string[]>; formErrors?: string[]; busy?: boolean }) {
  const form = useSignInCodeForm({ values, errors, formErrors, onSubmit: () => new Promise(() => undefined) });
  return <SignInCodeView email="boris@example.ru" form={{ ...form, busy: busy || form.busy }} recovery={recovery} onRecoveryChange={() => undefined} onBack={() => undefined} />;
}

const meta = {
  title: 'Widgets/auth/Sign-in code',
  component: SignInCodeStory,
  args: {},
} satisfies Meta<typeof SignInCodeStory>;
export default meta;
type Story = StoryObj<typeof meta>;

export const AppCode: Story = {};
export const Filled: Story = { args: { values: { code: '123456' } } };
export const Signing: Story = { args: { values: { code: '123456' }, busy: true } };
export const Missing: Story = { args: { errors: { code: ['Введите код'] } } };
export const Wrong: Story = { args: { values: { code: '000000' }, errors: { code: ['Неверный код'] } } };
export const Reused: Story = { args: { values: { code: '123456' }, errors: { code: ['Этот код уже использован. Дождитесь следующего кода в приложении'] } } };
export const TooManyCodes: Story = { args: { values: { code: '000000' }, formErrors: ['Слишком много неверных кодов. Попробуйте через 14 минут'] } };
export const RecoveryCode: Story = { args: { recovery: true } };
export const RecoveryCodeWrong: Story = { args: { recovery: true, values: { code: 'abcde-fghjk' }, errors: { code: ['Неверный код'] } } };
