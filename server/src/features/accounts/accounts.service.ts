import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { User } from '@app/contracts';
import { AppError, fieldError } from '../../lib/app-error.ts';
import { hmacSha256, randomDigits, randomToken, safeEqual, sha256 } from '../../lib/crypto.ts';
import { hitRateLimit } from '../../lib/rate-limit.ts';
import type { Executor, Tx } from '../../db/database.ts';
import { confirmationCodeMail, passwordResetMail } from '../../mail/templates.ts';
import { MAIL_JOB } from '../../mail/mail.job.ts';
import { getBalances } from '../wallet/wallet.queries.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { createSession, revokeUserSessions, type IssuedSession } from './sessions.queries.ts';
import { findUserByEmail, findUserById, insertUser, markEmailConfirmed, setPasswordHash } from './users.queries.ts';
import type { UserRow } from './accounts.table.ts';

export const EMAIL_CODE = { ttlMinutes: 30, maxAttempts: 5, resendSeconds: 60 } as const;
export const RESET_LINK = { ttlMinutes: 60 } as const;

/** Per-IP and per-email allowances of the sign-in forms (PRODUCT.md "Accounts"). */
export const AUTH_LIMITS = {
  loginPerIp: { max: 30, windowSeconds: 900 },
  loginPerEmail: { max: 10, windowSeconds: 900 },
  registerPerIp: { max: 20, windowSeconds: 3600 },
  resetPerIp: { max: 20, windowSeconds: 3600 },
  resetPerEmail: { max: 5, windowSeconds: 3600 },
  codePerIp: { max: 30, windowSeconds: 900 },
  codePerUser: { max: 20, windowSeconds: 900 },
} as const;

interface RequestMeta {
  ip: string;
  userAgent: string | undefined;
}

export async function toUserDto(db: Executor, user: Pick<UserRow, 'id' | 'email' | 'role' | 'email_confirmed_at'>): Promise<User> {
  const balances = await getBalances(db, user.id);
  return { id: user.id, email: user.email, email_confirmed: user.email_confirmed_at !== null, role: user.role, balances };
}

function assertPasswordsMatch(password: string, confirmation: string): void {
  if (password !== confirmation) throw fieldError('password_confirmation', 'Пароли не совпадают');
}

const codeHash = (app: FastifyInstance, userId: number, code: string) => hmacSha256(app.secrets.appSecret, `email-code:${String(userId)}:${code}`, 'hex');

async function issueEmailCode(app: FastifyInstance, tx: Tx, user: Pick<UserRow, 'id' | 'email'>): Promise<void> {
  const code = randomDigits(6);
  await tx.updateTable('email_codes').set({ used_at: new Date() }).where('user_id', '=', user.id).where('used_at', 'is', null).execute();
  await tx
    .insertInto('email_codes')
    .values({ user_id: user.id, code_hash: codeHash(app, user.id, code), expires_at: new Date(Date.now() + EMAIL_CODE.ttlMinutes * 60_000) })
    .execute();
  await app.jobs.send(MAIL_JOB, confirmationCodeMail(user.email, code, EMAIL_CODE.ttlMinutes), tx);
}

export async function register(app: FastifyInstance, input: { email: string; password: string; password_confirmation: string }, meta: RequestMeta): Promise<{ session: IssuedSession; user: User }> {
  await hitRateLimit(app.db, `register:ip:${meta.ip}`, AUTH_LIMITS.registerPerIp);
  assertPasswordsMatch(input.password, input.password_confirmation);
  const passwordHash = await hashPassword(input.password);
  return app.db.transaction().execute(async (tx) => {
    const user = await insertUser(tx, { email: input.email, password_hash: passwordHash });
    if (!user) throw fieldError('email', 'Этот email уже зарегистрирован', 'EMAIL_TAKEN');
    await issueEmailCode(app, tx, user);
    const session = await createSession(tx, user.id, app.config.sessionTtlDays, meta);
    return { session, user: await toUserDto(tx, user) };
  });
}

export async function login(app: FastifyInstance, input: { email: string; password: string }, meta: RequestMeta): Promise<{ session: IssuedSession; user: User }> {
  await hitRateLimit(app.db, `login:ip:${meta.ip}`, AUTH_LIMITS.loginPerIp);
  await hitRateLimit(app.db, `login:email:${input.email}`, AUTH_LIMITS.loginPerEmail);
  const user = await findUserByEmail(app.db, input.email);
  const valid = await verifyPassword(user?.password_hash, input.password);
  if (!user || !valid) throw new AppError('INVALID_CREDENTIALS');
  if (user.blocked_at) throw new AppError('ACCOUNT_BLOCKED');
  const session = await createSession(app.db, user.id, app.config.sessionTtlDays, meta);
  return { session, user: await toUserDto(app.db, user) };
}

type CodeOutcome = 'confirmed' | 'invalid' | 'exhausted' | 'expired' | 'already';

export async function confirmEmail(app: FastifyInstance, userId: number, code: string, meta: RequestMeta): Promise<void> {
  await hitRateLimit(app.db, `code:ip:${meta.ip}`, AUTH_LIMITS.codePerIp);
  await hitRateLimit(app.db, `code:user:${String(userId)}`, AUTH_LIMITS.codePerUser);
  // The attempt counter must be committed even when the code is wrong, so the outcome is
  // decided inside the transaction and thrown only after it commits.
  const outcome = await app.db.transaction().execute(async (tx): Promise<CodeOutcome> => {
    const user = await tx.selectFrom('users').select(['id', 'email_confirmed_at']).where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
    if (user.email_confirmed_at) return 'already';
    const current = await tx
      .selectFrom('email_codes')
      .selectAll()
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!current || current.expires_at.getTime() <= Date.now()) return 'expired';
    if (current.attempts >= EMAIL_CODE.maxAttempts) return 'exhausted';
    if (!safeEqual(current.code_hash, codeHash(app, userId, code))) {
      const attempts = current.attempts + 1;
      await tx.updateTable('email_codes').set({ attempts }).where('id', '=', current.id).execute();
      return attempts >= EMAIL_CODE.maxAttempts ? 'exhausted' : 'invalid';
    }
    await tx.updateTable('email_codes').set({ used_at: new Date() }).where('id', '=', current.id).execute();
    await markEmailConfirmed(tx, userId);
    return 'confirmed';
  });
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
export async function resendEmailCode(app: FastifyInstance, userId: number): Promise<number> {
  const outcome = await app.db.transaction().execute(async (tx) => {
    const user = await tx.selectFrom('users').select(['id', 'email', 'email_confirmed_at']).where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
    if (user.email_confirmed_at) return 'already' as const;
    const last = await tx
      .selectFrom('email_codes')
      .select(sql<number>`extract(epoch from now() - created_at)`.as('age'))
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (last && last.age < EMAIL_CODE.resendSeconds) return 'too-soon' as const;
    await issueEmailCode(app, tx, user);
    return 'sent' as const;
  });
  if (outcome === 'already') throw new AppError('EMAIL_ALREADY_CONFIRMED');
  if (outcome === 'too-soon') throw new AppError('RESEND_TOO_SOON');
  return EMAIL_CODE.resendSeconds;
}

/** Mails a reset link when the account exists; answers the same either way. */
export async function requestPasswordReset(app: FastifyInstance, email: string, meta: RequestMeta): Promise<void> {
  await hitRateLimit(app.db, `reset:ip:${meta.ip}`, AUTH_LIMITS.resetPerIp);
  await hitRateLimit(app.db, `reset:email:${email}`, AUTH_LIMITS.resetPerEmail);
  const user = await findUserByEmail(app.db, email);
  if (!user || user.blocked_at) return;
  const token = randomToken('', 32);
  const link = `${app.config.publicUrl}/password/reset/${token}?email=${encodeURIComponent(user.email)}`;
  await app.db.transaction().execute(async (tx) => {
    await tx
      .insertInto('password_resets')
      .values({ user_id: user.id, token_hash: sha256(token), expires_at: new Date(Date.now() + RESET_LINK.ttlMinutes * 60_000) })
      .execute();
    await app.jobs.send(MAIL_JOB, passwordResetMail(user.email, link, RESET_LINK.ttlMinutes), tx);
  });
}

/** Sets a new password with a single-use link; ends every session of the account. */
export async function resetPassword(app: FastifyInstance, input: { email: string; token: string; password: string; password_confirmation: string }, meta: RequestMeta): Promise<void> {
  await hitRateLimit(app.db, `reset:ip:${meta.ip}`, AUTH_LIMITS.resetPerIp);
  assertPasswordsMatch(input.password, input.password_confirmation);
  const passwordHash = await hashPassword(input.password);
  const done = await app.db.transaction().execute(async (tx) => {
    const reset = await tx
      .selectFrom('password_resets')
      .innerJoin('users', 'users.id', 'password_resets.user_id')
      .select(['password_resets.id', 'users.id as user_id'])
      .where('password_resets.token_hash', '=', sha256(input.token))
      .where('users.email', '=', input.email)
      .where('password_resets.used_at', 'is', null)
      .where('password_resets.expires_at', '>', sql<Date>`now()`)
      .forUpdate()
      .executeTakeFirst();
    if (!reset) return false;
    await tx.updateTable('password_resets').set({ used_at: new Date() }).where('user_id', '=', reset.user_id).where('used_at', 'is', null).execute();
    await setPasswordHash(tx, reset.user_id, passwordHash);
    // Opening the mailed link proves the address is the user's.
    await markEmailConfirmed(tx, reset.user_id);
    await revokeUserSessions(tx, reset.user_id);
    return true;
  });
  if (!done) throw new AppError('RESET_TOKEN_INVALID');
}

export async function currentUser(app: FastifyInstance, userId: number): Promise<User> {
  const user = await findUserById(app.db, userId);
  if (!user) throw new AppError('UNAUTHENTICATED');
  return toUserDto(app.db, user);
}
