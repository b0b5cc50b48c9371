import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { storableText } from './fields.ts';
import { ChangePasswordBodySchema, ConfirmEmailBodySchema, LoginBodySchema, RegisterBodySchema, ResetPasswordBodySchema, ResetRequestBodySchema, SecondFactorEnableBodySchema, SignInCheckBodySchema, accountPaths } from './accounts.browser.ts';

export * from './accounts.browser.ts';

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

export const AuthResultSchema = z.object({
  /** The bearer token for `Authorization: Bearer <token>`. */
  token: z.string(),
  user: UserSchema,
});
export type AuthResult = z.infer<typeof AuthResultSchema>;

export const OkSchema = z.object({ ok: z.literal(true) });

/** A sign-in check's challenge (ALTCHA's proof of work, v2): what the browser solves, signed by the server. */
export const SignInChallengeSchema = z.object({
  parameters: z.object({
    algorithm: z.string().max(40),
    nonce: z.string().max(128),
    salt: z.string().max(128),
    cost: z.number().int(),
    keyLength: z.number().int(),
    keyPrefix: z.string().max(128),
    keySignature: z.string().max(256).optional(),
    expiresAt: z.number().int().optional(),
    data: z.object({ email: z.string().max(254) }).optional(),
  }),
  signature: z.string().max(256).optional(),
});
export type SignInChallenge = z.infer<typeof SignInChallengeSchema>;

/** What `check` of a sign-in carries (base64url JSON): the challenge and the browser's solution. */
export const SignInCheckSchema = z.object({
  challenge: SignInChallengeSchema,
  solution: z.object({ counter: z.number().int().min(0), derivedKey: z.string().max(256) }),
});

/** A second factor being enrolled: its secret as text, as an `otpauth://` link and as a QR code (an SVG path on a `size`×`size` grid). */
export const SecondFactorSetupSchema = z.object({
  secret: z.string(),
  otpauth_url: z.string(),
  qr: z.object({ size: z.number().int(), path: z.string() }),
});
export type SecondFactorSetup = z.infer<typeof SecondFactorSetupSchema>;

export const ResetCheckQuerySchema = z.object({
  token: z.string().max(200).check(storableText()).default(''),
  email: z.string().max(254).check(storableText()).default(''),
});

export const accountRoutes = {
  csrfCookie: defineRoute({
    ...accountPaths.csrfCookie,
    summary: 'Sets the readable XSRF-TOKEN cookie (204); unauthenticated posts echo it in X-XSRF-TOKEN',
    tags: ['accounts'],
    response: z.null(),
    raw: true,
  }),
  register: defineRoute({
    ...accountPaths.register,
    summary: 'Creates an account, mails the confirmation code and signs in',
    tags: ['accounts'],
    body: RegisterBodySchema,
    response: AuthResultSchema,
  }),
  signInCheck: defineRoute({
    ...accountPaths.signInCheck,
    summary: 'A sign-in check (proof of work) for an account many sign-ins failed for: the browser solves it and signs in with `check`',
    tags: ['accounts'],
    body: SignInCheckBodySchema,
    response: z.object({ challenge: SignInChallengeSchema }),
  }),
  login: defineRoute({
    ...accountPaths.login,
    summary: 'Signs in: answers the bearer token and sets the session cookie',
    tags: ['accounts'],
    body: LoginBodySchema,
    response: AuthResultSchema,
  }),
  logout: defineRoute({
    ...accountPaths.logout,
    summary: 'Revokes the current bearer token or session cookie',
    tags: ['accounts'],
    response: OkSchema,
  }),
  user: defineRoute({
    ...accountPaths.user,
    summary: 'The signed-in user with both balances',
    tags: ['accounts'],
    response: UserSchema,
  }),
  confirmEmail: defineRoute({
    ...accountPaths.confirmEmail,
    summary: 'Confirms the email with the mailed 6-digit code',
    tags: ['accounts'],
    body: ConfirmEmailBodySchema,
    response: z.object({ email_confirmed: z.literal(true) }),
  }),
  resendConfirmation: defineRoute({
    ...accountPaths.resendConfirmation,
    summary: 'Mails a new confirmation code (at most once a minute)',
    tags: ['accounts'],
    response: z.object({ resend_in: z.number().int() }),
  }),
  resetRequest: defineRoute({
    ...accountPaths.resetRequest,
    summary: 'Mails a password reset link; answers the same whether or not the email exists',
    tags: ['accounts'],
    body: ResetRequestBodySchema,
    response: OkSchema,
  }),
  resetCheck: defineRoute({
    ...accountPaths.resetCheck,
    summary: 'Whether a reset link (token and email) can still set a password: unused and not expired',
    tags: ['accounts'],
    query: ResetCheckQuerySchema,
    response: z.object({ valid: z.boolean() }),
  }),
  resetPassword: defineRoute({
    ...accountPaths.resetPassword,
    summary: 'Sets a new password with the mailed token (POST with `_method: PATCH` also routes here)',
    tags: ['accounts'],
    body: ResetPasswordBodySchema,
    response: OkSchema,
  }),
  changePassword: defineRoute({
    ...accountPaths.changePassword,
    summary:
      'Sets a new password given the current one; does the `password` setup step (a temporary password, or an account just made staff: until then every other call answers 403 PASSWORD_CHANGE_REQUIRED); ends the account’s other sessions',
    tags: ['accounts'],
    setupStep: 'password',
    body: ChangePasswordBodySchema,
    response: OkSchema,
  }),
  secondFactorSetup: defineRoute({
    ...accountPaths.secondFactorSetup,
    summary: 'Starts (or starts again) the enrolment of the second factor of staff (setup step `second_factor`): a new TOTP secret, its link and QR code',
    tags: ['accounts'],
    setupStep: 'second_factor',
    response: SecondFactorSetupSchema,
  }),
  secondFactorEnable: defineRoute({
    ...accountPaths.secondFactorEnable,
    summary:
      'Ends the enrolment with the first code of the app (the `second_factor` setup step: until then every other call answers 403 SECOND_FACTOR_SETUP_REQUIRED); answers ten single-use recovery codes, shown once; ends the account’s other sessions',
    tags: ['accounts'],
    setupStep: 'second_factor',
    body: SecondFactorEnableBodySchema,
    response: z.object({ recovery_codes: z.array(z.string()) }),
  }),
} as const;
