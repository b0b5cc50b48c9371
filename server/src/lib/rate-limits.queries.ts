import { sql } from 'kysely';
import { rateLimitedText } from '@app/contracts';
import type { Executor } from '../db/database.ts';
import { AppError } from './app-error.ts';

export interface Limit {
  /** Allowed hits per window. */
  max: number;
  windowSeconds: number;
}

/** One counted hit: the window it was counted in, to give it back. */
export interface RateLimitHit {
  key: string;
  windowStart: Date;
}

/**
 * Counts one hit of `key` in the current fixed window, in Postgres so that every web
 * process shares the count; throws RATE_LIMITED once the window's allowance is spent, saying
 * how long to wait (the message and `Retry-After`: until the window ends).
 */
export async function hitRateLimit(db: Executor, key: string, limit: Limit): Promise<RateLimitHit> {
  const windowMs = limit.windowSeconds * 1000;
  const now = Date.now();
  const windowStart = new Date(Math.floor(now / windowMs) * windowMs);
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: windowStart, hits: 1 })
    .onConflict((oc) => oc.columns(['key', 'window_start']).doUpdateSet({ hits: sql`rate_limits.hits + 1` }))
    .returning('hits')
    .executeTakeFirstOrThrow();
  if (row.hits > limit.max) {
    const retryAfterSeconds = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now) / 1000));
    throw new AppError('RATE_LIMITED', rateLimitedText(retryAfterSeconds), { retryAfterSeconds });
  }
  return { key, windowStart };
}

/**
 * Gives a counted hit back: the attempt turned out not to count (a successful sign-in). Counting
 * first and giving back after keeps concurrent attempts from all passing an uncounted check.
 */
export async function returnRateLimitHit(db: Executor, hit: RateLimitHit): Promise<void> {
  await db.updateTable('rate_limits').set({ hits: sql`hits - 1` }).where('key', '=', hit.key).where('window_start', '=', hit.windowStart).where('hits', '>', 0).execute();
}

/** Forgets every window of `key` (a successful sign-in ends the count of its email's failures). */
export async function clearRateLimit(db: Executor, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}

/** Drops windows older than a day. */
export async function pruneRateLimits(db: Executor): Promise<number> {
  const res = await db.deleteFrom('rate_limits').where('window_start', '<', sql<Date>`now() - interval '1 day'`).executeTakeFirst();
  return Number(res.numDeletedRows);
}
