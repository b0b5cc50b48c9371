import { accountEndpoints } from '@app/contracts/browser';
import { routeCall } from '@app/kit';

/** The calls of the sign-in forms (tests pass fakes with the same routes). */
export const authApi = {
  login: routeCall(accountEndpoints.login),
  signInCheck: routeCall(accountEndpoints.signInCheck),
  register: routeCall(accountEndpoints.register),
};

export type AuthApi = typeof authApi;
