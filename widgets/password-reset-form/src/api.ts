import { accountEndpoints } from '@app/contracts/browser';
import { routeCall } from '@app/kit';

/** The call of the new-password form (tests pass a fake with the same route). */
export const resetPasswordApi = {
  /** GET /api/new/reset_password/check?token=&email=: whether the link can still set a password. */
  check: routeCall(accountEndpoints.resetCheck),
  // The seed's call: POST /api/new/reset_password with `_method: 'PATCH'`, routed by the server as the PATCH.
  resetPassword: routeCall(accountEndpoints.resetPassword, undefined, { spoofMethod: true }),
};

export type ResetPasswordApi = typeof resetPasswordApi;
