import { CP_CODES } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/database.ts';
import { takeBackUpTo } from '../wallet/wallet.queries.ts';
import { kopecksFrom } from '../billing/money.ts';
import { changeSubscription, lockSubscription } from '../billing/subscriptions.queries.ts';
import { lockInvoiceByTransaction, updateInvoice } from '../billing/invoices.queries.ts';
import { grantsAndRefundsOf, lockChargeByTransaction, updateChargeRefund } from './notifications.queries.ts';
import { cancelCpSubscriptionJob } from './payments.jobs.ts';
import { recordAppliedRefund } from './refunds.queries.ts';
import { referralBonusOnRefund } from '../promo/referral.service.ts';
import type { Code, PaymentNotification } from './notification.schema.ts';

/**
 * Refunded kopecks of a payment before and after this refund, capped at the payment. Partial
 * refunds add up; an unreadable amount counts as the whole payment.
 */
function refundSpan(paid: number, refundedBefore: number, amount: number): { from: number; to: number } {
  const from = Math.min(refundedBefore, paid);
  const add = Number.isFinite(amount) ? Math.max(0, amount) : paid;
  return { from, to: Math.min(paid, from + add) };
}

/**
 * Takes back the tokens a refunded payment granted, in proportion to the money this refund adds
 * to the refunded total (so partial refunds add up to exactly the grant): from the balance, and
 * what the balance lacks from the user's open holds as their work gives it back (`takeBackUpTo`).
 */
async function takeBack(tx: Tx, userId: number, ref: { type: 'invoice' | 'auto_charge'; id: number }, paid: number, span: { from: number; to: number }, key: string): Promise<void> {
  const rows = await grantsAndRefundsOf(tx, userId, ref);
  for (const kind of ['words', 'media'] as const) {
    const granted = rows.filter((r) => r.kind === kind && r.ref_type === ref.type && r.amount > 0).reduce((s, r) => s + r.amount, 0);
    const takenBefore = -rows.filter((r) => r.kind === kind && r.ref_type === `${ref.type}_refund`).reduce((s, r) => s + r.amount, 0);
    const wanted = Math.min(granted - takenBefore, Math.floor((granted * span.to) / paid) - Math.floor((granted * span.from) / paid));
    if (wanted > 0) await takeBackUpTo(tx, { userId, kind, reason: 'refund', idempotencyKey: `${key}:${kind}`, refType: `${ref.type}_refund`, refId: ref.id }, wanted);
  }
}

/**
 * Refund (or Cancel) of a payment: the refunded amount adds up on the payment, its tokens go back
 * in proportion, a plan refunded whole ends; the refund is recorded (completing the request that
 * asked for it). A refund of a payment not known yet is refused, so CloudPayments sends it again.
 */
export async function applyRefund(ctx: AppContext, tx: Tx, paymentTransactionId: number, n: PaymentNotification, key: string): Promise<Code> {
  const refunded = kopecksFrom(n.Amount);
  const now = new Date();
  const invoice = await lockInvoiceByTransaction(tx, paymentTransactionId);
  if (invoice) {
    // The plan before the wallet, in the order of Pay and renewals: the other way round they deadlock.
    const sub = invoice.subscription_id ? await lockSubscription(tx, invoice.subscription_id) : undefined;
    const span = refundSpan(invoice.amount_kopecks, invoice.refunded_kopecks, refunded);
    await takeBack(tx, invoice.user_id, { type: 'invoice', id: invoice.id }, invoice.amount_kopecks, span, key);
    await referralBonusOnRefund(tx, invoice, span, key);
    const whole = span.to >= invoice.amount_kopecks;
    await updateInvoice(tx, invoice.id, { refunded_kopecks: span.to, ...(whole && invoice.status !== 'refunded' ? { status: 'refunded' as const, refunded_at: now } : {}) });
    await recordAppliedRefund(tx, { payment: { invoiceId: invoice.id }, userId: invoice.user_id, paymentTransactionId, refundTransactionId: n.TransactionId, reportedKopecks: refunded, appliedKopecks: span.to - span.from });
    if (sub && whole && (sub.status === 'active' || sub.status === 'past_due' || sub.status === 'cancelled')) {
      await changeSubscription(tx, sub, 'expired', 'refunded', n.TransactionId, { ended_at: now, period_end: now, cancelled_at: sub.cancelled_at ?? now });
      if (sub.cp_subscription_id && sub.status !== 'cancelled') await ctx.jobs.send(cancelCpSubscriptionJob, { id: sub.cp_subscription_id }, { tx });
    }
    return CP_CODES.ok;
  }
  const charge = await lockChargeByTransaction(tx, paymentTransactionId);
  if (charge) {
    const span = refundSpan(charge.amount_kopecks, charge.refunded_kopecks, refunded);
    await takeBack(tx, charge.user_id, { type: 'auto_charge', id: charge.id }, charge.amount_kopecks, span, key);
    const whole = span.to >= charge.amount_kopecks;
    await updateChargeRefund(tx, charge.id, span.to, whole && charge.refunded_at === null ? now : undefined);
    await recordAppliedRefund(tx, { payment: { autoChargeId: charge.id }, userId: charge.user_id, paymentTransactionId, refundTransactionId: n.TransactionId, reportedKopecks: refunded, appliedKopecks: span.to - span.from });
    return CP_CODES.ok;
  }
  // Its Pay may not be applied yet (still being retried): ask CloudPayments to send the refund again later.
  ctx.log.warn({ paymentTransactionId }, 'refund of an unknown transaction');
  return CP_CODES.cannotAccept;
}
