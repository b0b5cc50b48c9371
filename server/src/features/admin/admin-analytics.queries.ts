import { sql, type RawBuilder } from 'kysely';
import { ANALYTICS_TIME_ZONE } from '@app/contracts';
import type { Executor } from '../../db/database.ts';

/** Calendar days `from`–`to` (`YYYY-MM-DD`, both included) in the analytics' time zone. */
export interface Period {
  from: string;
  to: string;
}

const TZ = ANALYTICS_TIME_ZONE;
const dayOf = (column: RawBuilder<unknown>) => sql`(${column} at time zone ${TZ})::date`;
/** `column` falls within the period's days (also the CSV exports' rule). */
export const within = (column: RawBuilder<unknown>, p: Period) =>
  sql`${column} >= (${p.from}::date)::timestamp at time zone ${TZ} and ${column} < (${p.to}::date + 1)::timestamp at time zone ${TZ}`;
const days = (p: Period) => sql`generate_series(${p.from}::date::timestamp, ${p.to}::date::timestamp, interval '1 day') as d(day)`;

/** One number per day of the period from `perDay` (rows of `day` and `value`), 0 on days it has none. */
async function daily(db: Executor, p: Period, perDay: RawBuilder<unknown>): Promise<number[]> {
  const { rows } = await sql<{ value: string | number }>`select coalesce(x.value, 0) as value from ${days(p)} left join (${perDay}) as x on x.day = d.day::date order by d.day`.execute(db);
  return rows.map((r) => Number(r.value));
}

/** Payments received: first payments and packages (invoices with a transaction) and successful renewals. */
const received = (p: Period) => sql`
  select ${dayOf(sql.ref('paid_at'))} as day, amount_kopecks as kopecks from invoices where transaction_id is not null and ${within(sql.ref('paid_at'), p)}
  union all
  select ${dayOf(sql.ref('created_at'))}, amount_kopecks from auto_charges where success and ${within(sql.ref('created_at'), p)}`;

/** Kopecks received less kopecks refunded (on the day CloudPayments reported each refund). */
export const revenueKopecks = (db: Executor, p: Period) =>
  daily(
    db,
    p,
    sql`select day, sum(kopecks) as value from (
      ${received(p)}
      union all
      select ${dayOf(sql.ref('applied_at'))}, -applied_kopecks from payment_refunds where status = 'done' and ${within(sql.ref('applied_at'), p)}
    ) as m group by day`,
  );

export const paymentCounts = (db: Executor, p: Period) => daily(db, p, sql`select day, count(*) as value from (${received(p)}) as m group by day`);

/** Plans paid for the first time. */
export const newSubscriptions = (db: Executor, p: Period) =>
  daily(db, p, sql`select ${dayOf(sql.ref('paid_at'))} as day, count(*) as value from subscriptions where ${within(sql.ref('paid_at'), p)} group by 1`);

/** Plans running at the end of each day (paid, not yet ended); today's as of now, later days 0. */
export async function activeSubscriptions(db: Executor, p: Period): Promise<number[]> {
  const { rows } = await sql<{ value: string | number }>`
    select case when b.starts > now() then 0
                else (select count(*) from subscriptions s where s.paid_at < b.at and (s.ended_at is null or s.ended_at > b.at)) end as value
    from (select d.day, d.day at time zone ${TZ} as starts, least((d.day + interval '1 day') at time zone ${TZ}, now()) as at from ${days(p)}) as b
    order by b.day`.execute(db);
  return rows.map((r) => Number(r.value));
}

export const generationCounts = (db: Executor, p: Period) =>
  daily(db, p, sql`select ${dayOf(sql.ref('created_at'))} as day, count(*) as value from generations where ${within(sql.ref('created_at'), p)} group by 1`);

/**
 * What closed holds of a wallet kept (the hold's ledger line less its release), on the day each
 * hold was placed: chat answers and runs; a hold still open is not spent yet.
 */
export const spent = (db: Executor, p: Period, kind: 'words' | 'media') =>
  daily(
    db,
    p,
    sql`select ${dayOf(sql.ref('h.created_at'))} as day, -sum(l.amount) as value
        from wallet_holds h join wallet_ledger l on l.hold_id = h.id
        where h.kind = ${kind} and h.status <> 'held' and ${within(sql.ref('h.created_at'), p)} group by 1`,
  );
