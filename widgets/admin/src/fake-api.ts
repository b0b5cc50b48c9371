import { adminEndpoints, type AdminUserDetail } from '@app/contracts/admin';
import { routeCall } from '@app/kit';
import { fakeActivityApi } from './activity/fake-api.ts';
import { fakeAiApi } from './ai/fake-api.ts';
import type { AdminApi } from './api.ts';
import { fakeBillingApi } from './billing/fake-api.ts';
import { fakePrivacyAdminApi } from './privacy/fake-api.ts';
import { AUDIT, DETAIL, FAILURES, USERS } from './fixtures.ts';

export interface FakeAdminOptions {
  users?: () => Promise<{ data: typeof USERS; last_page: number }>;
  user?: () => Promise<AdminUserDetail>;
  audit?: () => Promise<{ data: typeof AUDIT; last_page: number }>;
  failures?: () => Promise<{ data: typeof FAILURES; last_page: number }>;
}

/** The panel's calls answered from fixtures (stories; tests wrap them in mocks). */
export function fakeAdminApi(options: FakeAdminOptions = {}): AdminApi {
  return {
    users: routeCall(adminEndpoints.users, () => (options.users ? options.users() : Promise.resolve({ data: USERS, last_page: 3 }))),
    user: routeCall(adminEndpoints.user, () => (options.user ? options.user() : Promise.resolve(DETAIL))),
    updateUser: routeCall(adminEndpoints.updateUser, () => Promise.resolve({ ...DETAIL, blocked: true })),
    adjustBalance: routeCall(adminEndpoints.adjustBalance, () => Promise.resolve({ ...DETAIL, balances: { ...DETAIL.balances, words: DETAIL.balances.words + 1000 } })),
    audit: routeCall(adminEndpoints.audit, () => (options.audit ? options.audit() : Promise.resolve({ data: AUDIT, last_page: 1 }))),
    jobFailures: routeCall(adminEndpoints.jobFailures, () => (options.failures ? options.failures() : Promise.resolve({ data: FAILURES, last_page: 1 }))),
    ...fakeAiApi(),
    ...fakeBillingApi(),
    ...fakeActivityApi(),
    ...fakePrivacyAdminApi(),
  };
}

