import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { CP_CODES, type NotificationKind } from '@app/contracts';
import type { Tx } from '../../db/database.ts';
import { credit, debitUpTo } from '../wallet/wallet.queries.ts';
import type { LedgerReason } from '../wallet/wallet.table.ts';
import { DAY_MS, addMonths, kopecksFrom } from '../billing/money.ts';
import { changeSubscription, hasPaidSubscription, logSubscription } from '../billing/subscriptions.queries.ts';
import type { SubscriptionRow } from '../billing/billing.table.ts';
import { PaymentNotificationSchema, RecurrentNotificationSchema, type PaymentNotification, type RecurrentNotification } from './notification.schema.ts';
import { CANCEL_CP_SUBSCRIPTION_JOB, REFUND_TRANSACTION_JOB } from './payments.jobs.ts';

/** An invoice older than this is refused by Check (code 20). */
const INVOICE_TTL_MS = 2 * DAY_MS;

type Code = (typeof CP_CODES)[keyof typeof CP_CODES];

/**
 * Handles one verified notification. Every change happens in one transaction together with
 * the row that marks the notification as handled (unique idempotency key), so a notification
 * delivered any number of times, concurrently or out of order, changes money and tokens once.
 */
export async function handleNotification(app: FastifyInstance, kind: NotificationKind, fields: Record<string, unknown>): Promise<Code> {
  if (kind === 'recurrent') {
    const parsed = RecurrentNotificationSchema.safeParse(fields);
    if (!parsed.success) return CP_CODES.cannotAccept;
    const n = parsed.data;
    return once(app, 'recurrent', `recurrent:${n.Id}:${n.Status}:${String(n.SuccessfulTransactionsNumber)}:${String(n.FailedTransactionsNumber)}`, null, fields, (tx) => applyRecurrent(app, tx, n));
  }
  const parsed = PaymentNotificationSchema.safeParse(fields);
  if (!parsed.success) return CP_CODES.cannotAccept;
  const n = parsed.data;
  switch (kind) {
    case 'check':
      return check(app, n);
    case 'pay':
      return once(app, kind, `pay:${String(n.TransactionId)}`, n.TransactionId, fields, (tx) => applyPay(app, tx, n));
    case 'fail':
      return once(app, kind, `fail:${String(n.TransactionId)}`, n.TransactionId, fields, (tx) => applyFail(tx, n));
    case 'refund':
      return once(app, kind, `refund:${String(n.TransactionId)}`, n.TransactionId, fields, (tx) => applyRefund(app, tx, n.PaymentTransactionId ?? 0, n, `refund:${String(n.TransactionId)}`));
    case 'cancel':
      return once(app, kind, `cancel:${String(n.TransactionId)}`, n.TransactionId, fields, (tx) => applyRefund(app, tx, n.PaymentTransactionId ?? n.TransactionId, n, `cancel:${String(n.TransactionId)}`));
    case 'confirm':
      return once(app, kind, `confirm:${String(n.TransactionId)}`, n.TransactionId, fields, async () => CP_CODES.ok);
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
async function once(app: FastifyInstance, kind: string, key: string, transactionId: number | null, payload: Record<string, unknown>, apply: (tx: Tx) => Promise<Code>): Promise<Code> {
  try {
    return await app.db.transaction().execute(async (tx) => {
      const inserted = await tx
        .insertInto('payment_notifications')
        .values({ kind, idempotency_key: key, transaction_id: transactionId, payload: JSON.stringify(payload), result_code: -1 })
        .onConflict((oc) => oc.column('idempotency_key').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) {
        const seen = await tx.selectFrom('payment_notifications').select('result_code').where('idempotency_key', '=', key).executeTakeFirstOrThrow();
        return seen.result_code as Code;
      }
      const code = await apply(tx);
      if (code !== CP_CODES.ok) throw new Refused(code);
      await tx.updateTable('payment_notifications').set({ result_code: code }).where('id', '=', inserted.id).execute();
      return code;
    });
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    app.log.warn({ kind, key, code: err.code }, 'payment notification refused');
    return err.code;
  }
}

/** Check: may refuse before the card is charged (wrong invoice 10, account 11, amount 12, cannot accept 13, expired 20). */
async function check(app: FastifyInstance, n: PaymentNotification): Promise<Code> {
  const amount = kopecksFrom(n.Amount);
  const invoiceId = Number(n.InvoiceId);
  const invoice = Number.isSafeInteger(invoiceId) && invoiceId > 0 ? await app.db.selectFrom('invoices').selectAll().where('id', '=', invoiceId).executeTakeFirst() : undefined;
  // As in Pay: a charge of a CloudPayments subscription without an open invoice (none, or the first one, paid) is a renewal.
  if (n.SubscriptionId && (!invoice || invoice.status === 'paid' || invoice.status === 'refunded')) {
    const sub = await app.db.selectFrom('subscriptions').selectAll().where('cp_subscription_id', '=', n.SubscriptionId).executeTakeFirst();
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
  if (Date.now() - invoice.created_at.getTime() > INVOICE_TTL_MS) return CP_CODES.expired;
  if (invoice.kind === 'package') {
    const current = await app.db.selectFrom('subscriptions').select('status').where('user_id', '=', invoice.user_id).where('status', 'in', ['active', 'past_due']).executeTakeFirst();
    if (!current) return CP_CODES.cannotAccept;
  }
  if (invoice.subscription_id !== null) {
    // The trial was decided when the invoice was created; a plan paid since then (another tab, another invoice) ends it.
    const sub = await app.db.selectFrom('subscriptions').select('is_trial').where('id', '=', invoice.subscription_id).executeTakeFirst();
    if (sub?.is_trial && (await hasPaidSubscription(app.db, invoice.user_id))) return CP_CODES.cannotAccept;
  }
  return CP_CODES.ok;
}

async function grant(tx: Tx, userId: number, reason: LedgerReason, ref: { type: 'invoice' | 'auto_charge'; id: number }, words: number, mediaTenths: number): Promise<void> {
  const base = { userId, reason, refType: ref.type, refId: ref.id };
  if (words > 0) await credit(tx, { ...base, kind: 'words', idempotencyKey: `${ref.type}:${String(ref.id)}:words` }, words);
  if (mediaTenths > 0) await credit(tx, { ...base, kind: 'media', idempotencyKey: `${ref.type}:${String(ref.id)}:media` }, mediaTenths);
}

async function saveCard(tx: Tx, userId: number, n: PaymentNotification): Promise<void> {
  if (!n.Token || !n.CardLastFour) return;
  await tx
    .insertInto('user_cards')
    .values({ user_id: userId, token: n.Token, first_six: n.CardFirstSix ?? null, last_four: n.CardLastFour.slice(-4), card_type: n.CardType ?? null })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ token: n.Token ?? '', first_six: n.CardFirstSix ?? null, last_four: n.CardLastFour?.slice(-4) ?? '', card_type: n.CardType ?? null, updated_at: new Date() }),
    )
    .execute();
}

async function applyPay(app: FastifyInstance, tx: Tx, n: PaymentNotification): Promise<Code> {
  const invoiceId = Number(n.InvoiceId);
  const invoice = Number.isSafeInteger(invoiceId) && invoiceId > 0 ? await tx.selectFrom('invoices').selectAll().where('id', '=', invoiceId).forUpdate().executeTakeFirst() : undefined;
  if (!invoice || invoice.status === 'paid' || invoice.status === 'refunded') {
    // Not a first payment: a renewal charge of a CloudPayments subscription.
    if (n.SubscriptionId) return applyRenewal(app, tx, n);
    if (invoice?.status === 'paid') app.log.error({ invoice: invoice.id, transaction: n.TransactionId }, 'invoice paid twice: refund the second transaction by hand');
    return invoice ? CP_CODES.ok : CP_CODES.wrongInvoice;
  }
  if (String(invoice.user_id) !== n.AccountId) return CP_CODES.wrongAccount;
  if (kopecksFrom(n.Amount) !== invoice.amount_kopecks || n.Currency !== invoice.currency) return CP_CODES.wrongAmount;

  if (invoice.kind === 'subscription') {
    // Two plans of one user paid at once must not both see "no current plan" (one current plan per user, unique index).
    // Users before subscriptions, as in the payment start; NO KEY UPDATE leaves other writers' foreign-key checks alone.
    await tx.selectFrom('users').select('id').where('id', '=', invoice.user_id).forNoKeyUpdate().executeTakeFirstOrThrow();
  }
  const now = new Date();
  await tx.updateTable('invoices').set({ status: 'paid', transaction_id: n.TransactionId, paid_at: now, failure_reason: null, updated_at: now }).where('id', '=', invoice.id).execute();
  const tariff = await tx.selectFrom('tariffs').selectAll().where('id', '=', invoice.tariff_id).executeTakeFirstOrThrow();

  if (invoice.kind === 'package') {
    await saveCard(tx, invoice.user_id, n);
    await grant(tx, invoice.user_id, 'package', { type: 'invoice', id: invoice.id }, tariff.words, tariff.media_tenths);
    return CP_CODES.ok;
  }

  const sub = await tx.selectFrom('subscriptions').selectAll().where('id', '=', invoice.subscription_id ?? 0).forUpdate().executeTakeFirstOrThrow();
  // One trial per user, whatever the order of Checks and Pays: a trial paid after another plan (or
  // trial) was paid is not credited; its money goes back and its recurrent subscription is cancelled.
  // Pays of one user are serialised by the user lock above, so this sees every earlier one.
  if (sub.is_trial && (await hasPaidSubscription(tx, invoice.user_id))) {
    await changeSubscription(tx, sub, 'expired', 'trial_already_used_refunded', n.TransactionId, { ended_at: now, cp_subscription_id: n.SubscriptionId ?? null });
    await app.jobs.send(REFUND_TRANSACTION_JOB, { transactionId: n.TransactionId, amountKopecks: invoice.amount_kopecks }, tx);
    if (n.SubscriptionId) await app.jobs.send(CANCEL_CP_SUBSCRIPTION_JOB, { id: n.SubscriptionId }, tx);
    return CP_CODES.ok;
  }
  // One current plan per user: a plan bought over another replaces it (no proration).
  const previous = await tx
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', invoice.user_id)
    .where('status', 'in', ['active', 'past_due', 'cancelled'])
    .where('id', '!=', sub.id)
    .forUpdate()
    .executeTakeFirst();
  if (previous) {
    await changeSubscription(tx, previous, 'replaced', 'replaced_by_new_plan', sub.id, { ended_at: now, cancelled_at: previous.cancelled_at ?? now });
    // (Unless an early Recurrent pinned this very payment's subscription on it: that one stays.)
    if (previous.cp_subscription_id && previous.status !== 'cancelled' && previous.cp_subscription_id !== n.SubscriptionId) {
      await app.jobs.send(CANCEL_CP_SUBSCRIPTION_JOB, { id: previous.cp_subscription_id }, tx);
    }
  }
  const cpId = n.SubscriptionId ?? sub.cp_subscription_id;
  if (n.SubscriptionId) {
    // The Pay names its subscription: an early Recurrent may have guessed another plan of this user for it.
    await tx.updateTable('subscriptions').set({ cp_subscription_id: null }).where('cp_subscription_id', '=', n.SubscriptionId).where('id', '!=', sub.id).execute();
  }
  const periodEnd = sub.is_trial ? new Date(now.getTime() + tariff.trial_days * DAY_MS) : addMonths(now, 1);
  await changeSubscription(tx, sub, 'active', 'paid', n.TransactionId, { paid_at: now, period_end: periodEnd, cp_subscription_id: cpId });
  // The card after the plans, as a renewal saves it: the other way round the two deadlock.
  await saveCard(tx, invoice.user_id, n);
  await grant(tx, invoice.user_id, sub.is_trial ? 'trial_grant' : 'subscription_grant', { type: 'invoice', id: invoice.id }, tariff.words, tariff.media_tenths);
  // A Recurrent notification that came before this Pay may already have ended auto-renewal.
  if (cpId) {
    const cp = await tx.selectFrom('cp_subscriptions').select('status').where('id', '=', cpId).executeTakeFirst();
    if (cp && ['Cancelled', 'Rejected', 'Expired'].includes(cp.status)) {
      await changeSubscription(tx, { ...sub, status: 'active' }, 'cancelled', `cloudpayments_${cp.status.toLowerCase()}`, cpId, { cancelled_at: now });
    }
  }
  return CP_CODES.ok;
}

/** The subscription a renewal charge belongs to, linking it through the Recurrent data if needed. */
async function subscriptionOfCharge(tx: Tx, cpId: string, accountId: string | undefined): Promise<SubscriptionRow | undefined> {
  const linked = await tx.selectFrom('subscriptions').selectAll().where('cp_subscription_id', '=', cpId).forUpdate().executeTakeFirst();
  if (linked) return linked;
  const cp = await tx.selectFrom('cp_subscriptions').selectAll().where('id', '=', cpId).executeTakeFirst();
  const userId = Number(cp?.account_id ?? accountId);
  if (!Number.isSafeInteger(userId) || userId <= 0) return undefined;
  const candidate = await tx
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('cp_subscription_id', 'is', null)
    .where('status', 'in', ['active', 'past_due', 'cancelled'])
    .forUpdate()
    .executeTakeFirst();
  if (!candidate) return undefined;
  await tx.updateTable('subscriptions').set({ cp_subscription_id: cpId }).where('id', '=', candidate.id).execute();
  return { ...candidate, cp_subscription_id: cpId };
}

async function applyRenewal(app: FastifyInstance, tx: Tx, n: PaymentNotification): Promise<Code> {
  const sub = await subscriptionOfCharge(tx, n.SubscriptionId ?? '', n.AccountId);
  // Unknown yet (the Recurrent notification may still be on its way): ask CloudPayments to retry.
  if (!sub) return CP_CODES.cannotAccept;
  if (n.AccountId !== undefined && String(sub.user_id) !== n.AccountId) return CP_CODES.wrongAccount;
  const amount = kopecksFrom(n.Amount);
  if (amount !== sub.amount_kopecks || n.Currency !== sub.currency_provider) return CP_CODES.wrongAmount;
  const now = new Date();
  const charge = await tx
    .insertInto('auto_charges')
    .values({ user_id: sub.user_id, subscription_id: sub.id, name: sub.name, success: true, amount_kopecks: amount, currency_provider: sub.currency_provider, transaction_id: n.TransactionId })
    .onConflict((oc) => oc.column('transaction_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!charge) return CP_CODES.ok;
  await saveCard(tx, sub.user_id, n);
  const base = sub.period_end && sub.period_end.getTime() > now.getTime() - 7 * DAY_MS ? sub.period_end : now;
  const periodEnd = addMonths(base, 1);
  if (sub.status === 'active' || sub.status === 'past_due' || sub.status === 'cancelled') {
    await changeSubscription(tx, sub, sub.status === 'cancelled' ? 'cancelled' : 'active', 'renewed', n.TransactionId, { period_end: periodEnd });
  } else if (sub.status === 'expired') {
    const other = await tx.selectFrom('subscriptions').select('id').where('user_id', '=', sub.user_id).where('status', 'in', ['active', 'past_due', 'cancelled']).executeTakeFirst();
    if (other) await logSubscription(tx, sub, sub.status, 'renewal_charged_while_replaced', n.TransactionId);
    else await changeSubscription(tx, sub, 'active', 'renewed_after_expiry', n.TransactionId, { period_end: periodEnd, ended_at: null });
  } else {
    await logSubscription(tx, sub, sub.status, 'renewal_charged_while_replaced', n.TransactionId);
  }
  const tariff = await tx.selectFrom('tariffs').select(['words', 'media_tenths']).where('id', '=', sub.tariff_id).executeTakeFirstOrThrow();
  await grant(tx, sub.user_id, 'subscription_grant', { type: 'auto_charge', id: charge.id }, tariff.words, tariff.media_tenths);
  return CP_CODES.ok;
}

async function applyFail(tx: Tx, n: PaymentNotification): Promise<Code> {
  const reason = n.Reason ?? n.ReasonCode ?? null;
  const invoiceId = Number(n.InvoiceId);
  const invoice = Number.isSafeInteger(invoiceId) && invoiceId > 0 ? await tx.selectFrom('invoices').selectAll().where('id', '=', invoiceId).forUpdate().executeTakeFirst() : undefined;
  if (invoice && invoice.status === 'pending') {
    await tx.updateTable('invoices').set({ status: 'failed', failure_reason: reason, updated_at: new Date() }).where('id', '=', invoice.id).execute();
    return CP_CODES.ok;
  }
  if (!n.SubscriptionId) return CP_CODES.ok;
  const sub = await subscriptionOfCharge(tx, n.SubscriptionId, n.AccountId);
  if (!sub) return CP_CODES.ok;
  const charge = await tx
    .insertInto('auto_charges')
    .values({ user_id: sub.user_id, subscription_id: sub.id, name: sub.name, success: false, amount_kopecks: kopecksFrom(n.Amount) || sub.amount_kopecks, currency_provider: sub.currency_provider, transaction_id: n.TransactionId, failure_reason: reason, refunded_at: null })
    .onConflict((oc) => oc.column('transaction_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!charge) return CP_CODES.ok;
  if (sub.status === 'active') await changeSubscription(tx, sub, 'past_due', 'renewal_failed', n.TransactionId);
  else await logSubscription(tx, sub, sub.status, 'renewal_failed', n.TransactionId);
  return CP_CODES.ok;
}

async function applyRecurrent(app: FastifyInstance, tx: Tx, n: RecurrentNotification): Promise<Code> {
  const amount = kopecksFrom(n.Amount);
  const next = n.NextTransactionDate ? new Date(`${n.NextTransactionDate.replace(' ', 'T')}${/Z|[+-]\d\d:?\d\d$/.test(n.NextTransactionDate) ? '' : 'Z'}`) : null;
  // Cancelled, Rejected and Expired are final at CloudPayments: a Recurrent saying otherwise after one is a late retry.
  const stored = await tx
    .insertInto('cp_subscriptions')
    .values({
      id: n.Id,
      account_id: n.AccountId,
      status: n.Status,
      amount_kopecks: Number.isFinite(amount) ? amount : 0,
      next_transaction_at: next && !Number.isNaN(next.getTime()) ? next : null,
      successful_transactions: n.SuccessfulTransactionsNumber,
      failed_transactions: n.FailedTransactionsNumber,
    })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({
        status: sql<string>`case when cp_subscriptions.status in ('Cancelled', 'Rejected', 'Expired') then cp_subscriptions.status else excluded.status end`,
        next_transaction_at: next && !Number.isNaN(next.getTime()) ? next : null,
        successful_transactions: sql`greatest(cp_subscriptions.successful_transactions, excluded.successful_transactions)`,
        failed_transactions: sql`greatest(cp_subscriptions.failed_transactions, excluded.failed_transactions)`,
        updated_at: new Date(),
      }),
    )
    .returning('status')
    .executeTakeFirstOrThrow();
  if (stored.status !== n.Status) return CP_CODES.ok;
  let sub = await tx.selectFrom('subscriptions').selectAll().where('cp_subscription_id', '=', n.Id).forUpdate().executeTakeFirst();
  if (!sub) {
    // A Recurrent before its Pay: remember it on the newest unpaid plan of this account with that amount.
    const userId = Number(n.AccountId);
    if (Number.isSafeInteger(userId) && userId > 0) {
      const pending = await tx
        .selectFrom('subscriptions')
        .selectAll()
        .where('user_id', '=', userId)
        .where('cp_subscription_id', 'is', null)
        .where('amount_kopecks', '=', amount)
        // Cancelled too: a user may cancel before the Recurrent names the CloudPayments subscription, which must then be cancelled there.
        .where('status', 'in', ['pending', 'active', 'past_due', 'cancelled'])
        .orderBy('id', 'desc')
        .limit(1)
        .forUpdate()
        .executeTakeFirst();
      if (pending) {
        await tx.updateTable('subscriptions').set({ cp_subscription_id: n.Id }).where('id', '=', pending.id).execute();
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
    await app.jobs.send(CANCEL_CP_SUBSCRIPTION_JOB, { id: n.Id }, tx);
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
 * to the refunded total (so partial refunds add up to exactly the grant), as far as they remain.
 */
async function takeBack(tx: Tx, userId: number, ref: { type: 'invoice' | 'auto_charge'; id: number }, paid: number, span: { from: number; to: number }, key: string): Promise<void> {
  const rows = await tx
    .selectFrom('wallet_ledger')
    .select(['kind', 'amount', 'ref_type'])
    .where('user_id', '=', userId)
    .where('ref_id', '=', String(ref.id))
    .where('ref_type', 'in', [ref.type, `${ref.type}_refund`])
    .execute();
  for (const kind of ['words', 'media'] as const) {
    const granted = rows.filter((r) => r.kind === kind && r.ref_type === ref.type && r.amount > 0).reduce((s, r) => s + r.amount, 0);
    const takenBefore = -rows.filter((r) => r.kind === kind && r.ref_type === `${ref.type}_refund`).reduce((s, r) => s + r.amount, 0);
    const wanted = Math.min(granted - takenBefore, Math.floor((granted * span.to) / paid) - Math.floor((granted * span.from) / paid));
    if (wanted > 0) await debitUpTo(tx, { userId, kind, reason: 'refund', idempotencyKey: `${key}:${kind}`, refType: `${ref.type}_refund`, refId: ref.id }, wanted);
  }
}

async function applyRefund(app: FastifyInstance, tx: Tx, paymentTransactionId: number, n: PaymentNotification, key: string): Promise<Code> {
  const refunded = kopecksFrom(n.Amount);
  const now = new Date();
  const invoice = await tx.selectFrom('invoices').selectAll().where('transaction_id', '=', paymentTransactionId).forUpdate().executeTakeFirst();
  if (invoice) {
    // The plan before the wallet, in the order of Pay and renewals: the other way round they deadlock.
    const sub = invoice.subscription_id ? await tx.selectFrom('subscriptions').selectAll().where('id', '=', invoice.subscription_id).forUpdate().executeTakeFirstOrThrow() : undefined;
    const span = refundSpan(invoice.amount_kopecks, invoice.refunded_kopecks, refunded);
    await takeBack(tx, invoice.user_id, { type: 'invoice', id: invoice.id }, invoice.amount_kopecks, span, key);
    const whole = span.to >= invoice.amount_kopecks;
    await tx
      .updateTable('invoices')
      .set({ refunded_kopecks: span.to, updated_at: now, ...(whole && invoice.status !== 'refunded' ? { status: 'refunded' as const, refunded_at: now } : {}) })
      .where('id', '=', invoice.id)
      .execute();
    if (sub && whole) {
      if (sub.status === 'active' || sub.status === 'past_due' || sub.status === 'cancelled') {
        await changeSubscription(tx, sub, 'expired', 'refunded', n.TransactionId, { ended_at: now, period_end: now, cancelled_at: sub.cancelled_at ?? now });
        if (sub.cp_subscription_id && sub.status !== 'cancelled') await app.jobs.send(CANCEL_CP_SUBSCRIPTION_JOB, { id: sub.cp_subscription_id }, tx);
      }
    }
    return CP_CODES.ok;
  }
  const charge = await tx.selectFrom('auto_charges').selectAll().where('transaction_id', '=', paymentTransactionId).where('success', '=', true).forUpdate().executeTakeFirst();
  if (charge) {
    const span = refundSpan(charge.amount_kopecks, charge.refunded_kopecks, refunded);
    await takeBack(tx, charge.user_id, { type: 'auto_charge', id: charge.id }, charge.amount_kopecks, span, key);
    const whole = span.to >= charge.amount_kopecks;
    await tx
      .updateTable('auto_charges')
      .set({ refunded_kopecks: span.to, updated_at: now, ...(whole && charge.refunded_at === null ? { refunded_at: now } : {}) })
      .where('id', '=', charge.id)
      .execute();
    return CP_CODES.ok;
  }
  // Its Pay may not be applied yet (still being retried): ask CloudPayments to send the refund again later.
  app.log.warn({ paymentTransactionId }, 'refund of an unknown transaction');
  return CP_CODES.cannotAccept;
}
