import { codeLimitedText, EmailSchema, type SecondFactorSetup } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import type { Db, Executor } from '../../db/database.ts';
import { AppError, fieldError } from '../../lib/app-error.ts';
import { hitRateLimit, returnRateLimitHit } from '../../lib/rate-limits.queries.ts';
import { recordAudit } from '../admin/audit.queries.ts';
import { enrolmentOf, newRecoveryCodes, newTotpSecret, openSecret, readCode, recoveryCodeHash, sealSecret, totpStep } from './second-factor.ts';
import { deleteFactor, dropSecondFactorStep, findFactor, insertPendingFactor, lockPendingFactor, replaceRecoveryCodes, requireSecondFactor, takeStep, useRecoveryCode } from './second-factor.queries.ts';
import { revokeOtherSessions, revokeUserSessions } from './sessions.queries.ts';
import { lockUserByEmail } from './users.queries.ts';
import type { Viewer } from './viewer.ts';

/** Wrong codes of the second factor (sign-in and enrolment): an account's from every address, and an address's for every account. */
export const SECOND_FACTOR_LIMITS = {
  perUser: { max: 10, windowSeconds: 900 },
  perIp: { max: 30, windowSeconds: 900 },
} as const;

/** The audit log's actions of the second factor. */
export const SECOND_FACTOR_AUDIT = { enrol: 'user.second_factor_enrol', recovery: 'user.recovery_code', reset: 'user.second_factor_reset' } as const;

/** Counts a code attempt against both limits before it is checked; a right code gives its hits back. */
async function countAttempt(ctx: AppContext, userId: number, ip: string) {
  const now = ctx.clock();
  const user = await hitRateLimit(ctx.db, `second-factor:user:${String(userId)}`, SECOND_FACTOR_LIMITS.perUser, now, codeLimitedText);
  const address = await hitRateLimit(ctx.db, `second-factor:ip:${ip}`, SECOND_FACTOR_LIMITS.perIp, now, codeLimitedText);
  return () => Promise.all([returnRateLimitHit(ctx.db, user), returnRateLimitHit(ctx.db, address)]);
}

const invalidCode = () => fieldError('code', 'Неверный код', 'SECOND_FACTOR_INVALID');
const reusedCode = () => fieldError('code', 'Этот код уже использован. Дождитесь следующего кода в приложении', 'SECOND_FACTOR_REUSED');

/** Only an account whose pending step is the enrolment enrols (staff without a factor); anyone else is told why not. */
function assertEnrolling(viewer: Viewer): void {
  if (viewer.setupStep !== 'second_factor') throw new AppError(viewer.role === 'admin' ? 'SECOND_FACTOR_ALREADY' : 'FORBIDDEN');
}

/** The enrolment's secret, link and QR code: the same until it is confirmed, so a reloaded page shows what the app scanned. */
export async function startEnrolment(ctx: AppContext, viewer: Viewer): Promise<SecondFactorSetup> {
  assertEnrolling(viewer);
  await insertPendingFactor(ctx.db, viewer.id, sealSecret(ctx.secrets.appSecret, newTotpSecret()));
  const factor = await findFactor(ctx.db, viewer.id);
  if (!factor || factor.enrolled_at) throw new AppError('SECOND_FACTOR_ALREADY');
  return enrolmentOf(openSecret(ctx.secrets.appSecret, factor.secret), viewer.email);
}

/**
 * Confirms the enrolment with the app's first code: the factor is on, ten recovery codes replace
 * any earlier ones (answered once, kept as HMACs), the setup step is done, the account's other
 * sessions end and the audit log says so, all in one transaction.
 */
export async function finishEnrolment(ctx: AppContext, viewer: Viewer, code: string, ip: string): Promise<string[]> {
  assertEnrolling(viewer);
  const giveBack = await countAttempt(ctx, viewer.id, ip);
  const codes = newRecoveryCodes();
  const outcome = await ctx.db.transaction().execute(async (tx) => {
    const pending = await lockPendingFactor(tx, viewer.id);
    // None waiting: enrolled meanwhile (the same code sent twice at once), or the page is older than a reset.
    if (!pending) return (await findFactor(tx, viewer.id))?.enrolled_at ? ('already' as const) : ('none' as const);
    const step = totpStep(openSecret(ctx.secrets.appSecret, pending.secret), code, ctx.clock());
    if (step === null) return 'invalid' as const;
    if (!(await takeStep(tx, viewer.id, step, true))) return 'reused' as const;
    await replaceRecoveryCodes(tx, viewer.id, codes.map((c) => recoveryCodeHash(ctx.secrets.appSecret, viewer.id, c)));
    await dropSecondFactorStep(tx, viewer.id);
    await revokeOtherSessions(tx, viewer.id, viewer.sessionId);
    await recordAudit(tx, { actorId: viewer.id, action: SECOND_FACTOR_AUDIT.enrol, entity: 'user', entityId: viewer.id, before: { second_factor: false }, after: { second_factor: true } });
    return 'enrolled' as const;
  });
  if (outcome === 'already') throw new AppError('SECOND_FACTOR_ALREADY');
  if (outcome === 'none') throw new AppError('BAD_REQUEST', 'Откройте страницу подключения заново: QR-код устарел');
  if (outcome === 'invalid') throw invalidCode();
  if (outcome === 'reused') throw reusedCode();
  await giveBack();
  ctx.viewers.forgetUser(viewer.id);
  return codes;
}

/**
 * The second step of an enrolled account's sign-in: the app's code of now or a step either side,
 * never one taken before (the last step is kept per account and moved by one statement), or an
 * unused recovery code, which is then spent and written to the audit log. Failures are limited.
 */
export async function checkSignInCode(ctx: AppContext, userId: number, raw: string, ip: string): Promise<void> {
  const giveBack = await countAttempt(ctx, userId, ip);
  const typed = readCode(raw);
  const factor = await findFactor(ctx.db, userId);
  if (!typed || !factor?.enrolled_at) throw invalidCode();
  if (typed.kind === 'totp') {
    const step = totpStep(openSecret(ctx.secrets.appSecret, factor.secret), typed.code, ctx.clock());
    if (step === null) throw invalidCode();
    if (!(await takeStep(ctx.db, userId, step))) throw reusedCode();
  } else {
    const used = await ctx.db.transaction().execute(async (tx) => {
      if (!(await useRecoveryCode(tx, userId, recoveryCodeHash(ctx.secrets.appSecret, userId, typed.code)))) return false;
      await recordAudit(tx, { actorId: userId, action: SECOND_FACTOR_AUDIT.recovery, entity: 'user', entityId: userId, before: undefined, after: undefined });
      return true;
    });
    if (!used) throw invalidCode();
  }
  await giveBack();
}

/** What a role change does to the second factor: staff without one must enrol, others need not. */
export async function secondFactorForRole(db: Executor, userId: number, role: 'user' | 'admin'): Promise<void> {
  if (role === 'user') {
    await dropSecondFactorStep(db, userId);
    return;
  }
  const factor = await findFactor(db, userId);
  if (!factor?.enrolled_at) await requireSecondFactor(db, userId);
}

export type SecondFactorResetResult = { email: string; hadFactor: boolean; sessionsEnded: number; staff: boolean };

/**
 * `npm run admin:reset-2fa -- <email>` (a lost phone): the factor and its recovery codes go, every
 * session ends, and staff must enrol again (the `second_factor` step) at their next sign-in.
 */
export async function resetSecondFactor(db: Db, rawEmail: string): Promise<SecondFactorResetResult> {
  const parsed = EmailSchema.safeParse(rawEmail);
  if (!parsed.success) throw new Error(`Некорректный email: ${rawEmail}`);
  const email = parsed.data;
  return db.transaction().execute(async (tx) => {
    const user = await lockUserByEmail(tx, email);
    if (!user) throw new Error(`Пользователь ${email} не найден`);
    const hadFactor = await deleteFactor(tx, user.id);
    const staff = user.role === 'admin';
    if (staff) await requireSecondFactor(tx, user.id);
    const sessionsEnded = await revokeUserSessions(tx, user.id);
    await recordAudit(tx, { actorId: null, action: SECOND_FACTOR_AUDIT.reset, entity: 'user', entityId: user.id, before: { second_factor: hadFactor }, after: { second_factor: false } });
    return { email, hadFactor, sessionsEnded, staff };
  });
}

export function describeSecondFactorReset(result: SecondFactorResetResult): string {
  const what = result.hadFactor ? 'Второй фактор сброшен' : 'Второй фактор не был подключён';
  const next = result.staff ? 'при следующем входе он заново подключит приложение-аутентификатор — до этого админка не откроется.' : 'аккаунт не администратор: входить он будет по паролю.';
  return `${what} у ${result.email}. Все его сеансы завершены (${String(result.sessionsEnded)}); ${next}`;
}
