import { CP_CODES } from '@app/contracts';
import type { Tx } from '../../db/database.ts';
import { kopecksFrom } from '../billing/money.ts';
import { changeSubscription, lockSubscription, logSubscription } from '../billing/subscriptions.queries.ts';
import { lockInvoice, updateInvoice } from '../billing/invoices.queries.ts';
import { insertAutoCharge } from './notifications.queries.ts';
import { subscriptionOfCharge } from './renewal-charge.ts';
import { invoiceIdOf, type Code, type PaymentNotification } from './notification.schema.ts';

/** Fail: a declined first payment fails its invoice and closes its checkout; a declined renewal is a failed auto-charge and puts the plan past due. */
export async function applyFail(tx: Tx, n: PaymentNotification): Promise<Code> {
  const reason = n.Reason ?? n.ReasonCode ?? null;
  const invoiceId = invoiceIdOf(n);
  const invoice = invoiceId === undefined ? undefined : await lockInvoice(tx, invoiceId);
  if (invoice && invoice.status === 'pending') {
    await updateInvoice(tx, invoice.id, { status: 'failed', failure_reason: reason });
    // A declined checkout leaves no plan waiting for payment (a retry in the same form that pays is a Pay, and honoured).
    const sub = invoice.subscription_id === null ? undefined : await lockSubscription(tx, invoice.subscription_id);
    if (sub?.status === 'pending') await changeSubscription(tx, sub, 'expired', 'payment_declined', n.TransactionId, { ended_at: new Date() });
    return CP_CODES.ok;
  }
  if (!n.SubscriptionId) return CP_CODES.ok;
  const sub = await subscriptionOfCharge(tx, n.SubscriptionId, n.AccountId);
  if (!sub) return CP_CODES.ok;
  const chargeId = await insertAutoCharge(tx, {
    user_id: sub.user_id,
    subscription_id: sub.id,
    name: sub.name,
    success: false,
    amount_kopecks: kopecksFrom(n.Amount) || sub.amount_kopecks,
    currency_provider: sub.currency_provider,
    transaction_id: n.TransactionId,
    failure_reason: reason,
    refunded_at: null,
  });
  if (chargeId === undefined) return CP_CODES.ok;
  if (sub.status === 'active') await changeSubscription(tx, sub, 'past_due', 'renewal_failed', n.TransactionId);
  else await logSubscription(tx, sub, sub.status, 'renewal_failed', n.TransactionId);
  return CP_CODES.ok;
}
