import { billingEndpoints, type RequestOf, type ResponseOf } from '@app/contracts/browser';
import { routeCall } from '@app/kit';

type ChargeRoute = NonNullable<(typeof billingEndpoints.sandboxCharge)['contract']>;
export type SandboxChargeBody = NonNullable<Exclude<RequestOf<ChargeRoute>['body'], FormData>>;
export type SandboxChargeResult = ResponseOf<ChargeRoute>;

/** The call of the sandbox checkout (tests pass a fake with the same route). */
export const sandboxCheckoutApi = {
  /** POST /api/sandbox/cloudpayments/charge */
  charge: routeCall(billingEndpoints.sandboxCharge),
};

export type SandboxCheckoutApi = typeof sandboxCheckoutApi;
