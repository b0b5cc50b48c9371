import { accountRoutes, type BodyOf, type ResponseOf } from '@app/contracts';
import { call } from '@app/kit';

export interface EmailConfirmApi {
  confirm: (body: BodyOf<typeof accountRoutes.confirmEmail>) => Promise<ResponseOf<typeof accountRoutes.confirmEmail>>;
  resend: () => Promise<ResponseOf<typeof accountRoutes.resendConfirmation>>;
  logout: () => Promise<ResponseOf<typeof accountRoutes.logout>>;
}

export const emailConfirmApi: EmailConfirmApi = {
  confirm: (body) => call(accountRoutes.confirmEmail, { body }),
  resend: () => call(accountRoutes.resendConfirmation),
  logout: () => call(accountRoutes.logout),
};
