import type { Meta, StoryObj } from '@storybook/react-vite';
import { BalanceHistoryView } from './BalanceHistory.tsx';
import { LINES, USER } from './fixtures.ts';

const noop = () => undefined;
const ready = (lines = LINES, lastPage = 1) => ({ status: 'ready' as const, data: { lines, lastPage } });

const meta = {
  title: 'Widgets/balance-history',
  component: BalanceHistoryView,
  args: { state: ready(), balances: USER.balances, page: 1, lastPage: 1, paymentUrl: '/dashboard/user/payment', onPageChange: noop, onRetry: noop },
} satisfies Meta<typeof BalanceHistoryView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Loading: Story = { args: { state: { status: 'loading' }, balances: null } };
export const LoadFailed: Story = { args: { state: { status: 'error', message: 'Нет соединения с сервером. Проверьте интернет и попробуйте снова' } } };
export const Empty: Story = { args: { state: ready([]), balances: { words: 0, media: 0 } } };
export const AMonthOfChanges: Story = {};
export const SeveralPages: Story = { args: { state: ready(LINES, 3), page: 2, lastPage: 3 } };
export const NextPageLoading: Story = { args: { state: { status: 'loading' }, page: 3, lastPage: 3 } };
