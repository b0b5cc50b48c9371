import { CP_CODES } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/database.ts';
import { kopecksFrom } from '../billing/money.ts';
import { changeSubscription } from '../billing/subscriptions.queries.ts';
import { CURRENT_STATUSES } from '../billing/billing.table.ts';
import { linkCpSubscription, lockSubscriptionByCpId, lockUnlinkedSubscription, upsertCpSubscription } from './notifications.queries.ts';
import { cancelCpSubscriptionJob } from './payments.jobs.ts';
import type { Code, RecurrentNotification } from './notification.schema.ts';

/** CloudPayments' `yyyy-MM-dd HH:mm:ss` (UTC unless it names a zone), or null. */
function parseNextDate(value: string | undefined): Date | null {
  if (!value) return null;
  const date = new Date(`${value.replace(' ', 'T')}${/Z|[+-]\d\d:?\d\d$/.test(value) ? '' : 'Z'}`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Recurrent: what CloudPayments says of its subscription, kept, and our plan brought in line with it. */
export async function applyRecurrent(ctx: AppContext, tx: Tx, n: RecurrentNotification): Promise<Code> {
  const amount = kopecksFrom(n.Amount);
  const stored = await upsertCpSubscription(tx, {
    id: n.Id,
    accountId: n.AccountId,
    status: n.Status,
    amountKopecks: Number.isFinite(amount) ? amount : 0,
    nextTransactionAt: parseNextDate(n.NextTransactionDate),
    successful: n.SuccessfulTransactionsNumber,
    failed: n.FailedTransactionsNumber,
  });
  if (stored !== n.Status) return CP_CODES.ok;
  let sub = await lockSubscriptionByCpId(tx, n.Id);
  if (!sub) {
    // A Recurrent before its Pay: remember it on the newest unpaid plan of this account with that amount.
    const userId = Number(n.AccountId);
    if (Number.isSafeInteger(userId) && userId > 0) {
      // Cancelled too: a user may cancel before the Recurrent names the CloudPayments subscription, which must then be cancelled there.
      const pending = await lockUnlinkedSubscription(tx, userId, ['pending', ...CURRENT_STATUSES], amount);
      if (pending) {
        await linkCpSubscription(tx, pending.id, n.Id);
        sub = { ...pending, cp_subscription_id: n.Id };
      }
    }
  }
  if (!sub) return CP_CODES.ok;
  const ended = n.Status === 'Cancelled' || n.Status === 'Rejected' || n.Status === 'Expired';
  if (ended && (sub.status === 'active' || sub.status === 'past_due')) {
    await changeSubscription(tx, sub, 'cancelled', `cloudpayments_${n.Status.toLowerCase()}`, n.Id, { cancelled_at: new Date() });
  } else if (n.Status === 'PastDue' && sub.status === 'active') {
    await changeSubscription(tx, sub, 'past_due', 'cloudpayments_pastdue', n.Id);
  } else if (n.Status === 'Active' && sub.status === 'past_due') {
    await changeSubscription(tx, sub, 'active', 'cloudpayments_active', n.Id);
  } else if ((n.Status === 'Active' || n.Status === 'PastDue') && sub.status === 'cancelled') {
    // We cancelled but CloudPayments still has it active: cancel it there again.
    await ctx.jobs.send(cancelCpSubscriptionJob, { id: n.Id }, { tx });
  }
  return CP_CODES.ok;
}
