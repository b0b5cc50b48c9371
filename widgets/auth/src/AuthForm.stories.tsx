import type { Meta, StoryObj } from '@storybook/react-vite';
import { AuthFormView } from './AuthForm.tsx';
import { useAuthForm, type AuthValues } from './use-auth-form.ts';

/** The form in one state: values and messages as the container would have them. */
function AuthFormStory({ mode, values, errors, formErrors, busy = false }: { mode: 'login' | 'register'; values?: Partial<AuthValues>; errors?: Record<string, string[]>; formErrors?: string[]; busy?: boolean }) {
  const form = useAuthForm(mode, { values, errors, formErrors, onSubmit: () => new Promise(() => undefined) });
  return <AuthFormView mode={mode} form={{ ...form, busy: busy || form.busy }} />;
}

const filled = { email: 'anna@example.ru', password: 'secret-password' };

const meta = {
  title: 'Widgets/auth',
  component: AuthFormStory,
  args: { mode: 'login' },
} satisfies Meta<typeof AuthFormStory>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Login: Story = {};
export const LoginFilled: Story = { args: { values: filled } };
export const LoginSubmitting: Story = { args: { values: filled, busy: true } };
export const LoginWrongPassword: Story = { args: { values: { ...filled, password: 'wrong' }, formErrors: ['Неверный email или пароль'] } };
export const LoginFieldErrors: Story = { args: { errors: { email: ['Введите email'], password: ['Введите пароль'] } } };
export const LoginRateLimited: Story = { args: { formErrors: ['Слишком много попыток. Попробуйте через 14 минут'] } };
export const Register: Story = { args: { mode: 'register' } };
export const RegisterSubmitting: Story = { args: { mode: 'register', values: { ...filled, password_confirmation: 'secret-password' }, busy: true } };
export const RegisterEmailTaken: Story = { args: { mode: 'register', values: { email: 'anna@example.ru' }, errors: { email: ['Этот email уже зарегистрирован'] } } };
export const RegisterPasswordsDiffer: Story = {
  args: { mode: 'register', errors: { password: ['Пароль должен быть не короче 8 символов'], password_confirmation: ['Пароли не совпадают'] } },
};
