import type { Meta, StoryObj } from '@storybook/react-vite';
import type { DashboardCard } from '@app/contracts/browser';
import { DashboardView, type DashboardData } from './Dashboard.tsx';

const noop = () => undefined;
const cards: DashboardCard[] = [
  { id: 1, link: '/ai-products', icon: '🎨', name: 'Картинки по описанию', description: 'Опишите идею словами — нейросеть нарисует её за несколько секунд.' },
  { id: 2, link: '/ai-products?type=video', icon: '🎬', name: 'Видео из текста', description: 'Короткие ролики по описанию или по вашей картинке.' },
  { id: 3, link: 'https://t.me/neurostudio_news', icon: 'TG', name: 'Наш канал', description: 'Новости сервиса и подборки промптов.' },
  { id: 4, link: '/ai-history', icon: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCA0MCA0MCI+PGNpcmNsZSBjeD0iMjAiIGN5PSIyMCIgcj0iMTgiIGZpbGw9IiM1YjViZDYiLz48L3N2Zz4=', name: 'История', description: 'Все ваши генерации в одном месте.' },
];
const data = (over: Partial<DashboardData> = {}): { status: 'ready'; data: DashboardData } => ({
  status: 'ready',
  data: { subscription: { status: true, subscription: { name: 'Стандарт' }, days_left: 12, past_due: false }, balances: { words: 48250, media: 12.5 }, cards, ...over },
});

const meta = {
  title: 'Widgets/dashboard',
  component: DashboardView,
  args: { state: data(), paymentUrl: '/dashboard/user/payment', balanceUrl: '/dashboard/balance', onRetry: noop },
} satisfies Meta<typeof DashboardView>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Loading: Story = { args: { state: { status: 'loading' } } };
export const ActiveSubscription: Story = {};
export const RenewsToday: Story = { args: { state: data({ subscription: { status: true, subscription: { name: 'Премиум' }, days_left: 0, past_due: false } }) } };
export const RenewalFailed: Story = { args: { state: data({ subscription: { status: true, subscription: { name: 'Стандарт' }, days_left: 0, past_due: true } }) } };
export const CancelledStillActive: Story = { args: { state: data({ subscription: { status: false, subscription: { name: 'Стандарт' }, days_left: 3, past_due: false } }) } };
export const NoSubscription: Story = { args: { state: data({ subscription: { status: false, subscription: null, days_left: 0, past_due: false }, balances: { words: 0, media: 0 } }) } };
export const WelcomeGiftBalance: Story = { args: { state: data({ subscription: { status: false, subscription: null, days_left: 0, past_due: false }, balances: { words: 10000, media: 3 } }) } };
export const NoNews: Story = { args: { state: data({ cards: [] }) } };
export const LoadFailed: Story = { args: { state: { status: 'error', message: 'Войдите в аккаунт, чтобы продолжить' } } };
