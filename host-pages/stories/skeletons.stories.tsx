import type { Meta, StoryObj } from '@storybook/react-vite';
import '../loader/skeletons.css';
import type { RawHtml } from '../src/html.ts';
import {
  authSkeleton,
  balanceHistorySkeleton,
  catalogSkeleton,
  chatSkeleton,
  dashboardSkeleton,
  historyButtonSkeleton,
  historySkeleton,
  ordersSkeleton,
  resetRequestSkeleton,
  tariffsSkeleton,
  welcomeSkeleton,
  type PageFacts,
} from '../src/skeletons.ts';

/** What the server renders in a widget's place before it mounts (`host-pages/src/skeletons.ts`), exactly as the page sends it. */
function Skeleton({ widget, html }: { widget: string; html: RawHtml | undefined }) {
  return <div className="widget-slot" data-widget={widget} data-loading="">{html && <div className="widget-skeleton" inert aria-hidden="true" dangerouslySetInnerHTML={{ __html: html.value }} />}</div>;
}

const meta = {
  title: 'Pages/skeletons',
  component: Skeleton,
} satisfies Meta<typeof Skeleton>;
export default meta;
type Story = StoryObj<typeof meta>;

const GIFT = { words: 10000, media: 3 };
const WELCOME = { visible: true, gift: GIFT, channel_url: 'https://t.me/neurostudio_news', bot_url: '/sandbox/telegram?start=x', linked: false, claimed: false, sandbox: false };
const NEW_USER: PageFacts = { balances: { words: 0, media: 0 }, subscription: { status: false, subscription: null, days_left: 0, past_due: false }, welcome: WELCOME, cards: 4 };
const SUBSCRIBER: PageFacts = {
  ...NEW_USER,
  balances: { words: 125400, media: 28.5 },
  subscription: { status: true, subscription: { name: 'Про' }, days_left: 12, past_due: false },
  welcome: null,
};

export const Login: Story = { args: { widget: 'auth', html: authSkeleton('login') } };
export const Register: Story = { args: { widget: 'auth', html: authSkeleton('register') } };
export const PasswordResetRequest: Story = { args: { widget: 'password-reset-request', html: resetRequestSkeleton() } };
export const HistoryButton: Story = { args: { widget: 'history-button', html: historyButtonSkeleton() } };
export const WelcomeNotice: Story = { args: { widget: 'welcome-notice', html: welcomeSkeleton(WELCOME) } };
export const WelcomeNoticeSandbox: Story = { args: { widget: 'welcome-notice', html: welcomeSkeleton({ ...WELCOME, sandbox: true, linked: true }) } };
export const WelcomeNoticeClaimed: Story = { args: { widget: 'welcome-notice', html: welcomeSkeleton({ ...WELCOME, claimed: true }) } };
export const DashboardNewUser: Story = { args: { widget: 'dashboard', html: dashboardSkeleton(NEW_USER) } };
export const DashboardSubscriber: Story = { args: { widget: 'dashboard', html: dashboardSkeleton(SUBSCRIBER) } };
export const DashboardPastDue: Story = {
  args: { widget: 'dashboard', html: dashboardSkeleton({ ...SUBSCRIBER, subscription: { ...SUBSCRIBER.subscription, past_due: true } }) },
};
export const DashboardWithoutFacts: Story = { args: { widget: 'dashboard', html: dashboardSkeleton(undefined) } };
const PLANS = [
  { name: 'Старт', popular: false, description: ['[[words]] 100 000 слов в месяц', '[[media]] 30 медиа токенов в месяц', 'Чат со всеми текстовыми моделями'] },
  { name: 'Про', popular: true, description: ['[[words]] 300 000 слов в месяц', '[[media]] 100 медиа токена в месяц', 'Генерация изображений и видео'] },
];

export const Tariffs: Story = { args: { widget: 'tariffs', html: tariffsSkeleton({ sandbox: false, paymentsOff: false }) } };
export const TariffsWithPlans: Story = { args: { widget: 'tariffs', html: tariffsSkeleton({ sandbox: false, paymentsOff: false }, PLANS) } };
export const TariffsSandbox: Story = { args: { widget: 'tariffs', html: tariffsSkeleton({ sandbox: true, paymentsOff: false }) } };
export const OrderHistory: Story = { args: { widget: 'order-history', html: ordersSkeleton() } };
export const OrderHistoryEmpty: Story = { args: { widget: 'order-history', html: ordersSkeleton(true) } };
export const BalanceHistory: Story = { args: { widget: 'balance-history', html: balanceHistorySkeleton(SUBSCRIBER.balances) } };
export const BalanceHistoryEmpty: Story = { args: { widget: 'balance-history', html: balanceHistorySkeleton(NEW_USER.balances, true) } };
export const Catalogue: Story = { args: { widget: 'ai-products', html: catalogSkeleton() } };
export const ImageHistory: Story = { args: { widget: 'ai-history', html: historySkeleton('image') } };
export const VideoHistory: Story = { args: { widget: 'ai-history', html: historySkeleton('video') } };
export const ImageHistoryEmpty: Story = { args: { widget: 'ai-history', html: historySkeleton('image', true) } };
export const VideoHistoryEmpty: Story = { args: { widget: 'ai-history', html: historySkeleton('video', true) } };
export const NewChat: Story = { args: { widget: 'chat', html: chatSkeleton() } };
