import { CP_CODES } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/database.ts';
import { DAY_MS, addMonths, kopecksFrom } from '../billing/money.ts';
import { changeSubscription, currentSubscription, logSubscription } from '../billing/subscriptions.queries.ts';
import { CURRENT_STATUSES, type SubscriptionRow } from '../billing/billing.table.ts';
import { findCpSubscription, insertAutoCharge, linkCpSubscription, lockSubscriptionByCpId, lockUnlinkedSubscription, tariffTokens } from './notifications.queries.ts';
import { grant, saveCardOf } from './payment-grants.ts';
import type { Code, PaymentNotification } from './notification.schema.ts';

/** The subscription a renewal charge belongs to, linking it through the Recurrent data if needed. */
export async function subscriptionOfCharge(tx: Tx, cpId: string, accountId: string | undefined): Promise<SubscriptionRow | undefined> {
  const linked = await lockSubscriptionByCpId(tx, cpId);
  if (linked) return linked;
  const cp = await findCpSubscription(tx, cpId);
  const userId = Number(cp?.account_id ?? accountId);
  if (!Number.isSafeInteger(userId) || userId <= 0) return undefined;
  const candidate = await lockUnlinkedSubscription(tx, userId, CURRENT_STATUSES);
  if (!candidate) return undefined;
  await linkCpSubscription(tx, candidate.id, cpId);
  return { ...candidate, cp_subscription_id: cpId };
}

/**
 * A Pay of a CloudPayments subscription's charge (a renewal): a new period from the old end and
 * the plan's tokens again, once per transaction (the charge's row).
 */
export async function applyRenewal(ctx: AppContext, tx: Tx, n: PaymentNotification): Promise<Code> {
  const sub = await subscriptionOfCharge(tx, n.SubscriptionId ?? '', n.AccountId);
  // Unknown yet (the Recurrent notification may still be on its way): ask CloudPayments to retry.
  if (!sub) return CP_CODES.cannotAccept;
  if (n.AccountId !== undefined && String(sub.user_id) !== n.AccountId) return CP_CODES.wrongAccount;
  const amount = kopecksFrom(n.Amount);
  if (amount !== sub.amount_kopecks || n.Currency !== sub.currency_provider) return CP_CODES.wrongAmount;
  const now = new Date();
  const chargeId = await insertAutoCharge(tx, { user_id: sub.user_id, subscription_id: sub.id, name: sub.name, success: true, amount_kopecks: amount, currency_provider: sub.currency_provider, transaction_id: n.TransactionId });
  if (chargeId === undefined) return CP_CODES.ok;
  await saveCardOf(tx, sub.user_id, n);
  const base = sub.period_end && sub.period_end.getTime() > now.getTime() - 7 * DAY_MS ? sub.period_end : now;
  const periodEnd = addMonths(base, 1);
  if (sub.status === 'active' || sub.status === 'past_due' || sub.status === 'cancelled') {
    await changeSubscription(tx, sub, sub.status === 'cancelled' ? 'cancelled' : 'active', 'renewed', n.TransactionId, { period_end: periodEnd });
  } else if (sub.status === 'expired') {
    const other = await currentSubscription(tx, sub.user_id);
    if (other) await logSubscription(tx, sub, sub.status, 'renewal_charged_while_replaced', n.TransactionId);
    else await changeSubscription(tx, sub, 'active', 'renewed_after_expiry', n.TransactionId, { period_end: periodEnd, ended_at: null });
  } else {
    await logSubscription(tx, sub, sub.status, 'renewal_charged_while_replaced', n.TransactionId);
  }
  const tariff = await tariffTokens(tx, sub.tariff_id);
  await grant(tx, sub.user_id, 'subscription_grant', { type: 'auto_charge', id: chargeId }, tariff.words, tariff.media_tenths);
  return CP_CODES.ok;
}
