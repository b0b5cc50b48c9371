import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { InvoiceStatus, SubscriptionStatus } from '../billing/billing.table.ts';
import { containing } from './admin-list.ts';
import { direction, pageOf } from './admin-page.queries.ts';

type Dir = 'asc' | 'desc';

const SUBSCRIPTION_ORDER = { id: 's.id', created_at: 's.created_at', paid_at: 's.paid_at', period_end: 's.period_end', amount: 's.amount_kopecks' } as const;

const subscriptions = (db: Executor) => db.selectFrom('subscriptions as s').innerJoin('users as u', 'u.id', 's.user_id');

const SUBSCRIPTION_FIELDS = [
  's.id',
  's.user_id',
  'u.email',
  's.tariff_id',
  's.name',
  's.status',
  's.amount_kopecks',
  's.first_amount_kopecks',
  's.currency_provider',
  's.is_trial',
  's.cp_subscription_id',
  's.paid_at',
  's.cancelled_at',
  's.period_end',
  's.ended_at',
  's.created_at',
  's.updated_at',
] as const;

/** Subscriptions with their users' emails: searched by email, filtered by status. */
export function listSubscriptions(db: Executor, opts: { q: string; status?: SubscriptionStatus | undefined; sort: keyof typeof SUBSCRIPTION_ORDER; dir: Dir; page: number }) {
  let query = subscriptions(db);
  if (opts.status) query = query.where('s.status', '=', opts.status);
  if (opts.q) query = query.where('u.email', 'ilike', containing(opts.q));
  return pageOf(query, (q) => q.select(SUBSCRIPTION_FIELDS).orderBy(SUBSCRIPTION_ORDER[opts.sort], direction(opts.dir)).orderBy('s.id', opts.dir), opts.page);
}

export const findSubscriptionRow = (db: Executor, id: number) => subscriptions(db).select(SUBSCRIPTION_FIELDS).where('s.id', '=', id).executeTakeFirst();
export type AdminSubscriptionRow = NonNullable<Awaited<ReturnType<typeof findSubscriptionRow>>>;

const PAYMENT_ORDER = { id: 'i.id', created_at: 'i.created_at', paid_at: 'i.paid_at', amount: 'i.amount_kopecks' } as const;

const payments = (db: Executor) => db.selectFrom('invoices as i').innerJoin('users as u', 'u.id', 'i.user_id');

const PAYMENT_FIELDS = [
  'i.id',
  'i.user_id',
  'u.email',
  'i.tariff_id',
  'i.tariff_name as tariff',
  'i.subscription_id',
  'i.kind',
  'i.description',
  'i.amount_kopecks',
  'i.currency',
  'i.status',
  'i.transaction_id',
  'i.failure_reason',
  'i.duplicate_of',
  'i.refunded_kopecks',
  'i.paid_at',
  'i.refunded_at',
  'i.created_at',
  'i.updated_at',
  sql<number>`coalesce((select sum(r.amount_kopecks) from payment_refunds r where r.invoice_id = i.id and r.status = 'requested'), 0)`.as('refunding_kopecks'),
] as const;

/** Payments (invoices) with their users' emails and plans: searched by email or transaction id, filtered by status. */
export function listPayments(db: Executor, opts: { q: string; status?: InvoiceStatus | undefined; sort: keyof typeof PAYMENT_ORDER; dir: Dir; page: number }) {
  let query = payments(db);
  if (opts.status) query = query.where('i.status', '=', opts.status);
  if (opts.q) {
    const like = containing(opts.q);
    query = query.where((eb) => eb.or([eb('u.email', 'ilike', like), eb(sql<string>`i.transaction_id::text`, 'ilike', like)]));
  }
  return pageOf(query, (q) => q.select(PAYMENT_FIELDS).orderBy(PAYMENT_ORDER[opts.sort], direction(opts.dir)).orderBy('i.id', opts.dir), opts.page);
}

export const findPaymentRow = (db: Executor, id: number) => payments(db).select(PAYMENT_FIELDS).where('i.id', '=', id).executeTakeFirst();
export type AdminPaymentRow = NonNullable<Awaited<ReturnType<typeof findPaymentRow>>>;

/** A plan's payments: its invoice and the second charges of it (which name no plan themselves). */
export const subscriptionPayments = (db: Executor, subscriptionId: number) =>
  payments(db)
    .select(PAYMENT_FIELDS)
    .where((eb) =>
      eb.or([
        eb('i.subscription_id', '=', subscriptionId),
        eb('i.duplicate_of', 'in', eb.selectFrom('invoices as o').select('o.id').where('o.subscription_id', '=', subscriptionId)),
      ]),
    )
    .orderBy('i.id', 'desc')
    .limit(100)
    .execute();

/** A payment's refunds, newest first, with the admins who asked for them. */
export const refundsOf = (db: Executor, invoiceId: number) =>
  db
    .selectFrom('payment_refunds as r')
    .leftJoin('users as a', 'a.id', 'r.actor_id')
    .select(['r.id', 'r.amount_kopecks', 'r.applied_kopecks', 'r.status', 'r.reason', 'r.cause', 'r.actor_id', 'a.email as actor_email', 'r.refund_transaction_id', 'r.created_at', 'r.applied_at'])
    .where('r.invoice_id', '=', invoiceId)
    .orderBy('r.id', 'desc')
    .execute();

/** The ledger lines a payment caused: its grants and what its refunds took back. */
export const ledgerOfPayment = (db: Executor, invoice: { id: number; user_id: number }) =>
  db
    .selectFrom('wallet_ledger')
    .select(['id', 'kind', 'amount', 'reason', 'created_at'])
    .where('user_id', '=', invoice.user_id)
    .where('ref_id', '=', String(invoice.id))
    .where('ref_type', 'in', ['invoice', 'invoice_refund'])
    .orderBy('id')
    .execute();

/**
 * The subscription log: status changes with their causes and renewal charges, one list (each
 * line says which it is), with the users' emails and the plans' names.
 */
function logLines(db: Executor) {
  const changes = db
    .selectFrom('subscription_log as l')
    .innerJoin('subscriptions as s', 's.id', 'l.subscription_id')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select([
      sql<'status' | 'charge'>`'status'`.as('kind'),
      'l.id',
      'l.user_id',
      'u.email',
      'l.subscription_id',
      's.name as plan',
      'l.from_status',
      sql<string | null>`l.to_status`.as('to_status'),
      sql<string | null>`l.cause`.as('cause'),
      'l.ref',
      sql<number | null>`null::bigint`.as('amount_kopecks'),
      sql<boolean | null>`null::boolean`.as('success'),
      sql<string | null>`null::text`.as('failure_reason'),
      sql<number | null>`null::bigint`.as('transaction_id'),
      'l.created_at',
    ]);
  const charges = db
    .selectFrom('auto_charges as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select([
      sql<'status' | 'charge'>`'charge'`.as('kind'),
      'c.id',
      'c.user_id',
      'u.email',
      'c.subscription_id',
      'c.name as plan',
      sql<string | null>`null::text`.as('from_status'),
      sql<string | null>`null::text`.as('to_status'),
      sql<string | null>`null::text`.as('cause'),
      sql<string | null>`null::text`.as('ref'),
      sql<number | null>`c.amount_kopecks`.as('amount_kopecks'),
      sql<boolean | null>`c.success`.as('success'),
      'c.failure_reason',
      sql<number | null>`c.transaction_id`.as('transaction_id'),
      'c.created_at',
    ]);
  return db.selectFrom(changes.unionAll(charges).as('e'));
}

/** The subscription log, newest first (or oldest), searched by email, plan, cause or transaction. */
export function listLog(db: Executor, opts: { q: string; kind?: 'status' | 'charge' | undefined; dir: Dir; page: number }) {
  let query = logLines(db);
  if (opts.kind) query = query.where('e.kind', '=', opts.kind);
  if (opts.q) {
    const like = containing(opts.q);
    query = query.where((eb) =>
      eb.or([eb('e.email', 'ilike', like), eb('e.plan', 'ilike', like), eb('e.cause', 'ilike', like), eb('e.ref', 'ilike', like), eb(sql<string>`e.transaction_id::text`, 'ilike', like)]),
    );
  }
  return pageOf(query, (q) => q.selectAll('e').orderBy('e.created_at', opts.dir).orderBy('e.kind', opts.dir).orderBy('e.id', opts.dir), opts.page);
}

export const logOfSubscription = (db: Executor, subscriptionId: number) =>
  logLines(db).selectAll('e').where('e.subscription_id', '=', subscriptionId).orderBy('e.created_at', 'desc').orderBy('e.kind').orderBy('e.id', 'desc').limit(200).execute();
export type LogLineRow = Awaited<ReturnType<typeof logOfSubscription>>[number];
