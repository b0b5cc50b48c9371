import { accountEndpoints } from '@app/contracts/browser';
import { routeCall } from '@app/kit';

/** The calls of the confirmation overlay (tests pass fakes with the same routes). */
export const emailConfirmApi = {
  /** GET /api/new/user: `resend_in` says how long until a new code may be sent. */
  user: routeCall(accountEndpoints.user),
  confirm: routeCall(accountEndpoints.confirmEmail),
  resend: routeCall(accountEndpoints.resendConfirmation),
  logout: routeCall(accountEndpoints.logout),
};

export type EmailConfirmApi = typeof emailConfirmApi;
