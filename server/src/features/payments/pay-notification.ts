import { CP_CODES } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/database.ts';
import { DAY_MS, addMonths, kopecksFrom } from '../billing/money.ts';
import { changeSubscription, hasPaidSubscription, lockSubscription, lockUserForPayment } from '../billing/subscriptions.queries.ts';
import { lockInvoice, updateInvoice } from '../billing/invoices.queries.ts';
import { TRIAL_ALREADY_USED } from '../billing/billing.service.ts';
import { CHECKOUT_EXPIRED } from '../billing/billing.jobs.ts';
import { findCpSubscription, lockOtherCurrentSubscription, unlinkCpSubscription } from './notifications.queries.ts';
import { cancelCpSubscriptionJob, refundTransactionJob } from './payments.jobs.ts';
import { grant, saveCardOf } from './payment-grants.ts';
import { applyRenewal } from './renewal-charge.ts';
import { applyDuplicate, isRenewalCharge } from './duplicate-payment.ts';
import { invoiceIdOf, type Code, type PaymentNotification } from './notification.schema.ts';
import { cardFingerprints, referralBonusOnPay } from '../promo/referral.service.ts';

/**
 * Pay: the first payment of an invoice marks it paid and credits what it bought (a package's
 * tokens, or a plan made current with its period and tokens); a charge of a CloudPayments
 * subscription without an open invoice is a renewal.
 */
export async function applyPay(ctx: AppContext, tx: Tx, n: PaymentNotification): Promise<Code> {
  const invoiceId = invoiceIdOf(n);
  const invoice = invoiceId === undefined ? undefined : await lockInvoice(tx, invoiceId);
  // No invoice of ours: a renewal charge of a CloudPayments subscription.
  if (!invoice) return n.SubscriptionId ? applyRenewal(ctx, tx, n) : CP_CODES.wrongInvoice;
  // Charged already by another transaction: a renewal of its plan, or the invoice paid twice (refunded).
  if (invoice.transaction_id !== null && invoice.transaction_id !== n.TransactionId) {
    return (await isRenewalCharge(tx, invoice, n)) ? applyRenewal(ctx, tx, n) : applyDuplicate(ctx, tx, invoice, n);
  }
  if (invoice.status === 'paid' || invoice.status === 'refunded') return CP_CODES.ok;
  if (String(invoice.user_id) !== n.AccountId) return CP_CODES.wrongAccount;
  if (kopecksFrom(n.Amount) !== invoice.amount_kopecks || n.Currency !== invoice.currency) return CP_CODES.wrongAmount;

  // Two plans of one user paid at once must not both see "no current plan" (one current plan per user, unique index).
  if (invoice.kind === 'subscription') await lockUserForPayment(tx, invoice.user_id);
  const now = new Date();
  await updateInvoice(tx, invoice.id, { status: 'paid', transaction_id: n.TransactionId, paid_at: now, failure_reason: null });

  if (invoice.kind === 'package') {
    await saveCardOf(tx, invoice.user_id, n);
    await grant(tx, invoice.user_id, 'package', { type: 'invoice', id: invoice.id }, invoice.words, invoice.media_tenths);
    await referralBonusOnPay(ctx, tx, invoice, cardFingerprints(n));
    return CP_CODES.ok;
  }

  const sub = await lockSubscription(tx, invoice.subscription_id ?? 0);
  if (!sub) throw new Error(`invoice ${String(invoice.id)} names no subscription`);
  // One trial per user, whatever the order of Checks and Pays: a trial paid after another plan (or
  // trial) was paid is not credited; its money goes back and its recurrent subscription is cancelled.
  // Pays of one user are serialised by the user lock above, so this sees every earlier one.
  if (sub.is_trial && (await hasPaidSubscription(tx, invoice.user_id))) {
    // The payment stays on record (a Refund notification finds it by its transaction) but not as paid.
    await updateInvoice(tx, invoice.id, { status: 'failed', failure_reason: TRIAL_ALREADY_USED });
    // Its CloudPayments subscription (named by the Pay, or pinned here by an early Recurrent) must not charge again.
    const cpId = n.SubscriptionId ?? sub.cp_subscription_id;
    if (n.SubscriptionId) await unlinkCpSubscription(tx, n.SubscriptionId, sub.id);
    await changeSubscription(tx, sub, 'expired', 'trial_already_used_refunded', n.TransactionId, { ended_at: now, cp_subscription_id: cpId });
    await ctx.jobs.send(refundTransactionJob, { transactionId: n.TransactionId, amountKopecks: invoice.amount_kopecks }, { tx });
    if (cpId) await ctx.jobs.send(cancelCpSubscriptionJob, { id: cpId }, { tx });
    return CP_CODES.ok;
  }
  // One current plan per user: a plan bought over another replaces it (no proration).
  const previous = await lockOtherCurrentSubscription(tx, invoice.user_id, sub.id);
  if (previous) {
    await changeSubscription(tx, previous, 'replaced', 'replaced_by_new_plan', sub.id, { ended_at: now, cancelled_at: previous.cancelled_at ?? now });
    // (Unless an early Recurrent pinned this very payment's subscription on it: that one stays.)
    if (previous.cp_subscription_id && previous.status !== 'cancelled' && previous.cp_subscription_id !== n.SubscriptionId) {
      await ctx.jobs.send(cancelCpSubscriptionJob, { id: previous.cp_subscription_id }, { tx });
    }
  }
  const cpId = n.SubscriptionId ?? sub.cp_subscription_id;
  // The Pay names its subscription: an early Recurrent may have guessed another plan of this user for it.
  if (n.SubscriptionId) await unlinkCpSubscription(tx, n.SubscriptionId, sub.id);
  // What the checkout showed: the trial's days and the tokens kept on the invoice, whatever the plan says now.
  const periodEnd = sub.is_trial ? new Date(now.getTime() + invoice.trial_days * DAY_MS) : addMonths(now, 1);
  // A checkout closed as abandoned or declined is still honoured: the money was taken. After a
  // decline it is the user's retry in the same payment form (another card, or the same one again).
  const cause = sub.status !== 'expired' ? 'paid' : invoice.status === 'failed' && invoice.failure_reason !== CHECKOUT_EXPIRED ? 'paid_after_decline' : 'paid_after_checkout_closed';
  await changeSubscription(tx, sub, 'active', cause, n.TransactionId, { paid_at: now, period_end: periodEnd, cp_subscription_id: cpId, ended_at: null });
  // The card after the plans, as a renewal saves it: the other way round the two deadlock.
  await saveCardOf(tx, invoice.user_id, n);
  await grant(tx, invoice.user_id, sub.is_trial ? 'trial_grant' : 'subscription_grant', { type: 'invoice', id: invoice.id }, invoice.words, invoice.media_tenths);
  await referralBonusOnPay(ctx, tx, invoice, cardFingerprints(n));
  // A Recurrent notification that came before this Pay may already have ended auto-renewal.
  if (cpId) {
    const cp = await findCpSubscription(tx, cpId);
    if (cp && ['Cancelled', 'Rejected', 'Expired'].includes(cp.status)) {
      await changeSubscription(tx, { ...sub, status: 'active' }, 'cancelled', `cloudpayments_${cp.status.toLowerCase()}`, cpId, { cancelled_at: now });
    }
  }
  return CP_CODES.ok;
}
