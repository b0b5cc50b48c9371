import type { Meta, StoryObj } from '@storybook/react-vite';
import { ChangePasswordFormView } from './ChangePasswordForm.tsx';
import { useChangePasswordForm, type ChangePasswordValues } from './use-change-password-form.ts';

/** The change form in one state. */
function ChangePasswordStory({ temporary = true, staff = false, values, errors, formErrors, busy = false }: { temporary?: boolean; staff?: boolean; values?: Partial<ChangePasswordValues>; errors?: Record<string, string[]>; formErrors?: string[]; busy?: boolean }) {
  const form = useChangePasswordForm({ values, errors, formErrors, onSubmit: () => new Promise(() => undefined) });
  return <ChangePasswordFormView email="admin@example.ru" temporary={temporary} staff={staff} form={{ ...form, busy: busy || form.busy }} />;
}

const filled = { current_password: 'tmp-password-1', password: 'my-own-password', password_confirmation: 'my-own-password' };

const meta = {
  title: 'Widgets/password-reset-form/Change',
  component: ChangePasswordStory,
  args: {},
} satisfies Meta<typeof ChangePasswordStory>;
export default meta;
type Story = StoryObj<typeof meta>;

export const TemporaryPassword: Story = {};
export const Filled: Story = { args: { values: filled } };
export const Saving: Story = { args: { values: filled, busy: true } };
export const WrongCurrentPassword: Story = { args: { values: filled, errors: { current_password: ['Неверный текущий пароль'] } } };
export const SameAsTemporary: Story = { args: { values: { ...filled, password: 'tmp-password-1', password_confirmation: 'tmp-password-1' }, errors: { password: ['Новый пароль должен отличаться от текущего'] } } };
export const PasswordsDiffer: Story = { args: { values: { ...filled, password_confirmation: 'my-own-passwort' }, errors: { password_confirmation: ['Пароли не совпадают'] } } };
export const TooManyAttempts: Story = { args: { values: filled, formErrors: ['Слишком много попыток. Попробуйте позже'] } };
export const ByChoice: Story = { args: { temporary: false } };
export const MadeStaff: Story = { args: { temporary: false, staff: true } };
