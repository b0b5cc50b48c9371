import * as z from 'zod/mini';
import { EmailSchema, NewPasswordSchema, PasswordConfirmationSchema, requiredString } from './fields.ts';
import type { Endpoint } from './route.ts';

/* What of the accounts contract the browser needs: endpoints, the forms' schemas (zod/mini) and texts. */

export const RegisterBodySchema = z.object({
  email: EmailSchema,
  password: NewPasswordSchema,
  password_confirmation: PasswordConfirmationSchema,
  /** Consent to the processing of personal data (152-ФЗ): the box must be ticked (`true`; a plain form's ticked box sends `on`). */
  consent: z.pipe(
    z.union([z.literal(true), z.literal('on'), z.literal('true')], { error: 'Подтвердите согласие на обработку персональных данных' }),
    z.transform((): true => true),
  ),
  /** The code of the referral link the visitor came by (`/register?ref=`); an unknown one is ignored. */
  ref: z.optional(z.string().check(z.maxLength(64, 'Неверная ссылка приглашения'))),
});

const SECOND_FACTOR_FORMAT = 'Введите 6 цифр из приложения или резервный код';
/** A second factor's code as typed: the app's 6 digits or a recovery code (`abcde-fghjk`), spaces and hyphens allowed. */
const SecondFactorCodeSchema = z.pipe(requiredString('Введите код'), z.string().check(z.maxLength(40, SECOND_FACTOR_FORMAT), z.regex(/^[0-9A-Za-z\s-]+$/, SECOND_FACTOR_FORMAT)));

export const LoginBodySchema = z.object({
  email: EmailSchema,
  password: z.string({ error: 'Введите пароль' }).check(z.minLength(1, 'Введите пароль'), z.maxLength(256, 'Неверный email или пароль')),
  /** The solved sign-in check (base64url JSON of the challenge and its solution), when the account asks for one (SIGN_IN_CHECK_REQUIRED). */
  check: z.optional(z.string().check(z.maxLength(4000, 'Проверка не пройдена: попробуйте войти ещё раз'))),
  /** The second factor of an account that has one (SECOND_FACTOR_REQUIRED): the app's 6 digits or a recovery code. */
  code: z.optional(SecondFactorCodeSchema),
});

/** The sign-in's second step (the form that asks for the code after the password). */
export const SignInCodeBodySchema = z.object({ code: SecondFactorCodeSchema });

/** The first code of a second factor being enrolled: the app's 6 digits. */
export const SecondFactorEnableBodySchema = z.object({
  code: z.pipe(requiredString('Введите код из приложения'), z.string().check(z.regex(/^\d{6}$/, 'Код состоит из 6 цифр'))),
});

/** Asks for a sign-in check of an account (`POST /api/new/login/check`). */
export const SignInCheckBodySchema = z.object({
  email: EmailSchema,
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
  signInCheck: { method: 'POST', path: '/api/new/login/check', access: 'guest' },
  logout: { method: 'GET', path: '/api/new/logout', access: 'public' },
  user: { method: 'GET', path: '/api/new/user', access: 'user' },
  confirmEmail: { method: 'POST', path: '/api/confirm_email', access: 'user' },
  resendConfirmation: { method: 'POST', path: '/api/new/confirm_email/resend', access: 'user' },
  resetRequest: { method: 'POST', path: '/api/new/reset_password', access: 'guest' },
  resetCheck: { method: 'GET', path: '/api/new/reset_password/check', access: 'public' },
  resetPassword: { method: 'PATCH', path: '/api/new/reset_password', access: 'guest' },
  changePassword: { method: 'POST', path: '/api/new/password/change', access: 'user' },
  secondFactorSetup: { method: 'POST', path: '/api/new/second-factor/setup', access: 'user' },
  secondFactorEnable: { method: 'POST', path: '/api/new/second-factor/enable', access: 'user' },
} as const satisfies Record<string, Endpoint>;

/** Success texts fixed by the seed. */
export const ACCOUNT_TEXTS = {
  emailConfirmed: 'Почта подтверждена',
  resetRequested: 'Успех',
  passwordSaved: 'Пароль сохранен',
} as const;
