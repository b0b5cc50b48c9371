import type { Meta, StoryObj } from '@storybook/react-vite';
import { PromoRedeemView } from './PromoRedeem.tsx';

const noop = () => undefined;

const meta = {
  title: 'Widgets/balance-history/Промокод',
  component: PromoRedeemView,
  args: { code: '', busy: false, errors: [], done: null, paymentUrl: '/dashboard/user/payment', onCodeChange: noop, onSubmit: noop },
} satisfies Meta<typeof PromoRedeemView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = {};
export const Sending: Story = { args: { code: 'WELCOME2026', busy: true } };
export const Credited: Story = {
  args: { done: { kind: 'tokens', code: 'WELCOME2026', words: 5000, media: 1.5, balances: { words: 15_000, media: 4.5 }, message: 'Промокод WELCOME2026 активирован: начислено 5 000 слов и 1,5 медиа токена' } },
};
export const Discount: Story = {
  args: { done: { kind: 'discount', code: 'START20', percent: 20, tariff: { id: 2, name: 'Про' }, message: 'Скидка 20 % на первую оплату тарифа «Про»: выберите тариф и введите промокод при оплате' } },
};
export const Unknown: Story = { args: { code: 'WELCOM2026', errors: ['Такого промокода нет. Проверьте, правильно ли он введён'] } };
export const AlreadyUsed: Story = { args: { code: 'WELCOME2026', errors: ['Вы уже использовали этот промокод'] } };
export const Malformed: Story = { args: { code: 'СКИДКА', errors: ['Промокод — от 4 до 32 латинских букв и цифр'] } };
export const TooManyTries: Story = { args: { code: 'GUESS11', errors: ['Слишком много попыток ввести промокод. Попробуйте через 42 минуты'] } };
