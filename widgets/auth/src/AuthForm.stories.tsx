import type { Meta, StoryObj } from '@storybook/react-vite';
import { AuthFormView } from './AuthForm.tsx';

const empty = { email: '', password: '', password_confirmation: '' };
const noop = () => undefined;

const meta = {
  title: 'Widgets/auth',
  component: AuthFormView,
  args: { mode: 'login', values: empty, fieldErrors: {}, formErrors: [], busy: false, onChange: noop, onSubmit: noop },
} satisfies Meta<typeof AuthFormView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Login: Story = {};
export const LoginFilled: Story = { args: { values: { ...empty, email: 'anna@example.ru', password: 'secret-password' } } };
export const LoginSubmitting: Story = { args: { values: { ...empty, email: 'anna@example.ru', password: 'secret-password' }, busy: true } };
export const LoginWrongPassword: Story = { args: { values: { ...empty, email: 'anna@example.ru', password: 'wrong' }, formErrors: ['Неверный email или пароль'] } };
export const LoginFieldErrors: Story = { args: { fieldErrors: { email: ['Введите email'], password: ['Введите пароль'] } } };
export const LoginRateLimited: Story = { args: { formErrors: ['Слишком много попыток. Попробуйте позже'] } };
export const Register: Story = { args: { mode: 'register' } };
export const RegisterSubmitting: Story = { args: { mode: 'register', values: { email: 'anna@example.ru', password: 'secret-password', password_confirmation: 'secret-password' }, busy: true } };
export const RegisterEmailTaken: Story = { args: { mode: 'register', values: { ...empty, email: 'anna@example.ru' }, fieldErrors: { email: ['Этот email уже зарегистрирован'] } } };
export const RegisterPasswordsDiffer: Story = {
  args: { mode: 'register', fieldErrors: { password: ['Пароль должен быть не короче 8 символов'], password_confirmation: ['Пароли не совпадают'] } },
};
