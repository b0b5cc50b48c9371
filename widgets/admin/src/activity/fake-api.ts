import { adminBillingEndpoints, type AdminChat, type AdminChatDetail, type AdminGeneration, type AdminSettings, type Analytics, type SettingsInput } from '@app/contracts/admin';
import { routeCall } from '@app/kit';
import type { activityApi } from './api.ts';
import { analyticsFixture, CHAT_DETAIL, CHATS, GENERATIONS, SETTINGS } from './fixtures.ts';

type Page<T> = Promise<{ data: T[]; last_page: number }>;

export interface FakeActivityOptions {
  generations?: () => Page<AdminGeneration>;
  chats?: () => Page<AdminChat>;
  chat?: () => Promise<AdminChatDetail>;
  analytics?: (query: { from?: string | undefined; to?: string | undefined }) => Promise<Analytics>;
  settings?: () => Promise<AdminSettings>;
  updateSettings?: (body: SettingsInput) => Promise<AdminSettings>;
}

const days = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;

/** The period asked for, answered with fixture figures (the default: 30 days). */
function analyticsFor(query: { from?: string | undefined; to?: string | undefined }): Analytics {
  const base = analyticsFixture(query.from && query.to ? days(query.from, query.to) : 30);
  if (!query.from || !query.to) return base;
  const shift = Date.parse(query.from) - Date.parse(base.from);
  return { ...base, from: query.from, to: query.to, days: base.days.map((d) => ({ ...d, date: new Date(Date.parse(d.date) + shift).toISOString().slice(0, 10) })) };
}

/** The activity and settings tabs: 11 «История генераций», 12 «Чат», 13 «Аналитика», 16 «Настройки» answered from fixtures (stories; tests wrap them in mocks). */
export function fakeActivityApi(options: FakeActivityOptions = {}): typeof activityApi {
  return {
    generations: routeCall(adminBillingEndpoints.generations, () => (options.generations ? options.generations() : Promise.resolve({ data: GENERATIONS, last_page: 2 }))),
    chats: routeCall(adminBillingEndpoints.chats, () => (options.chats ? options.chats() : Promise.resolve({ data: CHATS, last_page: 1 }))),
    chat: routeCall(adminBillingEndpoints.chat, () => (options.chat ? options.chat() : Promise.resolve(CHAT_DETAIL))),
    analytics: routeCall(adminBillingEndpoints.analytics, (request) => (options.analytics ? options.analytics(request.query) : Promise.resolve(analyticsFor(request.query)))),
    settings: routeCall(adminBillingEndpoints.settings, () => (options.settings ? options.settings() : Promise.resolve(SETTINGS))),
    updateSettings: routeCall(adminBillingEndpoints.updateSettings, (request) => {
      // The route's body is JSON (its type allows FormData for multipart routes only).
      const body = request.body as SettingsInput;
      return options.updateSettings ? options.updateSettings(body) : Promise.resolve({ ...SETTINGS, ...body, updated_at: new Date(Date.UTC(2026, 10, 20, 12)).toISOString() });
    }),
  };
}
