import { billingRoutes, type ResponseOf } from '@app/contracts';
import { call } from '@app/kit';

export type SubscriptionPage = ResponseOf<typeof billingRoutes.subscriptionHistory>;
export type AutoChargePage = ResponseOf<typeof billingRoutes.autoCharges>;

export interface OrderHistoryApi {
  /** GET /api/new/subscribe?page=n */
  subscriptions: (page: number) => Promise<SubscriptionPage>;
  /** GET /api/new/subscribe/payments?page=n */
  autoCharges: (page: number) => Promise<AutoChargePage>;
}

export const orderHistoryApi: OrderHistoryApi = {
  subscriptions: (page) => call(billingRoutes.subscriptionHistory, { query: { page } }),
  autoCharges: (page) => call(billingRoutes.autoCharges, { query: { page } }),
};
