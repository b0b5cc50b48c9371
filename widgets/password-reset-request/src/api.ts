import { accountEndpoints } from '@app/contracts/browser';
import { routeCall } from '@app/kit';

/** The call of the reset request form (tests pass a fake with the same route). */
export const resetRequestApi = {
  request: routeCall(accountEndpoints.resetRequest),
};

export type ResetRequestApi = typeof resetRequestApi;
