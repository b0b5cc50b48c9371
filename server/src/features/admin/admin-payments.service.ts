import type { AdminPayment, AdminPaymentDetail, AdminSubscription, AdminSubscriptionDetail, SubscriptionLogEntry } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import { AppError, fieldError } from '../../lib/app-error.ts';
import type { Viewer } from '../accounts/viewer.ts';
import { rubles } from '../billing/money.ts';
import { duplicateChargesOf, lockInvoice } from '../billing/invoices.queries.ts';
import { refundTransactionJob } from '../payments/payments.jobs.ts';
import { findRefundRequest, insertRefundRequest, pendingRefunds } from '../payments/refunds.queries.ts';
import { mediaToWire } from '../wallet/wallet.queries.ts';
import { recordAudit } from './audit.queries.ts';
import { lastPage } from './admin-list.ts';
import {
  findPaymentRow,
  findSubscriptionRow,
  ledgerOfPayment,
  listLog,
  listPayments,
  listSubscriptions,
  logOfSubscription,
  refundsOf,
  subscriptionPayments,
  type AdminPaymentRow,
  type AdminSubscriptionRow,
  type LogLineRow,
} from './admin-payments.queries.ts';

const iso = (d: Date | null) => d?.toISOString() ?? null;

const toAdminSubscription = (s: AdminSubscriptionRow): AdminSubscription => ({
  id: s.id,
  user_id: s.user_id,
  email: s.email,
  tariff_id: s.tariff_id,
  name: s.name,
  status: s.status,
  amount: rubles(s.amount_kopecks),
  first_amount: rubles(s.first_amount_kopecks),
  currency_provider: s.currency_provider,
  is_trial: s.is_trial,
  cp_subscription_id: s.cp_subscription_id,
  paid_at: iso(s.paid_at),
  cancelled_at: iso(s.cancelled_at),
  period_end: iso(s.period_end),
  ended_at: iso(s.ended_at),
  created_at: s.created_at.toISOString(),
  updated_at: s.updated_at.toISOString(),
});

/** Kopecks an admin may still refund: a paid payment less what went back and what is on its way back. */
const refundableKopecks = (p: Pick<AdminPaymentRow, 'status' | 'transaction_id' | 'amount_kopecks' | 'refunded_kopecks'>, refunding: number) =>
  p.status === 'paid' && p.transaction_id !== null ? Math.max(0, p.amount_kopecks - p.refunded_kopecks - refunding) : 0;

const toAdminPayment = (p: AdminPaymentRow): AdminPayment => ({
  id: p.id,
  user_id: p.user_id,
  email: p.email,
  tariff_id: p.tariff_id,
  tariff: p.tariff,
  subscription_id: p.subscription_id,
  kind: p.kind,
  description: p.description,
  amount: rubles(p.amount_kopecks),
  currency: p.currency,
  status: p.status,
  transaction_id: p.transaction_id,
  failure_reason: p.failure_reason,
  duplicate_of: p.duplicate_of,
  refunded: rubles(p.refunded_kopecks),
  refunding: rubles(p.refunding_kopecks),
  refundable: rubles(refundableKopecks(p, p.refunding_kopecks)),
  paid_at: iso(p.paid_at),
  refunded_at: iso(p.refunded_at),
  created_at: p.created_at.toISOString(),
  updated_at: p.updated_at.toISOString(),
});

const toLogEntry = (e: LogLineRow): SubscriptionLogEntry => ({
  kind: e.kind,
  id: e.id,
  user_id: e.user_id,
  email: e.email,
  subscription_id: e.subscription_id,
  plan: e.plan,
  from_status: e.from_status,
  to_status: e.to_status,
  cause: e.cause,
  ref: e.ref,
  amount: e.amount_kopecks === null ? null : rubles(e.amount_kopecks),
  success: e.success,
  failure_reason: e.failure_reason,
  transaction_id: e.transaction_id,
  created_at: e.created_at.toISOString(),
});

export async function adminSubscriptions(ctx: AppContext, query: Parameters<typeof listSubscriptions>[1]) {
  const { rows, total } = await listSubscriptions(ctx.db, query);
  return { data: rows.map(toAdminSubscription), last_page: lastPage(total) };
}

export async function adminSubscription(ctx: AppContext, id: number): Promise<AdminSubscriptionDetail> {
  const row = await findSubscriptionRow(ctx.db, id);
  if (!row) throw new AppError('NOT_FOUND', 'Подписка не найдена');
  const [log, invoices] = await Promise.all([logOfSubscription(ctx.db, id), subscriptionPayments(ctx.db, id)]);
  return { ...toAdminSubscription(row), log: log.map(toLogEntry), payments: invoices.map(toAdminPayment) };
}

export async function adminPayments(ctx: AppContext, query: Parameters<typeof listPayments>[1]) {
  const { rows, total } = await listPayments(ctx.db, query);
  return { data: rows.map(toAdminPayment), last_page: lastPage(total) };
}

/** A payment with its refunds and ledger lines, read in one snapshot (never a refund `done` beside an amount still `refunding`). */
export async function adminPayment(db: Executor, id: number): Promise<AdminPaymentDetail> {
  if (!db.isTransaction) return db.transaction().setIsolationLevel('repeatable read').execute((tx) => adminPayment(tx, id));
  const row = await findPaymentRow(db, id);
  if (!row) throw new AppError('NOT_FOUND', 'Платёж не найден');
  const [refunds, ledger, duplicates] = await Promise.all([refundsOf(db, id), ledgerOfPayment(db, row), duplicateChargesOf(db, [id])]);
  return {
    ...toAdminPayment(row),
    refunds: refunds.map((r) => ({
      id: r.id,
      amount: rubles(r.amount_kopecks),
      applied: r.applied_kopecks === null ? null : rubles(r.applied_kopecks),
      status: r.status,
      reason: r.reason,
      cause: r.cause,
      actor_id: r.actor_id,
      actor_email: r.actor_email,
      refund_transaction_id: r.refund_transaction_id,
      created_at: r.created_at.toISOString(),
      applied_at: iso(r.applied_at),
    })),
    duplicates: duplicates.map((d) => ({ id: d.id, amount: rubles(d.amount_kopecks), status: d.status, refunded: rubles(d.refunded_kopecks), transaction_id: d.transaction_id, paid_at: iso(d.paid_at) })),
    ledger: ledger.map((l) => ({ id: l.id, kind: l.kind, amount: l.kind === 'media' ? mediaToWire(l.amount) : l.amount, reason: l.reason, created_at: l.created_at.toISOString() })),
  };
}

export async function adminLog(ctx: AppContext, query: Parameters<typeof listLog>[1]) {
  const { rows, total } = await listLog(ctx.db, query);
  return { data: rows.map(toLogEntry), last_page: lastPage(total) };
}

const formatRubles = (kopecks: number) => rubles(kopecks).toLocaleString('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * Asks CloudPayments to refund (part of) a paid payment, once per `request_id`: the request, its
 * audit record and the refund job are one transaction, with the payment locked, so two admins (or
 * a double click) can never ask back more than is left. Money and tokens move through the one
 * refund path there is: CloudPayments' Refund notification (the sandbox sends it too) raises the
 * payment's refunded amount and takes back its tokens in proportion, once per refund.
 */
export async function refundPayment(ctx: AppContext, actor: Viewer, id: number, body: { amount: number; reason: string; request_id: string }): Promise<AdminPaymentDetail> {
  const kopecks = Math.round(body.amount * 100);
  try {
    return await ctx.db.transaction().execute(async (tx) => {
      const invoice = await lockInvoice(tx, id);
      if (!invoice) throw new AppError('NOT_FOUND', 'Платёж не найден');
      const earlier = await findRefundRequest(tx, body.request_id);
      if (earlier) {
        if (earlier.invoice_id !== id) throw fieldError('request_id', 'Этот запрос уже применён к другому платежу');
        return adminPayment(tx, id);
      }
      if (invoice.status !== 'paid' || invoice.transaction_id === null) throw new AppError('REFUND_NOT_ALLOWED');
      const refunding = await pendingRefunds(tx, id);
      const left = refundableKopecks(invoice, refunding);
      if (kopecks > left) {
        throw fieldError('amount', left > 0 ? `Можно вернуть не больше ${formatRubles(left)} ₽` : 'Возвращать больше нечего: платёж уже возвращён или возврат в пути', 'REFUND_TOO_LARGE');
      }
      const refund = await insertRefundRequest(tx, {
        invoiceId: id,
        userId: invoice.user_id,
        paymentTransactionId: invoice.transaction_id,
        amountKopecks: kopecks,
        reason: body.reason,
        requestId: body.request_id,
        actorId: actor.id,
      });
      await recordAudit(tx, {
        actorId: actor.id,
        action: 'payment.refund',
        entity: 'payment',
        entityId: id,
        before: { refunded: rubles(invoice.refunded_kopecks), refunding: rubles(refunding), refundable: rubles(left) },
        after: { refund_id: refund.id, amount: rubles(kopecks), reason: body.reason, refunding: rubles(refunding + kopecks), refundable: rubles(left - kopecks) },
      });
      await ctx.jobs.send(refundTransactionJob, { transactionId: invoice.transaction_id, amountKopecks: kopecks, refundId: refund.id }, { tx });
      return adminPayment(tx, id);
    });
  } catch (err) {
    // The same request id sent for two payments at once: the unique index lets one in.
    if ((err as { code?: string }).code === '23505') throw fieldError('request_id', 'Этот запрос уже применён к другому платежу');
    throw err;
  }
}
