import { dashboardRoutes, type ResponseOf, type WelcomeState } from '@app/contracts';
import { call } from '@app/kit';

export interface WelcomeApi {
  /** GET /api/new/welcome */
  state: () => Promise<WelcomeState>;
  /** POST /api/new/welcome/check: checks the channel membership and grants the gift once. */
  check: () => Promise<ResponseOf<typeof dashboardRoutes.welcomeCheck>>;
  /** GET /api/new/nt_close: closes the notice for good. */
  close: () => Promise<ResponseOf<typeof dashboardRoutes.welcomeClose>>;
}

export const welcomeApi: WelcomeApi = {
  state: () => call(dashboardRoutes.welcome),
  check: () => call(dashboardRoutes.welcomeCheck),
  close: () => call(dashboardRoutes.welcomeClose),
};
