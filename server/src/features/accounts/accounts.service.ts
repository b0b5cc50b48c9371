import { ERROR_CODES, signInLimitedText, type User } from '@app/contracts';
import { attachReferrer } from '../promo/referral.queries.ts';
import type { AppContext } from '../../context.ts';
import { AppError, fieldError } from '../../lib/app-error.ts';
import { hmacSha256, randomDigits, safeEqual } from '../../lib/crypto.ts';
import { clearRateLimit, countHit, hitRateLimit, hitsSoFar, returnRateLimitHit } from '../../lib/rate-limits.queries.ts';
import type { Executor, Tx } from '../../db/database.ts';
import { confirmationCodeMail } from '../../mail/templates.ts';
import { mailJob } from '../../mail/mail.job.ts';
import { withUnsubscribe } from '../../mail/unsubscribe.ts';
import { mailKeys } from '../../mail/mail-keys.ts';
import { getBalances } from '../wallet/wallet.queries.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { createSession, revokeOtherSessions, revokeUserSessions, type IssuedSession } from './sessions.queries.ts';
import { findUserByEmail, findUserById, insertUser, lockUser, markEmailConfirmed, setPasswordHash } from './users.queries.ts';
import { countCodeAttempt, latestOpenCode, markCodeUsed, replaceEmailCode, secondsSinceLastCode } from './email-codes.queries.ts';
import { closeUserResets, findOpenReset, lockOpenReset } from './password-resets.queries.ts';
import { passesSignInCheck } from './sign-in-check.ts';
import { hasEnrolledFactor } from './second-factor.queries.ts';
import { checkSignInCode } from './second-factor.service.ts';
import { passwordResetJob } from './password-reset.job.ts';
import type { UserRow } from './accounts.table.ts';
import { currentLegal } from '../privacy/privacy.queries.ts';
import type { Viewer } from './viewer.ts';

export const EMAIL_CODE = { ttlMinutes: 30, maxAttempts: 5, resendSeconds: 60 } as const;

/**
 * Allowances of the sign-in forms (PRODUCT.md "Accounts"). Each refuses only whom it counts: an
 * address (every account tried from it), an address with one account, a signed-in user. An
 * account tried from many addresses is never refused for it: past `loginCheckAfter` failures its
 * sign-ins must pass the check (sign-in-check.ts) instead, harder as failures grow.
 */
export const AUTH_LIMITS = {
  loginPerIp: { max: 30, windowSeconds: 900 },
  loginPerIpAndEmail: { max: 10, windowSeconds: 900 },
  /** Failures of one account from any address, in a window, after which its sign-ins need the check (and each further this many, a level harder). */
  loginCheckAfter: { max: 20, windowSeconds: 900 },
  registerPerIp: { max: 20, windowSeconds: 3600 },
  resetPerIp: { max: 20, windowSeconds: 3600 },
  codePerIp: { max: 30, windowSeconds: 900 },
  codePerUser: { max: 20, windowSeconds: 900 },
  passwordChangePerUser: { max: 10, windowSeconds: 900 },
} as const;

interface RequestMeta {
  ip: string;
  userAgent: string | undefined;
}

/** What the user reply needs of a user: a row of `users`, or the viewer (read with the session). */
type Account = Pick<UserRow, 'id' | 'email' | 'role'> & ({ email_confirmed_at: Date | null } | { emailConfirmed: boolean });

export async function toUserDto(db: Executor, user: Account): Promise<User> {
  const confirmed = 'emailConfirmed' in user ? user.emailConfirmed : user.email_confirmed_at !== null;
  const [balances, sinceCode] = await Promise.all([getBalances(db, user.id), confirmed ? null : secondsSinceLastCode(db, user.id)]);
  const resendIn = sinceCode === null ? 0 : Math.max(0, Math.ceil(EMAIL_CODE.resendSeconds - sinceCode));
  return { id: user.id, email: user.email, email_confirmed: confirmed, role: user.role, balances, resend_in: resendIn };
}

function assertPasswordsMatch(password: string, confirmation: string): void {
  if (password !== confirmation) throw fieldError('password_confirmation', 'Пароли не совпадают');
}

const codeHash = (ctx: AppContext, userId: number, code: string) => hmacSha256(ctx.secrets.appSecret, `email-code:${String(userId)}:${code}`, 'hex');

async function issueEmailCode(ctx: AppContext, tx: Tx, user: Pick<UserRow, 'id' | 'email'>): Promise<void> {
  const code = randomDigits(6);
  await replaceEmailCode(tx, user.id, codeHash(ctx, user.id, code), new Date(Date.now() + EMAIL_CODE.ttlMinutes * 60_000));
  await ctx.jobs.send(mailJob, withUnsubscribe(mailKeys(ctx), user.id, confirmationCodeMail(user.email, code, EMAIL_CODE.ttlMinutes)), { tx });
}

/** Creates the account with its consent to the processing of personal data: when, to which version of the policy, from which address. */
export async function register(ctx: AppContext, input: { email: string; password: string; password_confirmation: string; consent: true; ref?: string | undefined }, meta: RequestMeta): Promise<{ session: IssuedSession; user: User }> {
  await hitRateLimit(ctx.db, `register:ip:${meta.ip}`, AUTH_LIMITS.registerPerIp, ctx.clock());
  assertPasswordsMatch(input.password, input.password_confirmation);
  const passwordHash = await hashPassword(input.password);
  return ctx.db.transaction().execute(async (tx) => {
    const policy = await currentLegal(tx, 'privacy');
    const user = await insertUser(tx, { email: input.email, password_hash: passwordHash, consent_at: new Date(), consent_version: policy.version, consent_ip: meta.ip });
    if (!user) throw fieldError('email', 'Этот email уже зарегистрирован', 'EMAIL_TAKEN');
    if (input.ref) await attachReferrer(tx, user.id, input.ref);
    await issueEmailCode(ctx, tx, user);
    const session = await createSession(tx, user.id, ctx.config.sessionTtlDays, meta);
    return { session, user: await toUserDto(tx, user) };
  });
}

/** How hard the sign-in check of `email` is now: 0 (none asked) while its failures from every address are few. */
export async function signInCheckLevel(ctx: AppContext, email: string): Promise<number> {
  const { max, windowSeconds } = AUTH_LIMITS.loginCheckAfter;
  return Math.floor((await hitsSoFar(ctx.db, `login:email:${email}`, windowSeconds, ctx.clock())) / max);
}

export async function login(ctx: AppContext, input: { email: string; password: string; check?: string | undefined; code?: string | undefined }, meta: RequestMeta): Promise<{ session: IssuedSession; user: User }> {
  const now = ctx.clock();
  // An account many sign-ins failed for, from whatever addresses: each sign-in solves a check first.
  if ((await signInCheckLevel(ctx, input.email)) > 0 && !(await passesSignInCheck(ctx, input.email, input.check))) throw new AppError('SIGN_IN_CHECK_REQUIRED');
  // Only failed attempts use up the limits: every attempt is counted before the password is
  // checked (so concurrent guesses cannot all pass an uncounted check), and a successful one
  // gives its hits back and ends the count of its address's failures with this account.
  const ipHit = await hitRateLimit(ctx.db, `login:ip:${meta.ip}`, AUTH_LIMITS.loginPerIp, now, (s) => signInLimitedText('address', s));
  const pairHit = await hitRateLimit(ctx.db, `login:ip-email:${meta.ip}:${input.email}`, AUTH_LIMITS.loginPerIpAndEmail, now, (s) => signInLimitedText('account', s));
  const accountHit = await countHit(ctx.db, `login:email:${input.email}`, AUTH_LIMITS.loginCheckAfter.windowSeconds, now);
  const user = await findUserByEmail(ctx.db, input.email);
  const valid = await verifyPassword(user?.password_hash, input.password);
  if (!user || !valid) throw new AppError('INVALID_CREDENTIALS');
  if (user.blocked_at) throw new AppError('ACCOUNT_BLOCKED');
  await Promise.all([returnRateLimitHit(ctx.db, ipHit), returnRateLimitHit(ctx.db, accountHit), clearRateLimit(ctx.db, pairHit.key)]);
  // An account with a second factor gets a session only with its code: the form asks for it after the password.
  if (await hasEnrolledFactor(ctx.db, user.id)) {
    if (input.code === undefined) throw new AppError('SECOND_FACTOR_REQUIRED');
    await checkSignInCode(ctx, user.id, input.code, meta.ip);
  }
  const session = await createSession(ctx.db, user.id, ctx.config.sessionTtlDays, meta);
  return { session, user: await toUserDto(ctx.db, user) };
}

type CodeOutcome = 'confirmed' | 'invalid' | 'exhausted' | 'expired' | 'already';

export async function confirmEmail(ctx: AppContext, userId: number, code: string, meta: RequestMeta): Promise<void> {
  await hitRateLimit(ctx.db, `code:ip:${meta.ip}`, AUTH_LIMITS.codePerIp, ctx.clock());
  await hitRateLimit(ctx.db, `code:user:${String(userId)}`, AUTH_LIMITS.codePerUser, ctx.clock());
  // The attempt counter must be committed even when the code is wrong, so the outcome is
  // decided inside the transaction and thrown only after it commits.
  const outcome = await ctx.db.transaction().execute(async (tx): Promise<CodeOutcome> => {
    const user = await lockUser(tx, userId);
    if (user.email_confirmed_at) return 'already';
    const current = await latestOpenCode(tx, userId);
    if (!current || current.expires_at.getTime() <= Date.now()) return 'expired';
    if (current.attempts >= EMAIL_CODE.maxAttempts) return 'exhausted';
    if (!safeEqual(current.code_hash, codeHash(ctx, userId, code))) {
      const attempts = current.attempts + 1;
      await countCodeAttempt(tx, current.id, attempts);
      return attempts >= EMAIL_CODE.maxAttempts ? 'exhausted' : 'invalid';
    }
    await markCodeUsed(tx, current.id);
    await markEmailConfirmed(tx, userId);
    return 'confirmed';
  });
  // This process's next request sees the change at once (others by the trigger's NOTIFY).
  if (outcome === 'confirmed') ctx.viewers.forgetUser(userId);
  switch (outcome) {
    case 'confirmed':
      return;
    case 'already':
      throw new AppError('EMAIL_ALREADY_CONFIRMED');
    case 'invalid':
      throw fieldError('code', 'Неверный код', 'CODE_INVALID');
    case 'exhausted':
      throw fieldError('code', 'Слишком много неверных попыток. Запросите новый код', 'CODE_ATTEMPTS_EXCEEDED');
    case 'expired':
      throw fieldError('code', 'Срок действия кода истёк. Запросите новый код', 'CODE_EXPIRED');
  }
}

/** Mails a new code unless the last one was sent less than a minute ago; answers seconds until the next resend. */
export async function resendEmailCode(ctx: AppContext, userId: number): Promise<number> {
  const outcome = await ctx.db.transaction().execute(async (tx) => {
    const user = await lockUser(tx, userId);
    if (user.email_confirmed_at) return 'already' as const;
    const age = await secondsSinceLastCode(tx, userId);
    if (age !== null && age < EMAIL_CODE.resendSeconds) return 'too-soon' as const;
    await issueEmailCode(ctx, tx, user);
    return 'sent' as const;
  });
  if (outcome === 'already') throw new AppError('EMAIL_ALREADY_CONFIRMED');
  if (outcome === 'too-soon') throw new AppError('RESEND_TOO_SOON');
  return EMAIL_CODE.resendSeconds;
}

/**
 * A reset request: whatever the email, the same statements — its address counted, a job queued
 * (`passwordResetJob` decides whether there is an account to mail) — so the reply neither says nor
 * takes longer for an account that exists. Only the address is limited: nobody else's requests
 * can hold back an owner's.
 */
export async function requestPasswordReset(ctx: AppContext, email: string, meta: RequestMeta): Promise<void> {
  await hitRateLimit(ctx.db, `reset:ip:${meta.ip}`, AUTH_LIMITS.resetPerIp, ctx.clock());
  await ctx.jobs.send(passwordResetJob, { email });
}

/** Sets a new password with a single-use link; ends every session of the account. */
export async function resetPassword(ctx: AppContext, input: { email: string; token: string; password: string; password_confirmation: string }, meta: RequestMeta): Promise<void> {
  await hitRateLimit(ctx.db, `reset:ip:${meta.ip}`, AUTH_LIMITS.resetPerIp, ctx.clock());
  assertPasswordsMatch(input.password, input.password_confirmation);
  const passwordHash = await hashPassword(input.password);
  const userId = await ctx.db.transaction().execute(async (tx) => {
    const reset = await lockOpenReset(tx, input.token, input.email);
    if (!reset) return null;
    await closeUserResets(tx, reset.user_id);
    await setPasswordHash(tx, reset.user_id, passwordHash);
    // Opening the mailed link proves the address is the user's.
    await markEmailConfirmed(tx, reset.user_id);
    await revokeUserSessions(tx, reset.user_id);
    return reset.user_id;
  });
  if (userId === null) throw new AppError('RESET_TOKEN_INVALID');
  ctx.viewers.forgetUser(userId);
}

/**
 * Sets a new password given the current one (a temporary password first of all, which stops being
 * one); the account's other sessions end, this one goes on. Wrong guesses are limited per user.
 */
export async function changePassword(ctx: AppContext, viewer: Viewer, input: { current_password: string; password: string }): Promise<void> {
  await hitRateLimit(ctx.db, `password:user:${String(viewer.id)}`, AUTH_LIMITS.passwordChangePerUser, ctx.clock());
  const user = await findUserById(ctx.db, viewer.id);
  if (!user || !(await verifyPassword(user.password_hash, input.current_password))) throw fieldError('current_password', ERROR_CODES.WRONG_PASSWORD.message, 'WRONG_PASSWORD');
  const passwordHash = await hashPassword(input.password);
  await ctx.db.transaction().execute(async (tx) => {
    await setPasswordHash(tx, viewer.id, passwordHash);
    await revokeOtherSessions(tx, viewer.id, viewer.sessionId);
  });
  ctx.viewers.forgetUser(viewer.id);
}

/** Whether a reset link can still set a password (the form says so at once instead of failing at submit). */
export async function isResetLinkValid(ctx: AppContext, token: string, email: string): Promise<boolean> {
  if (!token || !email) return false;
  return (await findOpenReset(ctx.db, token, email.toLowerCase()).select('password_resets.id').executeTakeFirst()) !== undefined;
}

/**
 * The signed-in user (`GET /api/new/user`): the viewer's row, read with the session, is the user
 * row, so only the balances (and, before confirmation, when the last code went out) are read.
 */
export function currentUser(ctx: AppContext, viewer: Viewer): Promise<User> {
  return toUserDto(ctx.db, viewer);
}
