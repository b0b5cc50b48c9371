import { sql } from 'kysely';
import type { Executor } from '../db/database.ts';
import { AppError } from './app-error.ts';

export interface Limit {
  /** Allowed hits per window. */
  max: number;
  windowSeconds: number;
}

/**
 * Counts one hit of `key` in the current fixed window, in Postgres so that every web
 * process shares the count; throws RATE_LIMITED once the window's allowance is spent.
 */
export async function hitRateLimit(db: Executor, key: string, limit: Limit): Promise<void> {
  const windowMs = limit.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(Date.now() / windowMs) * windowMs);
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: windowStart, hits: 1 })
    .onConflict((oc) => oc.columns(['key', 'window_start']).doUpdateSet({ hits: sql`rate_limits.hits + 1` }))
    .returning('hits')
    .executeTakeFirstOrThrow();
  if (row.hits > limit.max) throw new AppError('RATE_LIMITED');
}

/** Drops windows older than a day. */
export async function pruneRateLimits(db: Executor): Promise<number> {
  const res = await db.deleteFrom('rate_limits').where('window_start', '<', sql<Date>`now() - interval '1 day'`).executeTakeFirst();
  return Number(res.numDeletedRows);
}
