import { CP_CODES, type NotificationKind } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { verifyNotificationSignature } from './cloudpayments.ts';
import { credit, takeBackUpTo } from '../wallet/wallet.queries.ts';
import type { LedgerReason } from '../wallet/wallet.table.ts';
import { DAY_MS, addMonths, kopecksFrom } from '../billing/money.ts';
import { changeSubscription, currentSubscription, findSubscription, hasPaidSubscription, lockSubscription, lockUserForPayment, logSubscription } from '../billing/subscriptions.queries.ts';
import { findInvoice, lockInvoice, lockInvoiceByTransaction, updateInvoice } from '../billing/invoices.queries.ts';
import { saveCard } from '../billing/cards.queries.ts';
import { TRIAL_ALREADY_USED } from '../billing/billing.service.ts';
import { CURRENT_STATUSES, type SubscriptionRow } from '../billing/billing.table.ts';
import { CHECKOUT_EXPIRED } from '../billing/billing.jobs.ts';
import {
  claimNotification,
  findCpSubscription,
  grantsAndRefundsOf,
  handledResult,
  insertAutoCharge,
  linkCpSubscription,
  lockChargeByTransaction,
  lockSubscriptionByCpId,
  lockUnlinkedSubscription,
  storeResult,
  subscriptionByCpId,
  subscriptionInStatus,
  tariffTokens,
  unlinkCpSubscription,
  updateChargeRefund,
  upsertCpSubscription,
} from './notifications.queries.ts';
import { PaymentNotificationSchema, RecurrentNotificationSchema, type PaymentNotification, type RecurrentNotification } from './notification.schema.ts';
import { cancelCpSubscriptionJob, refundTransactionJob } from './payments.jobs.ts';
import { recordAppliedRefund } from './refunds.queries.ts';

/** Reads a notification body as sent (form-encoded or JSON). */
function parseBody(contentType: string | undefined, raw: string): Record<string, unknown> | undefined {
  if (contentType?.includes('application/json')) {
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return undefined;
    }
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  }
  const fields: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) if (!(key in fields)) fields[key] = value;
  return fields;
}

/**
 * A notification as it arrives: its signature over the body as sent is checked first
 * (INVALID_SIGNATURE otherwise), then it is parsed and handled. The webhook route and the
 * payment sandbox both come through here, so the sandbox runs the same verification.
 */
export async function receiveNotification(ctx: AppContext, kind: NotificationKind, raw: string, headers: Record<string, string | string[] | undefined>): Promise<Code> {
  if (!verifyNotificationSignature(ctx.secrets.cloudpaymentsSecret, raw, headers)) throw new AppError('INVALID_SIGNATURE');
  const fields = parseBody(typeof headers['content-type'] === 'string' ? headers['content-type'] : undefined, raw);
  if (!fields) return CP_CODES.cannotAccept;
  return handleNotification(ctx, kind, fields);
}

/** An invoice older than this is refused by Check (code 20). */
const INVOICE_TTL_MS = 2 * DAY_MS;

type Code = (typeof CP_CODES)[keyof typeof CP_CODES];

/**
 * Handles one verified notification. Every change happens in one transaction together with
 * the row that marks the notification as handled (unique idempotency key), so a notification
 * delivered any number of times, concurrently or out of order, changes money and tokens once.
 */
export async function handleNotification(ctx: AppContext, kind: NotificationKind, fields: Record<string, unknown>): Promise<Code> {
  if (kind === 'recurrent') {
    const parsed = RecurrentNotificationSchema.safeParse(fields);
    if (!parsed.success) return CP_CODES.cannotAccept;
    const n = parsed.data;
    return once(ctx, 'recurrent', `recurrent:${n.Id}:${n.Status}:${String(n.SuccessfulTransactionsNumber)}:${String(n.FailedTransactionsNumber)}`, null, fields, (tx) => applyRecurrent(ctx, tx, n));
  }
  const parsed = PaymentNotificationSchema.safeParse(fields);
  if (!parsed.success) return CP_CODES.cannotAccept;
  const n = parsed.data;
  switch (kind) {
    case 'check':
      return check(ctx, n);
    case 'pay':
      return once(ctx, kind, `pay:${String(n.TransactionId)}`, n.TransactionId, fields, (tx) => applyPay(ctx, tx, n));
    case 'fail':
      return once(ctx, kind, `fail:${String(n.TransactionId)}`, n.TransactionId, fields, (tx) => applyFail(tx, n));
    case 'refund':
      return once(ctx, kind, `refund:${String(n.TransactionId)}`, n.TransactionId, fields, (tx) => applyRefund(ctx, tx, n.PaymentTransactionId ?? 0, n, `refund:${String(n.TransactionId)}`));
    case 'cancel':
      return once(ctx, kind, `cancel:${String(n.TransactionId)}`, n.TransactionId, fields, (tx) => applyRefund(ctx, tx, n.PaymentTransactionId ?? n.TransactionId, n, `cancel:${String(n.TransactionId)}`));
    case 'confirm':
      return once(ctx, kind, `confirm:${String(n.TransactionId)}`, n.TransactionId, fields, async () => CP_CODES.ok);
  }
}

/** Rolls back a refused notification's transaction, idempotency row included. */
class Refused extends Error {
  constructor(readonly code: Code) {
    super(`payment notification refused with ${String(code)}`);
  }
}

/**
 * A refusal is not recorded: CloudPayments resends a notification until it gets code 0, and a
 * retry must be judged again (the subscription or payment it needs may have arrived meanwhile),
 * not answered from a stored refusal. Whatever a refused handler changed is rolled back.
 */
async function once(ctx: AppContext, kind: string, key: string, transactionId: number | null, payload: Record<string, unknown>, apply: (tx: Tx) => Promise<Code>): Promise<Code> {
  try {
    return await ctx.db.transaction().execute(async (tx) => {
      const claimed = await claimNotification(tx, { kind, key, transactionId, payload });
      if (claimed === undefined) return (await handledResult(tx, key)) as Code;
      const code = await apply(tx);
      if (code !== CP_CODES.ok) throw new Refused(code);
      await storeResult(tx, claimed, code);
      return code;
    });
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    ctx.log.warn({ kind, key, code: err.code }, 'payment notification refused');
    return err.code;
  }
}

const invoiceIdOf = (n: PaymentNotification) => {
  const id = Number(n.InvoiceId);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
};

/** Check: may refuse before the card is charged (wrong invoice 10, account 11, amount or currency 12, cannot accept 13, expired 20). */
async function check(ctx: AppContext, n: PaymentNotification): Promise<Code> {
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
    const current = await subscriptionInStatus(ctx.db, invoice.user_id, ['active', 'past_due']).executeTakeFirst();
    if (!current) return CP_CODES.cannotAccept;
  }
  if (invoice.subscription_id !== null) {
    // The trial was decided when the invoice was created; a plan paid since then (another tab, another invoice) ends it.
    const sub = await findSubscription(ctx.db, invoice.subscription_id);
    if (sub?.is_trial && (await hasPaidSubscription(ctx.db, invoice.user_id))) return CP_CODES.cannotAccept;
  }
  return CP_CODES.ok;
}

async function grant(tx: Tx, userId: number, reason: LedgerReason, ref: { type: 'invoice' | 'auto_charge'; id: number }, words: number, mediaTenths: number): Promise<void> {
  const base = { userId, reason, refType: ref.type, refId: ref.id };
  if (words > 0) await credit(tx, { ...base, kind: 'words', idempotencyKey: `${ref.type}:${String(ref.id)}:words` }, words);
  if (mediaTenths > 0) await credit(tx, { ...base, kind: 'media', idempotencyKey: `${ref.type}:${String(ref.id)}:media` }, mediaTenths);
}

async function saveCardOf(tx: Tx, userId: number, n: PaymentNotification): Promise<void> {
  if (!n.Token || !n.CardLastFour) return;
  await saveCard(tx, userId, { token: n.Token, firstSix: n.CardFirstSix ?? null, lastFour: n.CardLastFour, type: n.CardType ?? null });
}

async function applyPay(ctx: AppContext, tx: Tx, n: PaymentNotification): Promise<Code> {
  const invoiceId = invoiceIdOf(n);
  const invoice = invoiceId === undefined ? undefined : await lockInvoice(tx, invoiceId);
  if (!invoice || invoice.status === 'paid' || invoice.status === 'refunded') {
    // Not a first payment: a renewal charge of a CloudPayments subscription.
    if (n.SubscriptionId) return applyRenewal(ctx, tx, n);
    if (invoice?.status === 'paid') ctx.log.error({ invoice: invoice.id, transaction: n.TransactionId }, 'invoice paid twice: refund the second transaction by hand');
    return invoice ? CP_CODES.ok : CP_CODES.wrongInvoice;
  }
  if (String(invoice.user_id) !== n.AccountId) return CP_CODES.wrongAccount;
  if (kopecksFrom(n.Amount) !== invoice.amount_kopecks || n.Currency !== invoice.currency) return CP_CODES.wrongAmount;

  // Two plans of one user paid at once must not both see "no current plan" (one current plan per user, unique index).
  if (invoice.kind === 'subscription') await lockUserForPayment(tx, invoice.user_id);
  const now = new Date();
  await updateInvoice(tx, invoice.id, { status: 'paid', transaction_id: n.TransactionId, paid_at: now, failure_reason: null });
  const tariff = await tariffTokens(tx, invoice.tariff_id);

  if (invoice.kind === 'package') {
    await saveCardOf(tx, invoice.user_id, n);
    await grant(tx, invoice.user_id, 'package', { type: 'invoice', id: invoice.id }, tariff.words, tariff.media_tenths);
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
  const previous = await subscriptionInStatus(tx, invoice.user_id, CURRENT_STATUSES, { excludeId: sub.id }).forUpdate().executeTakeFirst();
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
  const periodEnd = sub.is_trial ? new Date(now.getTime() + tariff.trial_days * DAY_MS) : addMonths(now, 1);
  // A checkout closed as abandoned or declined is still honoured: the money was taken.
  const cause = sub.status === 'expired' ? 'paid_after_checkout_closed' : 'paid';
  await changeSubscription(tx, sub, 'active', cause, n.TransactionId, { paid_at: now, period_end: periodEnd, cp_subscription_id: cpId, ended_at: null });
  // The card after the plans, as a renewal saves it: the other way round the two deadlock.
  await saveCardOf(tx, invoice.user_id, n);
  await grant(tx, invoice.user_id, sub.is_trial ? 'trial_grant' : 'subscription_grant', { type: 'invoice', id: invoice.id }, tariff.words, tariff.media_tenths);
  // A Recurrent notification that came before this Pay may already have ended auto-renewal.
  if (cpId) {
    const cp = await findCpSubscription(tx, cpId);
    if (cp && ['Cancelled', 'Rejected', 'Expired'].includes(cp.status)) {
      await changeSubscription(tx, { ...sub, status: 'active' }, 'cancelled', `cloudpayments_${cp.status.toLowerCase()}`, cpId, { cancelled_at: now });
    }
  }
  return CP_CODES.ok;
}

/** The subscription a renewal charge belongs to, linking it through the Recurrent data if needed. */
async function subscriptionOfCharge(tx: Tx, cpId: string, accountId: string | undefined): Promise<SubscriptionRow | undefined> {
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

async function applyRenewal(ctx: AppContext, tx: Tx, n: PaymentNotification): Promise<Code> {
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

async function applyFail(tx: Tx, n: PaymentNotification): Promise<Code> {
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

function parseNextDate(value: string | undefined): Date | null {
  if (!value) return null;
  const date = new Date(`${value.replace(' ', 'T')}${/Z|[+-]\d\d:?\d\d$/.test(value) ? '' : 'Z'}`);
  return Number.isNaN(date.getTime()) ? null : date;
}

async function applyRecurrent(ctx: AppContext, tx: Tx, n: RecurrentNotification): Promise<Code> {
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

async function applyRefund(ctx: AppContext, tx: Tx, paymentTransactionId: number, n: PaymentNotification, key: string): Promise<Code> {
  const refunded = kopecksFrom(n.Amount);
  const now = new Date();
  const invoice = await lockInvoiceByTransaction(tx, paymentTransactionId);
  if (invoice) {
    // The plan before the wallet, in the order of Pay and renewals: the other way round they deadlock.
    const sub = invoice.subscription_id ? await lockSubscription(tx, invoice.subscription_id) : undefined;
    const span = refundSpan(invoice.amount_kopecks, invoice.refunded_kopecks, refunded);
    await takeBack(tx, invoice.user_id, { type: 'invoice', id: invoice.id }, invoice.amount_kopecks, span, key);
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
