import { accountEndpoints } from '@app/contracts/browser';
import { routeCall } from '@app/kit';

/** The calls of the sign-in forms (tests pass fakes with the same routes). */
export const authApi = {
  login: routeCall(accountEndpoints.login),
  register: routeCall(accountEndpoints.register),
};

export type AuthApi = typeof authApi;
