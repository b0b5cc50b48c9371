import * as z from 'zod/mini';
import { EmailSchema, NewPasswordSchema, PasswordConfirmationSchema, requiredString } from './fields.ts';
import type { Endpoint } from './route.ts';

/* What of the accounts contract the browser needs: endpoints, the forms' schemas (zod/mini) and texts. */

export const RegisterBodySchema = z.object({
  email: EmailSchema,
  password: NewPasswordSchema,
  password_confirmation: PasswordConfirmationSchema,
});

export const LoginBodySchema = z.object({
  email: EmailSchema,
  password: z.string({ error: 'Введите пароль' }).check(z.minLength(1, 'Введите пароль'), z.maxLength(256, 'Неверный email или пароль')),
});

export const ConfirmEmailBodySchema = z.object({
  code: z.pipe(requiredString('Введите код из письма'), z.string().check(z.regex(/^\d{6}$/, 'Код состоит из 6 цифр'))),
});

export const ResetRequestBodySchema = z.object({
  email: EmailSchema,
});

const RESET_LINK_INVALID = 'Ссылка для сброса пароля недействительна или устарела';

export const ResetPasswordBodySchema = z.object({
  password: NewPasswordSchema,
  password_confirmation: PasswordConfirmationSchema,
  token: requiredString(RESET_LINK_INVALID).check(z.maxLength(200, RESET_LINK_INVALID)),
  email: EmailSchema,
});

/** The password change (a temporary password first of all): the current one, the new one twice; the new one must differ. */
export const ChangePasswordBodySchema = z
  .object({
    current_password: z.string({ error: 'Введите текущий пароль' }).check(z.minLength(1, 'Введите текущий пароль'), z.maxLength(256, 'Неверный текущий пароль')),
    password: NewPasswordSchema,
    password_confirmation: PasswordConfirmationSchema,
  })
  .check(
    z.superRefine((b, ctx) => {
      if (b.password && b.password_confirmation && b.password !== b.password_confirmation) ctx.issues.push({ code: 'custom', path: ['password_confirmation'], message: 'Пароли не совпадают', input: b.password_confirmation });
      if (b.password && b.password === b.current_password) ctx.issues.push({ code: 'custom', path: ['password'], message: 'Новый пароль должен отличаться от текущего', input: b.password });
    }),
  );

export const accountPaths = {
  csrfCookie: { method: 'GET', path: '/sanctum/csrf-cookie', access: 'public' },
  register: { method: 'POST', path: '/api/new/register', access: 'guest' },
  login: { method: 'POST', path: '/api/new/login', access: 'guest' },
  logout: { method: 'GET', path: '/api/new/logout', access: 'public' },
  user: { method: 'GET', path: '/api/new/user', access: 'user' },
  confirmEmail: { method: 'POST', path: '/api/confirm_email', access: 'user' },
  resendConfirmation: { method: 'POST', path: '/api/new/confirm_email/resend', access: 'user' },
  resetRequest: { method: 'POST', path: '/api/new/reset_password', access: 'guest' },
  resetCheck: { method: 'GET', path: '/api/new/reset_password/check', access: 'public' },
  resetPassword: { method: 'PATCH', path: '/api/new/reset_password', access: 'guest' },
  changePassword: { method: 'POST', path: '/api/new/password/change', access: 'user' },
} as const satisfies Record<string, Endpoint>;

/** Success texts fixed by the seed. */
export const ACCOUNT_TEXTS = {
  emailConfirmed: 'Почта подтверждена',
  resetRequested: 'Успех',
  passwordSaved: 'Пароль сохранен',
} as const;
