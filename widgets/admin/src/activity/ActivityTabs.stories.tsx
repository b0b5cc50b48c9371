import type { Meta, StoryObj } from '@storybook/react-vite';
import { userEvent, within } from 'storybook/test';
import { ApiError } from '@app/kit';
import { freshQueries, pending } from '@app/kit/stories';
import { fakeAdminApi } from '../fake-api.ts';
import { ADMIN_TABS, type AdminTab, type TabFlag } from '../routes.ts';
import { ActivityTabs } from './ActivityTabs.tsx';
import { BarChart } from './BarChart.tsx';
import { RunPreview } from './GenerationsTab.tsx';
import { fakeActivityApi, type FakeActivityOptions } from './fake-api.ts';
import { analyticsFixture, CHAT_DETAIL, GENERATIONS, SETTINGS_CHANGED } from './fixtures.ts';

const noop = () => undefined;
const tab = (flag: TabFlag) => ADMIN_TABS.find((t) => t.flag === flag) as AdminTab;
const api = (options: FakeActivityOptions = {}) => ({ ...fakeAdminApi(), ...fakeActivityApi(options) });
const empty = () => Promise.resolve({ data: [], last_page: 1 });
const offline = () => Promise.reject(new ApiError(0, 'NETWORK', 'Нет соединения с сервером. Проверьте интернет и попробуйте снова'));
const notFound = () => Promise.reject(new ApiError(404, 'NOT_FOUND', 'Чат не найден'));

const meta = {
  title: 'Widgets/admin/Activity',
  component: ActivityTabs,
  decorators: [freshQueries],
  args: { tab: tab('tab11'), id: null, search: '', api: api(), navigate: noop },
} satisfies Meta<typeof ActivityTabs>;
export default meta;
type Story = StoryObj<typeof meta>;

export const History: Story = {};
/** Runs that failed (what the user read and the provider's words) and one being retried after a failed attempt. */
export const HistoryFailures: Story = { args: { api: api({ generations: () => Promise.resolve({ data: GENERATIONS.filter((g) => g.error_detail !== null), last_page: 1 }) }) } };
export const HistoryFailedOnly: Story = { args: { search: '?status=failed', api: api({ generations: () => Promise.resolve({ data: GENERATIONS.filter((g) => g.status === 'failed'), last_page: 1 }) }) } };
export const HistoryLoading: Story = { args: { api: api({ generations: pending }) } };
export const HistoryEmpty: Story = { args: { api: api({ generations: empty }) } };
export const HistoryNothingFound: Story = { args: { search: '?q=nobody&status=cancelled', api: api({ generations: empty }) } };
export const HistoryOffline: Story = { args: { api: api({ generations: offline }) } };
export const HistoryOutputs: Story = { render: () => <RunPreview run={GENERATIONS[0] as (typeof GENERATIONS)[number]} onClose={noop} /> };
export const HistoryVideo: Story = { render: () => <RunPreview run={GENERATIONS[3] as (typeof GENERATIONS)[number]} onClose={noop} /> };

export const Chats: Story = { args: { tab: tab('tab12') } };
export const ChatsEmpty: Story = { args: { tab: tab('tab12'), api: api({ chats: empty }) } };
export const ChatsOffline: Story = { args: { tab: tab('tab12'), api: api({ chats: offline }) } };
export const ChatOpen: Story = { args: { tab: tab('tab12'), search: '?chat=12' } };
export const ChatLong: Story = {
  args: {
    tab: tab('tab12'),
    search: '?chat=12',
    api: api({ chat: () => Promise.resolve({ ...CHAT_DETAIL, truncated: true, message_count: 1200 }) }),
  },
};
export const ChatNoMessages: Story = { args: { tab: tab('tab12'), search: '?chat=12', api: api({ chat: () => Promise.resolve({ ...CHAT_DETAIL, message_count: 0, words: 0, messages: [] }) }) } };
export const ChatLoading: Story = { args: { tab: tab('tab12'), search: '?chat=12', api: api({ chat: pending }) } };
export const ChatNotFound: Story = { args: { tab: tab('tab12'), search: '?chat=99', api: api({ chat: notFound }) } };

export const Analytics: Story = { args: { tab: tab('tab13') } };
export const AnalyticsWeek: Story = { args: { tab: tab('tab13'), search: '?from=2026-11-14&to=2026-11-20' } };
export const AnalyticsYear: Story = { args: { tab: tab('tab13'), search: '?from=2025-11-21&to=2026-11-20' } };
export const AnalyticsQuiet: Story = {
  args: {
    tab: tab('tab13'),
    api: api({
      analytics: () => {
        const a = analyticsFixture(30);
        return Promise.resolve({ ...a, days: a.days.map((d) => ({ ...d, revenue: 0, payments: 0, new_subscriptions: 0, active_subscriptions: 0, generations: 0, words_spent: 0, media_spent: 0 })), totals: { revenue: 0, payments: 0, new_subscriptions: 0, generations: 0, words_spent: 0, media_spent: 0 } });
      },
    }),
  },
};
export const AnalyticsWrongPeriod: Story = { args: { tab: tab('tab13'), search: '?from=2026-11-20&to=2026-11-01' } };
export const AnalyticsLoading: Story = { args: { tab: tab('tab13'), api: api({ analytics: pending }) } };
export const AnalyticsOffline: Story = { args: { tab: tab('tab13'), api: api({ analytics: offline }) } };
export const Chart: Story = {
  render: () => (
    <BarChart
      title="Выручка за вычетом возвратов"
      points={[
        { date: '2026-11-18', value: 990 },
        { date: '2026-11-19', value: -290 },
        { date: '2026-11-20', value: 1980 },
      ]}
      format={(n) => `${String(n)} ₽`}
      summary="за период: 2680 ₽"
    />
  ),
};

export const Settings: Story = { args: { tab: tab('tab16') } };
export const SettingsOverridden: Story = { args: { tab: tab('tab16'), api: api({ settings: () => Promise.resolve(SETTINGS_CHANGED) }) } };
export const SettingsLoading: Story = { args: { tab: tab('tab16'), api: api({ settings: pending }) } };
export const SettingsOffline: Story = { args: { tab: tab('tab16'), api: api({ settings: offline }) } };

/** Saving (the form as an admin leaves it). */
const save = async ({ canvasElement }: { canvasElement: HTMLElement }) => {
  const canvas = within(canvasElement);
  await userEvent.click(await canvas.findByRole('button', { name: 'Сохранить' }));
};
export const SettingsSaved: Story = {
  args: { tab: tab('tab16') },
  play: async (context) => {
    await save(context);
    await within(context.canvasElement).findByText('Настройки сохранены и уже действуют');
  },
};
export const SettingsRefused: Story = {
  args: { tab: tab('tab16'), api: api({ updateSettings: () => Promise.reject(new ApiError(400, 'VALIDATION', { telegram_channel: ['Канал: @имя или ссылка https://t.me/имя'], support_url: ['Ссылка поддержки: https://…, mailto:… или tg://…'] })) }) },
  play: async (context) => {
    await save(context);
    await within(context.canvasElement).findByText('Канал: @имя или ссылка https://t.me/имя');
  },
};
