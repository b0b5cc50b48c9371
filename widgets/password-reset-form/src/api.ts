import { accountRoutes, type BodyOf, type ResponseOf } from '@app/contracts';
import { call } from '@app/kit';

export interface ResetPasswordApi {
  resetPassword: (body: BodyOf<typeof accountRoutes.resetPassword>) => Promise<ResponseOf<typeof accountRoutes.resetPassword>>;
}

export const resetPasswordApi: ResetPasswordApi = {
  // The seed's call: POST /api/new/reset_password with `_method: 'PATCH'`, routed by the server as the PATCH.
  resetPassword: (body) => call(accountRoutes.resetPassword, { body }, { spoofMethod: true }),
};
