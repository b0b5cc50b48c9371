import type { Meta, StoryObj } from '@storybook/react-vite';
import { DeleteAccountView } from './AccountSettings.tsx';
import { useDeleteForm, type DeleteValues } from './use-delete-form.ts';

/** The deletion form in one state: values and messages as the container would have them. */
function DeleteStory({ values, errors, formErrors, busy = false }: { values?: Partial<DeleteValues>; errors?: Record<string, string[]>; formErrors?: string[]; busy?: boolean }) {
  const form = useDeleteForm({ values, errors, formErrors, onSubmit: () => new Promise(() => undefined) });
  return <DeleteAccountView email="anna@example.ru" plansUrl="/dashboard/user/payment" form={{ ...form, busy: busy || form.busy }} />;
}

const meta = {
  title: 'Widgets/account-settings/delete',
  component: DeleteStory,
  args: {},
} satisfies Meta<typeof DeleteStory>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = {};
export const NotConfirmed: Story = { args: { values: { password: 'secret-password' }, errors: { confirm: ['Подтвердите удаление аккаунта'] } } };
export const WrongPassword: Story = { args: { values: { password: 'wrong', confirm: true }, errors: { password: ['Неверный пароль'] } } };
export const TooManyTries: Story = { args: { values: { password: 'wrong', confirm: true }, formErrors: ['Слишком много попыток. Попробуйте позже'] } };
export const Deleting: Story = { args: { values: { password: 'secret-password', confirm: true }, busy: true } };
