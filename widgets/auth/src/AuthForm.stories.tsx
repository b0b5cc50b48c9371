import type { Meta, StoryObj } from '@storybook/react-vite';
import { AuthFormView } from './AuthForm.tsx';
import { useAuthForm, type AuthValues } from './use-auth-form.ts';

/** The form in one state: values and messages as the container would have them. */
function AuthFormStory({ mode, values, errors, formErrors, busy = false, checking = false }: { mode: 'login' | 'register'; values?: Partial<AuthValues>; errors?: Record<string, string[]>; formErrors?: string[]; busy?: boolean; checking?: boolean }) {
  const form = useAuthForm(mode, { values, errors, formErrors, onSubmit: () => new Promise(() => undefined) });
  return <AuthFormView mode={mode} form={{ ...form, busy: busy || form.busy }} checking={checking} />;
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
export const LoginRateLimited: Story = { args: { values: filled, formErrors: ['Слишком много неудачных попыток войти в этот аккаунт с вашего адреса. Попробуйте через 14 минут или восстановите пароль'] } };
export const LoginAddressLimited: Story = { args: { values: filled, formErrors: ['Слишком много неудачных попыток входа с вашего адреса. Попробуйте через 9 минут'] } };
export const LoginChecking: Story = { args: { values: filled, busy: true, checking: true } };
export const LoginCheckFailed: Story = { args: { values: filled, formErrors: ['Не удалось пройти проверку. Попробуйте войти ещё раз'] } };
export const Register: Story = { args: { mode: 'register' } };
export const RegisterFilled: Story = { args: { mode: 'register', values: { ...filled, password_confirmation: 'secret-password', consent: true } } };
export const RegisterNoConsent: Story = { args: { mode: 'register', values: { ...filled, password_confirmation: 'secret-password' }, errors: { consent: ['Подтвердите согласие на обработку персональных данных'] } } };
export const RegisterSubmitting: Story = { args: { mode: 'register', values: { ...filled, password_confirmation: 'secret-password', consent: true }, busy: true } };
export const RegisterEmailTaken: Story = { args: { mode: 'register', values: { email: 'anna@example.ru' }, errors: { email: ['Этот email уже зарегистрирован'] } } };
export const RegisterPasswordsDiffer: Story = {
  args: { mode: 'register', errors: { password: ['Пароль должен быть не короче 8 символов'], password_confirmation: ['Пароли не совпадают'] } },
};
