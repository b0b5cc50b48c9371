import type { Meta, StoryObj } from '@storybook/react-vite';
import type { AutoCharge, PackagePurchase, SubscriptionRecord } from '@app/contracts/browser';
import { OrderHistoryView } from './OrderHistory.tsx';
import { autoChargeRow, packageRow, subscriptionRow } from './order-rows.ts';

const noop = () => undefined;
const record: SubscriptionRecord = { id: 1, name: 'Стандарт', status: true, closed: false, amount: 990, currency_provider: 'RUB', created_at: '2025-03-01T09:15:00Z', updated_at: '2025-03-01T09:16:00Z', trial_days: null, refunded: 0, duplicates: [] };
const charge: AutoCharge = { id: 7, name: 'Стандарт — продление', status: true, amount: 990, currency_provider: 'RUB', created_at: '2025-04-01T09:15:00Z', updated_at: '2025-04-01T09:15:30Z', refunded: 0 };
const purchase: PackagePurchase = { id: 3, name: 'Пакет слов', status: 'paid', amount: 290, currency_provider: 'RUB', created_at: '2025-04-10T10:00:00Z', updated_at: '2025-04-10T10:00:20Z', refunded: 0, duplicates: [] };
const secondCharge = { amount: 290, refunded: false, created_at: '2025-04-10T10:00:40Z' };
const page = (rows: ReturnType<typeof subscriptionRow>[], lastPage = 3) => ({ status: 'ready' as const, data: { rows, lastPage } });

const meta = {
  title: 'Widgets/order-history',
  component: OrderHistoryView,
  args: { tab: 'subscriptions', page: 1, lastPage: 3, state: page([subscriptionRow(record)]), paymentUrl: '/dashboard/user/payment', onTabChange: noop, onPageChange: noop, onRetry: noop },
} satisfies Meta<typeof OrderHistoryView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Loading: Story = { args: { state: { status: 'loading' }, lastPage: 1 } };
export const SubscriptionPaid: Story = {};
export const SubscriptionTrial: Story = { args: { state: page([subscriptionRow({ ...record, name: 'Старт', amount: 99, trial_days: 3 })]) } };
export const SubscriptionRefunded: Story = { args: { state: page([subscriptionRow({ ...record, refunded: 990 })]) } };
export const SubscriptionPartiallyRefunded: Story = { args: { state: page([subscriptionRow({ ...record, refunded: 400.5 })]) } };
export const SubscriptionPaidTwice: Story = { args: { state: page([subscriptionRow({ ...record, duplicates: [{ ...secondCharge, amount: 990 }] })]) } };
export const SubscriptionPaidAndCancelled: Story = { args: { state: page([subscriptionRow({ ...record, closed: true })]) } };
export const SubscriptionCancelled: Story = { args: { state: page([subscriptionRow({ ...record, status: false, closed: true })]) } };
export const SubscriptionUnpaid: Story = { args: { state: page([subscriptionRow({ ...record, status: false, name: 'Премиум', amount: 2490 })]) } };
export const SinglePage: Story = { args: { state: page([subscriptionRow(record)], 1), lastPage: 1 } };
export const ManyPages: Story = { args: { page: 13, lastPage: 25, state: page([subscriptionRow(record)], 25) } };
export const NextPageLoading: Story = { args: { page: 2, lastPage: 3, state: { status: 'loading' } } };
export const SubscriptionsEmpty: Story = { args: { state: page([], 1), lastPage: 1 } };
export const AutoChargeSucceeded: Story = { args: { tab: 'payments', state: page([autoChargeRow(charge)]) } };
export const AutoChargePartiallyRefunded: Story = { args: { tab: 'payments', state: page([autoChargeRow({ ...charge, refunded: 495 })]) } };
export const AutoChargeFailed: Story = { args: { tab: 'payments', state: page([autoChargeRow({ ...charge, status: false })]) } };
export const AutoChargesEmpty: Story = { args: { tab: 'payments', state: page([], 1), lastPage: 1 } };
export const PackagePaid: Story = { args: { tab: 'packages', state: page([packageRow(purchase)]) } };
export const PackageRefunded: Story = { args: { tab: 'packages', state: page([packageRow({ ...purchase, status: 'refunded', refunded: 290 })]) } };
export const PackagePartiallyRefunded: Story = { args: { tab: 'packages', state: page([packageRow({ ...purchase, status: 'partially_refunded', refunded: 145 })]) } };
export const PackagePaidTwice: Story = { args: { tab: 'packages', state: page([packageRow({ ...purchase, duplicates: [secondCharge] })]) } };
export const PackagePaidTwiceReturned: Story = { args: { tab: 'packages', state: page([packageRow({ ...purchase, duplicates: [{ ...secondCharge, refunded: true }] })]) } };
export const PackagesEmpty: Story = { args: { tab: 'packages', state: page([], 1), lastPage: 1 } };
export const LoadFailed: Story = { args: { state: { status: 'error', message: 'Нет соединения с сервером. Проверьте интернет и попробуйте снова' } } };
