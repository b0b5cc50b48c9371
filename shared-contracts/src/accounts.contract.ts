import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { EmailSchema, NewPasswordSchema, PasswordConfirmationSchema, requiredString } from './fields.ts';

export const RoleSchema = z.enum(['user', 'admin']);
export type Role = z.infer<typeof RoleSchema>;

/** Both wallets as shown: words are whole, media tokens have one decimal (seed §9). */
export const BalancesSchema = z.object({
  words: z.number().int(),
  media: z.number(),
});
export type Balances = z.infer<typeof BalancesSchema>;

/** The signed-in user (seed §3 "User" plus PRODUCT.md `GET /api/new/user`). */
export const UserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  email_confirmed: z.boolean(),
  role: RoleSchema,
  balances: BalancesSchema,
  /** Seconds until a new confirmation code may be requested (0: now); 0 once the email is confirmed. */
  resend_in: z.number().int().min(0),
});
export type User = z.infer<typeof UserSchema>;

export const RegisterBodySchema = z.object({
  email: EmailSchema,
  password: NewPasswordSchema,
  password_confirmation: PasswordConfirmationSchema,
});

export const LoginBodySchema = z.object({
  email: EmailSchema,
  password: z.string({ error: 'Введите пароль' }).min(1, 'Введите пароль').max(256, 'Неверный email или пароль'),
});

export const AuthResultSchema = z.object({
  /** The bearer token for `Authorization: Bearer <token>`. */
  token: z.string(),
  user: UserSchema,
});
export type AuthResult = z.infer<typeof AuthResultSchema>;

export const ConfirmEmailBodySchema = z.object({
  code: requiredString('Введите код из письма').pipe(z.string().regex(/^\d{6}$/, 'Код состоит из 6 цифр')),
});

export const ResetRequestBodySchema = z.object({
  email: EmailSchema,
});

export const ResetPasswordBodySchema = z.object({
  password: NewPasswordSchema,
  password_confirmation: PasswordConfirmationSchema,
  token: requiredString('Ссылка для сброса пароля недействительна или устарела').max(200, 'Ссылка для сброса пароля недействительна или устарела'),
  email: EmailSchema,
});

export const OkSchema = z.object({ ok: z.literal(true) });

export const ResetCheckQuerySchema = z.object({
  token: z.string().max(200).default(''),
  email: z.string().max(254).default(''),
});

export const accountRoutes = {
  csrfCookie: defineRoute({
    method: 'GET',
    path: '/sanctum/csrf-cookie',
    access: 'public',
    summary: 'Sets the readable XSRF-TOKEN cookie (204); unauthenticated posts echo it in X-XSRF-TOKEN',
    tags: ['accounts'],
    response: z.null(),
    raw: true,
  }),
  register: defineRoute({
    method: 'POST',
    path: '/api/new/register',
    access: 'guest',
    summary: 'Creates an account, mails the confirmation code and signs in',
    tags: ['accounts'],
    body: RegisterBodySchema,
    response: AuthResultSchema,
  }),
  login: defineRoute({
    method: 'POST',
    path: '/api/new/login',
    access: 'guest',
    summary: 'Signs in: answers the bearer token and sets the session cookie',
    tags: ['accounts'],
    body: LoginBodySchema,
    response: AuthResultSchema,
  }),
  logout: defineRoute({
    method: 'GET',
    path: '/api/new/logout',
    access: 'public',
    summary: 'Revokes the current bearer token or session cookie',
    tags: ['accounts'],
    response: OkSchema,
  }),
  user: defineRoute({
    method: 'GET',
    path: '/api/new/user',
    access: 'user',
    summary: 'The signed-in user with both balances',
    tags: ['accounts'],
    response: UserSchema,
  }),
  confirmEmail: defineRoute({
    method: 'POST',
    path: '/api/confirm_email',
    access: 'user',
    summary: 'Confirms the email with the mailed 6-digit code',
    tags: ['accounts'],
    body: ConfirmEmailBodySchema,
    response: z.object({ email_confirmed: z.literal(true) }),
  }),
  resendConfirmation: defineRoute({
    method: 'POST',
    path: '/api/new/confirm_email/resend',
    access: 'user',
    summary: 'Mails a new confirmation code (at most once a minute)',
    tags: ['accounts'],
    response: z.object({ resend_in: z.number().int() }),
  }),
  resetRequest: defineRoute({
    method: 'POST',
    path: '/api/new/reset_password',
    access: 'guest',
    summary: 'Mails a password reset link; answers the same whether or not the email exists',
    tags: ['accounts'],
    body: ResetRequestBodySchema,
    response: OkSchema,
  }),
  resetCheck: defineRoute({
    method: 'GET',
    path: '/api/new/reset_password/check',
    access: 'public',
    summary: 'Whether a reset link (token and email) can still set a password: unused and not expired',
    tags: ['accounts'],
    query: ResetCheckQuerySchema,
    response: z.object({ valid: z.boolean() }),
  }),
  resetPassword: defineRoute({
    method: 'PATCH',
    path: '/api/new/reset_password',
    access: 'guest',
    summary: 'Sets a new password with the mailed token (POST with `_method: PATCH` also routes here)',
    tags: ['accounts'],
    body: ResetPasswordBodySchema,
    response: OkSchema,
  }),
} as const;

/** Success texts fixed by the seed. */
export const ACCOUNT_TEXTS = {
  emailConfirmed: 'Почта подтверждена',
  resetRequested: 'Успех',
  passwordSaved: 'Пароль сохранен',
} as const;
