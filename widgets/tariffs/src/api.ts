import { accountRoutes, billingRoutes, type Balances, type PaymentStart, type ResponseOf, type SubscribeCheck, type Tariff } from '@app/contracts';
import { call } from '@app/kit';

export interface TariffsApi {
  /** GET /api/new/tariff?frontend=0|1 */
  tariffs: (frontend: boolean) => Promise<Tariff[]>;
  /** GET /api/new/subscribe/check */
  check: () => Promise<SubscribeCheck>;
  /** DELETE /api/new/subscribe/ */
  cancel: () => Promise<ResponseOf<typeof billingRoutes.cancelSubscription>>;
  /** GET /api/payment/cloudpayments/key: the payment widget's public id. */
  paymentKey: () => Promise<string>;
  /** GET /api/payment/cloudpayments/subscribe?id= (monthly plan) */
  paySubscription: (tariffId: number) => Promise<PaymentStart>;
  /** GET /api/payment/cloudpayments/pay?id= (one-off package) */
  payPackage: (tariffId: number) => Promise<PaymentStart>;
  /** GET /api/new/user: balances, to see a package's tokens arrive. */
  balances: () => Promise<Balances>;
}

export const tariffsApi: TariffsApi = {
  tariffs: (frontend) => call(billingRoutes.tariffs, { query: { frontend: frontend ? '1' : '0' } }),
  check: () => call(billingRoutes.subscribeCheck),
  cancel: () => call(billingRoutes.cancelSubscription),
  paymentKey: () => call(billingRoutes.paymentKey),
  paySubscription: (id) => call(billingRoutes.paySubscription, { query: { id } }),
  payPackage: (id) => call(billingRoutes.payPackage, { query: { id } }),
  balances: () => call(accountRoutes.user).then((user) => user.balances),
};
