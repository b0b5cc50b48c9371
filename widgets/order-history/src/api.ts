import { billingEndpoints, type ResponseOf } from '@app/contracts/browser';
import { routeCall } from '@app/kit';

/** The calls of the order history (tests pass fakes with the same routes). */
export const orderHistoryApi = {
  /** GET /api/new/subscribe?page=n */
  subscriptions: routeCall(billingEndpoints.subscriptionHistory),
  /** GET /api/new/subscribe/payments?page=n */
  autoCharges: routeCall(billingEndpoints.autoCharges),
  /** GET /api/new/subscribe/packages?page=n */
  packages: routeCall(billingEndpoints.packagePurchases),
};

export type OrderHistoryApi = typeof orderHistoryApi;
export type SubscriptionPage = ResponseOf<NonNullable<(typeof billingEndpoints.subscriptionHistory)['contract']>>;
export type AutoChargePage = ResponseOf<NonNullable<(typeof billingEndpoints.autoCharges)['contract']>>;
