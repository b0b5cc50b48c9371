import { CP_CODES } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/database.ts';
import { kopecksFrom } from '../billing/money.ts';
import { findSubscription, lockSubscription, logSubscription } from '../billing/subscriptions.queries.ts';
import { insertDuplicateCharge } from '../billing/invoices.queries.ts';
import type { InvoiceRow } from '../billing/billing.table.ts';
import { subscriptionByCpId } from './notifications.queries.ts';
import { insertRefundRequest } from './refunds.queries.ts';
import { cancelCpSubscriptionJob, refundTransactionJob } from './payments.jobs.ts';
import type { Code, PaymentNotification } from './notification.schema.ts';

/** Why the service asked for the refund, in staff's words beside it. */
export const duplicateRefundReason = (invoiceId: number) => `Повторная оплата счёта №${String(invoiceId)}: деньги возвращаются автоматически, токены не начислялись`;

/**
 * Whether a Pay naming a CloudPayments subscription, for an invoice another transaction already
 * paid, is a renewal of a plan: its subscription is one of our plans', or it may be this
 * invoice's plan's (that plan names no CloudPayments subscription yet and the charge is the
 * monthly amount). Otherwise it is the invoice paid a second time (a second payment form made a
 * second subscription at CloudPayments).
 */
export async function isRenewalCharge(tx: Tx, invoice: InvoiceRow, n: PaymentNotification): Promise<boolean> {
  if (!n.SubscriptionId) return false;
  if (await subscriptionByCpId(tx, n.SubscriptionId)) return true;
  const plan = invoice.subscription_id === null ? undefined : await findSubscription(tx, invoice.subscription_id);
  return plan !== undefined && plan.cp_subscription_id === null && kopecksFrom(n.Amount) === plan.amount_kopecks;
}

/**
 * The same invoice charged a second time (two payment forms, a double click at CloudPayments): the
 * charge is kept as a payment of its own that buys nothing, its refund is asked at once (the refund
 * job, with its X-Request-ID, and the Refund notification, as an admin's refund), a second
 * CloudPayments subscription it made is cancelled, and the plan's log says so. Once per transaction.
 */
export async function applyDuplicate(ctx: AppContext, tx: Tx, invoice: InvoiceRow, n: PaymentNotification): Promise<Code> {
  const amount = kopecksFrom(n.Amount);
  // Nothing to refund without an amount: CloudPayments sends it again.
  if (!(amount > 0)) return CP_CODES.wrongAmount;
  const id = await insertDuplicateCharge(tx, invoice, { transactionId: n.TransactionId, amountKopecks: amount, currency: n.Currency ?? invoice.currency, paidAt: new Date() });
  if (id === undefined) return CP_CODES.ok;
  const refund = await insertRefundRequest(tx, {
    invoiceId: id,
    userId: invoice.user_id,
    paymentTransactionId: n.TransactionId,
    amountKopecks: amount,
    reason: duplicateRefundReason(invoice.id),
    cause: 'duplicate_payment',
  });
  await ctx.jobs.send(refundTransactionJob, { transactionId: n.TransactionId, amountKopecks: amount, refundId: refund.id }, { tx });
  // Its subscription at CloudPayments is no plan of ours (or it would be a renewal): it must never charge.
  if (n.SubscriptionId) await ctx.jobs.send(cancelCpSubscriptionJob, { id: n.SubscriptionId }, { tx });
  const plan = invoice.subscription_id === null ? undefined : await lockSubscription(tx, invoice.subscription_id);
  if (plan) await logSubscription(tx, plan, plan.status, 'duplicate_payment_refunded', n.TransactionId);
  ctx.log.warn({ invoice: invoice.id, duplicate: id, transaction: n.TransactionId, paid: invoice.transaction_id }, 'invoice paid twice: the second charge is being refunded');
  return CP_CODES.ok;
}
