import { dashboardEndpoints } from '@app/contracts/browser';
import { routeCall } from '@app/kit';

/** The calls of the welcome notice (tests pass fakes with the same routes). */
export const welcomeApi = {
  /** GET /api/new/welcome */
  state: routeCall(dashboardEndpoints.welcome),
  /** POST /api/new/welcome/check: checks the channel membership and grants the gift once. */
  check: routeCall(dashboardEndpoints.welcomeCheck),
  /** GET /api/new/nt_close: closes the notice for good. */
  close: routeCall(dashboardEndpoints.welcomeClose),
};

export type WelcomeApi = typeof welcomeApi;
