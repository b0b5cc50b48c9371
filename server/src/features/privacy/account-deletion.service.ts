import type { AppContext } from '../../context.ts';
import { AppError, fieldError } from '../../lib/app-error.ts';
import { hitRateLimit } from '../../lib/rate-limits.queries.ts';
import { AUTH_LIMITS } from '../accounts/accounts.service.ts';
import { verifyPassword } from '../accounts/passwords.ts';
import { findUserById } from '../accounts/users.queries.ts';
import { changeSubscription, lockCurrentSubscription } from '../billing/subscriptions.queries.ts';
import { generatingAnswersOf } from '../chat/chat.queries.ts';
import { cancelCpSubscriptionJob } from '../payments/payments.jobs.ts';
import { releaseHold } from '../wallet/wallet.queries.ts';
import { anonymiseUser, eraseUserContent, filesOf, lockLiveUser, openHoldsOf } from './privacy.queries.ts';

/** Deletes blobs one by one; one that fails is logged and left (its row is gone either way). */
async function deleteBlobs(ctx: AppContext, keys: readonly string[]): Promise<void> {
  for (const key of keys) {
    try {
      await ctx.storage.delete(key);
    } catch (err) {
      ctx.log.error({ err, key }, 'a deleted account’s file could not be removed from storage');
    }
  }
}

/**
 * Deletes the account, confirmed by its password (152-ФЗ): in one transaction the current plan
 * ends (CloudPayments' subscription is cancelled by a job enqueued with it), work in progress is
 * stopped and its holds given back, chats, runs and files are erased, codes, reset links and the
 * saved card removed, every session ended, and the email replaced by a placeholder. Payments,
 * receipts and the ledger stay, under the placeholder. Then the files' blobs are deleted. A
 * second deletion at the same time waits for the first and finds the account gone. Chat answers
 * being written are stopped first, wherever they are written (charged for what they wrote, as a
 * stopped answer is): none goes on streaming, nor asking its provider, for an account that is gone.
 */
export async function deleteAccount(ctx: AppContext, userId: number, password: string): Promise<void> {
  const user = await findUserById(ctx.db, userId);
  if (!user || user.deleted_at) throw new AppError('UNAUTHENTICATED');
  // The password is guessed no faster here than on the password change.
  await hitRateLimit(ctx.db, `account-delete:user:${String(userId)}`, AUTH_LIMITS.passwordChangePerUser, ctx.clock());
  if (!(await verifyPassword(user.password_hash, password))) throw fieldError('password', 'Неверный пароль', 'WRONG_PASSWORD');
  for (const answer of await generatingAnswersOf(ctx.db, userId)) await ctx.chatRuns.stop(answer.id);
  const keys = await ctx.db.transaction().execute(async (tx) => {
    if (!(await lockLiveUser(tx, userId))) throw new AppError('UNAUTHENTICATED');
    const plan = await lockCurrentSubscription(tx, userId);
    if (plan) {
      if (plan.cp_subscription_id) await ctx.jobs.send(cancelCpSubscriptionJob, { id: plan.cp_subscription_id }, { tx });
      const now = new Date();
      await changeSubscription(tx, plan, 'expired', 'account_deleted', null, { cancelled_at: plan.cancelled_at ?? now, ended_at: now });
    }
    for (const hold of await openHoldsOf(tx, userId)) await releaseHold(tx, hold);
    const erased = await eraseUserContent(tx, userId);
    await anonymiseUser(tx, userId);
    return erased;
  });
  ctx.viewers.forgetUser(userId);
  await deleteBlobs(ctx, keys);
}

/**
 * Files a deleted account still owns: a run that was with its provider when the account was
 * deleted may store its output afterwards. Removed with their blobs; answers how many.
 */
export async function eraseLateFiles(ctx: AppContext, userId: number): Promise<number> {
  const files = await filesOf(ctx.db, userId);
  if (files.length === 0) return 0;
  const keys = await ctx.db.transaction().execute(async (tx) => eraseUserContent(tx, userId));
  await deleteBlobs(ctx, keys);
  return keys.length;
}
