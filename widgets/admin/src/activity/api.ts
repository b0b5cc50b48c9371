import { adminBillingEndpoints } from '@app/contracts/admin';
import { routeCall } from '@app/kit';

/** The calls of the activity and settings tabs: 11 «История генераций», 12 «Чат», 13 «Аналитика», 16 «Настройки». */
export const activityApi = {
  /** GET /api/admin/generations?q=&status=&sort=&dir=&page= */
  generations: routeCall(adminBillingEndpoints.generations),
  /** GET /api/admin/chats?q=&sort=&dir=&page= */
  chats: routeCall(adminBillingEndpoints.chats),
  /** GET /api/admin/chats/:id: the chat with its messages. */
  chat: routeCall(adminBillingEndpoints.chat),
  /** GET /api/admin/analytics?from=&to= (Moscow days, at most ANALYTICS_MAX_DAYS). */
  analytics: routeCall(adminBillingEndpoints.analytics),
  /** GET /api/admin/settings: in force, defaults, the sandboxes running. */
  settings: routeCall(adminBillingEndpoints.settings),
  /** PUT /api/admin/settings: every field; applies without a restart. */
  updateSettings: routeCall(adminBillingEndpoints.updateSettings),
};
