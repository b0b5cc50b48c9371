import { accountEndpoints, billingEndpoints, dashboardEndpoints } from '@app/contracts/browser';
import { routeCall } from '@app/kit';

/** The calls of the dashboard (tests pass fakes with the same routes). */
export const dashboardApi = {
  /** GET /api/new/subscribe/check_user */
  subscriptionStatus: routeCall(billingEndpoints.subscriptionStatus),
  /** GET /api/new/user (balances) */
  user: routeCall(accountEndpoints.user),
  /** GET /api/new/dashboard (news cards) */
  cards: routeCall(dashboardEndpoints.cards),
};

export type DashboardApi = typeof dashboardApi;
