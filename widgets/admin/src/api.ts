import { adminEndpoints } from '@app/contracts/admin';
import { routeCall } from '@app/kit';
import { activityApi } from './activity/api.ts';
import { aiApi } from './ai/api.ts';
import { billingApi } from './billing/api.ts';
import { privacyAdminApi } from './privacy/api.ts';

/** The calls of the admin panel (tests and stories pass fakes with the same routes). */
export const adminApi = {
  /** GET /api/admin/users?q=&sort=&dir=&page= */
  users: routeCall(adminEndpoints.users),
  /** GET /api/admin/users/:id: balances, subscriptions, payments, runs, chats, ledger. */
  user: routeCall(adminEndpoints.user),
  /** PATCH /api/admin/users/:id {role?, blocked?} */
  updateUser: routeCall(adminEndpoints.updateUser),
  /** POST /api/admin/users/:id/balance {wallet, amount, reason, request_id} */
  adjustBalance: routeCall(adminEndpoints.adjustBalance),
  /** GET /api/admin/audit?q=&sort=&dir=&page= */
  audit: routeCall(adminEndpoints.audit),
  /** GET /api/admin/jobs/failures?unresolved=1 */
  jobFailures: routeCall(adminEndpoints.jobFailures),
  ...aiApi,
  ...billingApi,
  ...activityApi,
  ...privacyAdminApi,
};

export type AdminApi = typeof adminApi;
