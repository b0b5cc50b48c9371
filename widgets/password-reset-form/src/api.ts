import { accountEndpoints } from '@app/contracts/browser';
import { routeCall } from '@app/kit';

/** The calls of the new-password forms (tests pass fakes with the same routes). */
export const resetPasswordApi = {
  /** GET /api/new/reset_password/check?token=&email=: whether the link can still set a password. */
  check: routeCall(accountEndpoints.resetCheck),
  // The seed's call: POST /api/new/reset_password with `_method: 'PATCH'`, routed by the server as the PATCH.
  resetPassword: routeCall(accountEndpoints.resetPassword, undefined, { spoofMethod: true }),
  /** POST /api/new/password/change {current_password, password, password_confirmation}: a signed-in account's new password. */
  changePassword: routeCall(accountEndpoints.changePassword),
};

export type ResetPasswordApi = typeof resetPasswordApi;
