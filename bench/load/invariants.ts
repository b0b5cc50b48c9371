import { sql } from 'kysely';
import type { Db } from '../../server/src/db/database.ts';

/*
 * What must hold after the load and the faults, read from the database: every balance is its
 * ledger's sum; every payment credited once and none lost; no hold, run, answer or refund left
 * open once the work has drained.
 */

export interface Check {
  name: string;
  ok: boolean;
  /** What was counted, or what broke it. */
  detail: string;
}

/** What is still going on: the drain waits until all of it is zero. */
export interface Pending {
  holds: number;
  runs: number;
  answers: number;
  refunds: number;
}

const count = async (db: Db, query: ReturnType<typeof sql<{ n: number }>>) => (await query.execute(db)).rows[0]?.n ?? 0;

export async function pending(db: Db): Promise<Pending> {
  const [holds, runs, answers, refunds] = await Promise.all([
    count(db, sql<{ n: number }>`select count(*)::int as n from wallet_holds where status = 'held'`),
    count(db, sql<{ n: number }>`select count(*)::int as n from generations where status in ('queued', 'running')`),
    count(db, sql<{ n: number }>`select count(*)::int as n from chat_messages where status = 'generating'`),
    count(db, sql<{ n: number }>`select count(*)::int as n from payment_refunds where status = 'requested'`),
  ]);
  return { holds, runs, answers, refunds };
}

export const isDrained = (p: Pending): boolean => p.holds + p.runs + p.answers + p.refunds === 0;

const sample = (rows: unknown[]) => JSON.stringify(rows.slice(0, 5));

/**
 * What is left open after the drain, row by row, for a failed run's output: the runs still queued
 * or running with their jobs in the queue, the open holds, the answers still being written.
 */
export async function leftOpen(db: Db): Promise<string> {
  const runs = await sql<Record<string, unknown>>`
    select g.id, g.variant, g.status, g.attempts, g.provider_ref, g.created_at, g.started_at, g.updated_at, left(g.error_detail, 200) as error_detail,
      (select json_agg(json_build_object('state', j.state, 'retry', j.retry_count, 'created', j.created_on, 'started', j.started_on, 'completed', j.completed_on, 'start_after', j.start_after))
         from pgboss.job j where j.name = 'generations.run' and j.data->>'generationId' = g.id::text) as jobs
    from generations g where g.status in ('queued', 'running') order by g.id limit 10`.execute(db);
  const holds = await sql<Record<string, unknown>>`select id, user_id, kind, amount, idempotency_key, created_at from wallet_holds where status = 'held' order by id limit 10`.execute(db);
  const answers = await sql<Record<string, unknown>>`select id, chat_id, created_at, updated_at from chat_messages where status = 'generating' order by id limit 10`.execute(db);
  const now = await sql<{ now: Date }>`select now()`.execute(db);
  return [`database time ${String(now.rows[0]?.now.toISOString())}`, `runs: ${JSON.stringify(runs.rows)}`, `holds: ${JSON.stringify(holds.rows)}`, `answers: ${JSON.stringify(answers.rows)}`].join('\n');
}

/** The checks over the whole database; `paid` are the charges the sandbox answered as paid. */
export async function checkInvariants(db: Db, paid: { invoiceId: number }[]): Promise<Check[]> {
  const checks: Check[] = [];

  const wallets = await sql<{ user_id: number; kind: string; balance: number; sum: number }>`
    select coalesce(w.user_id, l.user_id) as user_id, coalesce(w.kind, l.kind) as kind, coalesce(w.balance, 0)::bigint as balance, coalesce(l.sum, 0)::bigint as sum
    from wallets w
    full join (select user_id, kind, sum(amount) as sum from wallet_ledger group by user_id, kind) l on l.user_id = w.user_id and l.kind = w.kind`.execute(db);
  const off = wallets.rows.filter((r) => r.balance !== r.sum);
  checks.push({ name: 'every balance equals its ledger sum', ok: off.length === 0, detail: off.length ? `${String(off.length)} wallets differ: ${sample(off)}` : `${String(wallets.rows.length)} wallets` });

  const twice = await sql<{ ref_type: string; ref_id: string; kind: string; n: number }>`
    select ref_type, ref_id, kind, count(*)::int as n from wallet_ledger
    where reason in ('subscription_grant', 'trial_grant', 'package') group by ref_type, ref_id, kind having count(*) > 1`.execute(db);
  const sharedTransactions = await sql<{ transaction_id: number; n: number }>`
    select transaction_id, count(*)::int as n from (
      select transaction_id from invoices where transaction_id is not null
      union all select transaction_id from auto_charges
    ) t group by transaction_id having count(*) > 1`.execute(db);
  const grants = await count(db, sql<{ n: number }>`select count(*)::int as n from wallet_ledger where reason in ('subscription_grant', 'trial_grant', 'package')`);
  checks.push({
    name: 'no payment credited twice',
    ok: twice.rows.length === 0 && sharedTransactions.rows.length === 0,
    detail: twice.rows.length || sharedTransactions.rows.length ? `twice: ${sample(twice.rows)}; one transaction on two payments: ${sample(sharedTransactions.rows)}` : `${String(grants)} grant lines, one per payment and wallet`,
  });

  const uncredited = await sql<{ id: number; status: string }>`
    select i.id, i.status from invoices i
    where i.status in ('paid', 'refunded') and (i.words > 0 or i.media_tenths > 0)
      and not exists (select 1 from wallet_ledger l where l.ref_type = 'invoice' and l.ref_id = i.id::text and l.amount > 0 and l.reason in ('subscription_grant', 'trial_grant', 'package'))`.execute(db);
  const ids = paid.map((p) => p.invoiceId);
  const unpaid = ids.length
    ? (await sql<{ id: number; status: string }>`select id, status from invoices where id = any(${ids}::bigint[]) and status not in ('paid', 'refunded')`.execute(db)).rows
    : [];
  const paidInvoices = await count(db, sql<{ n: number }>`select count(*)::int as n from invoices where status in ('paid', 'refunded')`);
  checks.push({
    name: 'no payment lost: every charge the sandbox took is paid and credited',
    ok: uncredited.rows.length === 0 && unpaid.length === 0,
    detail: uncredited.rows.length || unpaid.length ? `paid, not credited: ${sample(uncredited.rows)}; charged, not paid: ${sample(unpaid)}` : `${String(paidInvoices)} paid invoices (${String(ids.length)} charges answered as paid), all credited`,
  });

  const left = await pending(db);
  checks.push({ name: 'no hold left open', ok: left.holds === 0, detail: `${String(left.holds)} open holds` });
  checks.push({ name: 'no run queued or running', ok: left.runs === 0, detail: `${String(left.runs)} runs` });
  checks.push({ name: 'no answer still being written', ok: left.answers === 0, detail: `${String(left.answers)} answers` });
  checks.push({ name: 'no refund left unanswered', ok: left.refunds === 0, detail: `${String(left.refunds)} refunds requested` });
  return checks;
}

/** Figures of what the run did, for the report. */
export async function tally(db: Db): Promise<Record<string, Record<string, number>>> {
  const grouped = async (table: string, column: string) => {
    const { rows } = await sql<{ key: string; n: number }>`select ${sql.ref(column)}::text as key, count(*)::int as n from ${sql.table(table)} group by 1 order by 1`.execute(db);
    return Object.fromEntries(rows.map((r) => [r.key, r.n]));
  };
  return {
    runs: await grouped('generations', 'status'),
    answers: await grouped('chat_messages', 'status'),
    invoices: await grouped('invoices', 'status'),
    refunds: await grouped('payment_refunds', 'status'),
    holds: await grouped('wallet_holds', 'status'),
    ledger: await grouped('wallet_ledger', 'reason'),
    failedJobs: await grouped('job_failures', 'queue'),
  };
}
