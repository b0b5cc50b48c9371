import { billingEndpoints } from '@app/contracts/browser';
import { promoEndpoints } from '@app/contracts/promo';
import { routeCall } from '@app/kit';

/** The calls of the tariffs widget (tests pass fakes with the same routes). */
export const tariffsApi = {
  /** GET /api/new/tariff?frontend=0|1 */
  tariffs: routeCall(billingEndpoints.tariffs),
  /** GET /api/new/subscribe/check */
  check: routeCall(billingEndpoints.subscribeCheck),
  /** DELETE /api/new/subscribe/ */
  cancel: routeCall(billingEndpoints.cancelSubscription),
  /** GET /api/payment/cloudpayments/key: the payment widget's public id. */
  paymentKey: routeCall(billingEndpoints.paymentKey),
  /** GET /api/payment/cloudpayments/subscribe?id= (monthly plan) */
  paySubscription: routeCall(billingEndpoints.paySubscription),
  /** GET /api/payment/cloudpayments/pay?id= (one-off package) */
  payPackage: routeCall(billingEndpoints.payPackage),
  /** GET /api/payment/cloudpayments/status?id=: where a payment stands (moved only by server notifications). */
  paymentStatus: routeCall(billingEndpoints.paymentStatus),
  /** GET /api/new/promo/discount?code=&tariff_id=: a discount code's price for a plan's first payment. */
  checkDiscount: routeCall(promoEndpoints.checkDiscount),
};

export type TariffsApi = typeof tariffsApi;
