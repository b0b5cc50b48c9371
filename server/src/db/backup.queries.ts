import { sql } from 'kysely';
import type { Executor } from './database.ts';

/** The server's major version (`server_version_num` 150020 → 15). */
export const serverMajor = async (db: Executor) => Math.floor(Number((await sql<{ v: string }>`select current_setting('server_version_num') as v`.execute(db)).rows[0]?.v) / 10_000);

/** Tables outside PostgreSQL's own schemas: a database restored into must have none. */
export const tableCount = async (db: Executor) =>
  (await sql<{ n: number }>`select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`.execute(db)).rows[0]?.n ?? 0;

/** Wallets whose balance differs from the sum of their ledger, with both figures. */
export const walletsOffLedger = async (db: Executor) =>
  (
    await sql<{ user_id: number; kind: string; balance: number; ledger: number }>`
      select w.user_id, w.kind, w.balance, coalesce(l.sum, 0)::bigint as ledger
      from wallets w
      left join (select user_id, kind, sum(amount) as sum from wallet_ledger group by user_id, kind) l on l.user_id = w.user_id and l.kind = w.kind
      where w.balance <> coalesce(l.sum, 0)
      order by w.user_id, w.kind`.execute(db)
  ).rows;

/** What a restored database holds, to print beside its checks. */
export const contents = async (db: Executor) =>
  (
    await sql<{ users: number; wallets: number; ledger: number; payments: number; runs: number; chats: number }>`
      select (select count(*) from users)::int as users, (select count(*) from wallets)::int as wallets,
        (select count(*) from wallet_ledger)::int as ledger, (select count(*) from invoices where paid_at is not null)::int as payments,
        (select count(*) from generations)::int as runs, (select count(*) from chats)::int as chats`.execute(db)
  ).rows[0];

/** Gathers the planner's statistics (a restore brings rows, not statistics). */
export const analyze = (db: Executor) => sql`analyze`.execute(db);
