import { billingEndpoints } from '@app/contracts/browser';
import { routeCall } from '@app/kit';

/** The call of the conversion stub (tests pass a fake with the same route). */
export const conversionApi = {
  /** GET /api/new/target_2: records the payment conversion goal. */
  record: routeCall(billingEndpoints.conversion),
};

export type ConversionApi = typeof conversionApi;
