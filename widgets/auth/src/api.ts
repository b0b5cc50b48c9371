import { accountRoutes, type AuthResult } from '@app/contracts';
import { call } from '@app/kit';

export interface AuthApi {
  login: (body: { email: string; password: string }) => Promise<AuthResult>;
  register: (body: { email: string; password: string; password_confirmation: string }) => Promise<AuthResult>;
}

export const authApi: AuthApi = {
  login: (body) => call(accountRoutes.login, { body }),
  register: (body) => call(accountRoutes.register, { body }),
};
