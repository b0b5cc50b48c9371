import { billingRoutes, type RequestOf, type ResponseOf } from '@app/contracts';
import { call } from '@app/kit';

export type SandboxChargeBody = NonNullable<Exclude<RequestOf<typeof billingRoutes.sandboxCharge>['body'], FormData>>;
export type SandboxChargeResult = ResponseOf<typeof billingRoutes.sandboxCharge>;

export interface SandboxCheckoutApi {
  /** POST /api/sandbox/cloudpayments/charge */
  charge: (body: SandboxChargeBody) => Promise<SandboxChargeResult>;
}

export const sandboxCheckoutApi: SandboxCheckoutApi = {
  charge: (body) => call(billingRoutes.sandboxCharge, { body }),
};
