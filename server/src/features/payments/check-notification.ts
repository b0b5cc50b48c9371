import { CP_CODES } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import { DAY_MS, kopecksFrom } from '../billing/money.ts';
import { findSubscription, hasPaidSubscription } from '../billing/subscriptions.queries.ts';
import { findInvoice } from '../billing/invoices.queries.ts';
import { CHECKOUT_EXPIRED } from '../billing/billing.jobs.ts';
import { findSubscriptionInStatus, subscriptionByCpId } from './notifications.queries.ts';
import { invoiceIdOf, type Code, type PaymentNotification } from './notification.schema.ts';

/** An invoice older than this is refused by Check (code 20). */
const INVOICE_TTL_MS = 2 * DAY_MS;

/** Check: may refuse before the card is charged (wrong invoice 10, account 11, amount or currency 12, cannot accept 13, expired 20). */
export async function check(ctx: AppContext, n: PaymentNotification): Promise<Code> {
  const amount = kopecksFrom(n.Amount);
  const invoiceId = invoiceIdOf(n);
  const invoice = invoiceId === undefined ? undefined : await findInvoice(ctx.db, invoiceId);
  // As in Pay: a charge of a CloudPayments subscription without an open invoice (none, or the first one, paid) is a renewal.
  if (n.SubscriptionId && (!invoice || invoice.status === 'paid' || invoice.status === 'refunded')) {
    const sub = await subscriptionByCpId(ctx.db, n.SubscriptionId);
    if (!sub) return CP_CODES.wrongInvoice;
    if (String(sub.user_id) !== n.AccountId) return CP_CODES.wrongAccount;
    if (amount !== sub.amount_kopecks || n.Currency !== sub.currency_provider) return CP_CODES.wrongAmount;
    // A cancelled, expired or replaced plan must not be charged again.
    return sub.status === 'active' || sub.status === 'past_due' ? CP_CODES.ok : CP_CODES.cannotAccept;
  }
  if (!invoice) return CP_CODES.wrongInvoice;
  if (String(invoice.user_id) !== n.AccountId) return CP_CODES.wrongAccount;
  // Only the invoice's currency: the same number in tenge or dollars is another amount.
  if (amount !== invoice.amount_kopecks || n.Currency !== invoice.currency) return CP_CODES.wrongAmount;
  if (invoice.status === 'paid' || invoice.status === 'refunded') return CP_CODES.cannotAccept;
  // Nobody paid it in time (billing.expire-checkouts): no new charge for it. A Pay that still comes is honoured.
  if (invoice.failure_reason === CHECKOUT_EXPIRED || Date.now() - invoice.created_at.getTime() > INVOICE_TTL_MS) return CP_CODES.expired;
  if (invoice.kind === 'package') {
    const current = await findSubscriptionInStatus(ctx.db, invoice.user_id, ['active', 'past_due']);
    if (!current) return CP_CODES.cannotAccept;
  }
  if (invoice.subscription_id !== null) {
    // The trial was decided when the invoice was created; a plan paid since then (another tab, another invoice) ends it.
    const sub = await findSubscription(ctx.db, invoice.subscription_id);
    if (sub?.is_trial && (await hasPaidSubscription(ctx.db, invoice.user_id))) return CP_CODES.cannotAccept;
  }
  return CP_CODES.ok;
}
