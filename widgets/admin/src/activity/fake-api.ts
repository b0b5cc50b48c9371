import type { activityApi } from './api.ts';

/** The activity and settings tabs: 11 «История генерации», 12 «Чат», 13 «Аналитика», 16 «Настройки» answered from fixtures (stories; tests wrap them in mocks). */
export function fakeActivityApi(): typeof activityApi {
  return {};
}
