import type { Meta, StoryObj } from '@storybook/react-vite';
import { SandboxCheckoutView, type CheckoutResult } from './SandboxCheckout.tsx';
import { useCardForm, type CardInput } from './use-card-form.ts';

const payment = { payment_id: 41, amount: 1, description: 'Нейростудия: подписка «Стандарт»', email: 'anna@example.ru', recurrent: true };
const filled = { card_number: '4242 4242 4242 4242', exp: '12/29', cvv: '123' };

/** The frame in one state: the card form as the container would have it. */
function SandboxCheckoutStory({ payment: shown = payment, values, errors, formErrors, busy = false, result = null }: { payment?: typeof payment; values?: Partial<CardInput>; errors?: Record<string, string[]>; formErrors?: string[]; busy?: boolean; result?: CheckoutResult }) {
  const form = useCardForm({ paymentId: shown.payment_id, values, errors, formErrors, onSubmit: () => new Promise(() => undefined) });
  return <SandboxCheckoutView payment={shown} form={{ ...form, busy: busy || form.busy }} result={result} onFill={() => undefined} onClose={() => undefined} />;
}

const meta = {
  title: 'Widgets/sandbox-checkout',
  component: SandboxCheckoutStory,
  args: {},
} satisfies Meta<typeof SandboxCheckoutStory>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = {};
export const Package: Story = { args: { payment: { ...payment, amount: 490, description: 'Нейростудия: пакет «50 000 слов»', recurrent: false } } };
export const Filled: Story = { args: { values: filled } };
export const Charging: Story = { args: { values: filled, busy: true } };
export const InvalidFields: Story = {
  args: { values: { card_number: '4242 42', exp: '13/2', cvv: '1' }, errors: { card_number: ['Номер карты состоит из 16 цифр'], exp: ['Срок действия в формате ММ/ГГ'], cvv: ['CVV состоит из 3 цифр'] } },
};
export const Declined: Story = { args: { values: { ...filled, card_number: '4012 8888 8888 1881' }, result: { status: 'declined', reason: 'Недостаточно средств на карте' } } };
export const ServerError: Story = { args: { values: filled, formErrors: ['Этот счёт уже оплачен'] } };
export const Paid: Story = { args: { values: filled, result: { status: 'success' } } };
