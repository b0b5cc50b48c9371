import { accountRoutes, billingRoutes, dashboardRoutes, type DashboardCard, type User, type UserSubscriptionStatus } from '@app/contracts';
import { call } from '@app/kit';

export interface DashboardApi {
  /** GET /api/new/subscribe/check_user */
  subscriptionStatus: () => Promise<UserSubscriptionStatus>;
  /** GET /api/new/user (balances) */
  user: () => Promise<User>;
  /** GET /api/new/dashboard (news cards) */
  cards: () => Promise<DashboardCard[]>;
}

export const dashboardApi: DashboardApi = {
  subscriptionStatus: () => call(billingRoutes.subscriptionStatus),
  user: () => call(accountRoutes.user),
  cards: () => call(dashboardRoutes.cards),
};
