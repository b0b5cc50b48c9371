import { accountRoutes, type BodyOf, type ResponseOf } from '@app/contracts';
import { call } from '@app/kit';

export interface ResetRequestApi {
  request: (body: BodyOf<typeof accountRoutes.resetRequest>) => Promise<ResponseOf<typeof accountRoutes.resetRequest>>;
}

export const resetRequestApi: ResetRequestApi = {
  request: (body) => call(accountRoutes.resetRequest, { body }),
};
