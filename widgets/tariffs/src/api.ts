import { billingRoutes, type PaymentStart, type PaymentStatus, type ResponseOf, type SubscribeCheck, type Tariff } from '@app/contracts';
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
  /** GET /api/payment/cloudpayments/status?id=: where a payment stands (moved only by server notifications). */
  paymentStatus: (paymentId: number) => Promise<PaymentStatus>;
}

export const tariffsApi: TariffsApi = {
  tariffs: (frontend) => call(billingRoutes.tariffs, { query: { frontend: frontend ? '1' : '0' } }),
  check: () => call(billingRoutes.subscribeCheck),
  cancel: () => call(billingRoutes.cancelSubscription),
  paymentKey: () => call(billingRoutes.paymentKey),
  paySubscription: (id) => call(billingRoutes.paySubscription, { query: { id } }),
  payPackage: (id) => call(billingRoutes.payPackage, { query: { id } }),
  paymentStatus: (id) => call(billingRoutes.paymentStatus, { query: { id } }),
};
