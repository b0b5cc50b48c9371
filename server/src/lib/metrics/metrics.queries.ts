import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';

/** Holds still open, by wallet: how many and the oldest one's age in seconds (the partial index of open holds). */
export const openHolds = async (db: Executor) =>
  (
    await sql<{ kind: string; open: number; oldest_seconds: number }>`
      select kind, count(*)::int as open, extract(epoch from now() - min(created_at))::float8 as oldest_seconds
      from wallet_holds where status = 'held' group by kind`.execute(db)
  ).rows;

/**
 * Jobs waiting in each queue — created or to be retried, and due — and the oldest one's wait in
 * seconds since it became due (pg-boss's partial index of unfinished jobs: completed ones, kept for
 * hours, are not read).
 */
export const queuedJobs = async (db: Executor) =>
  (
    await sql<{ name: string; waiting: number; oldest_seconds: number | null }>`
      select name, count(*)::int as waiting, extract(epoch from now() - min(start_after))::float8 as oldest_seconds
      from pgboss.job where state < 'active' and start_after <= now() group by name`.execute(db)
  ).rows;
