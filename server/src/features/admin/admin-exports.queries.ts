import { sql } from 'kysely';
import { ANALYTICS_TIME_ZONE } from '@app/contracts';
import type { Executor } from '../../db/database.ts';
import { within, type Period } from './admin-analytics.queries.ts';
import { ledgerInWords } from '../wallet/balance-history.queries.ts';

/*
 * The rows of the CSV exports, read in batches by keyset (the moment, then the id): a period of
 * any size is streamed without holding it in memory. The cursor keeps the moment as PostgreSQL's
 * text, so microseconds survive the round trip and no row is skipped or repeated.
 */

/** Where a batch starts: after the row with this moment (as text) and these tie-breakers. */
export interface Cursor {
  at: string;
  id: number;
  order?: number;
}

/** A moment as people in Moscow read it: `25.11.2026 20:29:03`. */
const moscow = (column: string) => sql<string>`to_char(${sql.ref(column)} at time zone ${ANALYTICS_TIME_ZONE}, 'DD.MM.YYYY HH24:MI:SS')`;

/** Ledger rows of the period, oldest first, with their users' emails and what saying them in words needs (as the balance history). */
export function ledgerBatch(db: Executor, period: Period, after: Cursor | null, limit: number) {
  let query = ledgerInWords(db)
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select(['l.user_id', 'u.email'])
    .select([moscow('l.created_at').as('moscow'), sql<string>`l.created_at::text`.as('cursor_at')])
    .where(sql<boolean>`${within(sql.ref('l.created_at'), period)}`);
  if (after) query = query.where(sql<boolean>`(l.created_at, l.id) > (${after.at}::timestamptz, ${after.id})`);
  return query.orderBy('l.created_at').orderBy('l.id').limit(limit).execute();
}
export type LedgerExportRow = Awaited<ReturnType<typeof ledgerBatch>>[number];

export interface PaymentExportRow {
  /** `payment` (an invoice paid), `renewal` (a renewal charged), `refund`. */
  op: 'payment' | 'renewal' | 'refund';
  /** The order of operations at the same moment: a payment, a renewal, then a refund. */
  op_order: number;
  id: number;
  invoice_id: number | null;
  charge_id: number | null;
  subscription_id: number | null;
  email: string;
  tariff: string | null;
  kind: string | null;
  /** Signed: a refund is negative (what it took off the payment, or what was asked while not applied). */
  kopecks: number;
  status: string;
  transaction_id: number | null;
  reason: string | null;
  moscow: string;
  cursor_at: string;
}

/**
 * Money of the period, oldest first: payments received (first payments and packages, by when
 * they were paid), renewals charged, and refunds (by when CloudPayments applied them, or when
 * they were asked for while not applied: their status says which).
 */
export async function paymentsBatch(db: Executor, period: Period, after: Cursor | null, limit: number): Promise<PaymentExportRow[]> {
  const { rows } = await sql<PaymentExportRow>`
    select m.*, u.email, to_char(m.at at time zone ${ANALYTICS_TIME_ZONE}, 'DD.MM.YYYY HH24:MI:SS') as moscow, m.at::text as cursor_at
    from (
      select 'payment' as op, 1 as op_order, i.id, i.id as invoice_id, null::bigint as charge_id, i.subscription_id, i.user_id,
             t.name as tariff, i.kind::text as kind, i.amount_kopecks as kopecks, i.status::text as status, i.transaction_id, null::text as reason, i.paid_at as at
        from invoices i join tariffs t on t.id = i.tariff_id
        where i.transaction_id is not null and ${within(sql.ref('i.paid_at'), period)}
      union all
      select 'renewal', 2, c.id, null, c.id, c.subscription_id, c.user_id, c.name, 'subscription', c.amount_kopecks,
             case when c.refunded_kopecks >= c.amount_kopecks and c.amount_kopecks > 0 then 'refunded' else 'paid' end, c.transaction_id, null, c.created_at
        from auto_charges c
        where c.success and ${within(sql.ref('c.created_at'), period)}
      union all
      select 'refund', 3, r.id, r.invoice_id, r.auto_charge_id, coalesce(i.subscription_id, c.subscription_id), r.user_id,
             coalesce(t.name, c.name), coalesce(i.kind::text, case when c.id is not null then 'subscription' end), -coalesce(r.applied_kopecks, r.amount_kopecks),
             r.status::text, r.refund_transaction_id, r.reason, coalesce(r.applied_at, r.created_at)
        from payment_refunds r
        left join invoices i on i.id = r.invoice_id
        left join tariffs t on t.id = i.tariff_id
        left join auto_charges c on c.id = r.auto_charge_id
        where ${within(sql`coalesce(r.applied_at, r.created_at)`, period)}
    ) as m
    join users u on u.id = m.user_id
    where ${after ? sql`(m.at, m.op_order, m.id) > (${after.at}::timestamptz, ${after.order ?? 0}, ${after.id})` : sql`true`}
    order by m.at, m.op_order, m.id
    limit ${limit}`.execute(db);
  return rows;
}
