import { accountEndpoints } from '@app/contracts/browser';
import { routeCall } from '@app/kit';

/** The calls of the enrolment (tests pass fakes with the same routes). */
export const secondFactorApi = {
  /** POST /api/new/second-factor/setup: the secret, its link and QR code (the same until the enrolment is confirmed). */
  setup: routeCall(accountEndpoints.secondFactorSetup),
  /** POST /api/new/second-factor/enable {code}: the app's first code; answers the recovery codes, once. */
  enable: routeCall(accountEndpoints.secondFactorEnable),
};

export type SecondFactorApi = typeof secondFactorApi;
