import { sql } from 'kysely';
import { rateLimitedText } from '@app/contracts';
import type { Executor } from '../db/database.ts';
import { AppError } from './app-error.ts';

export interface Limit {
  /** Allowed hits per window. */
  max: number;
  windowSeconds: number;
}

/** One counted hit: the window it was counted in, to give it back, and the window's count with it. */
export interface RateLimitHit {
  key: string;
  windowStart: Date;
  hits: number;
}

const windowOf = (windowSeconds: number, now: number) => new Date(Math.floor(now / (windowSeconds * 1000)) * windowSeconds * 1000);

/** Counts one hit of `key` in the window of `now`, in Postgres so that every web process shares the count. */
export async function countHit(db: Executor, key: string, windowSeconds: number, now: number): Promise<RateLimitHit> {
  const windowStart = windowOf(windowSeconds, now);
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: windowStart, hits: 1 })
    .onConflict((oc) => oc.columns(['key', 'window_start']).doUpdateSet({ hits: sql`rate_limits.hits + 1` }))
    .returning('hits')
    .executeTakeFirstOrThrow();
  return { key, windowStart, hits: row.hits };
}

/** The hits of `key` counted so far in the window of `now`. */
export async function hitsSoFar(db: Executor, key: string, windowSeconds: number, now: number): Promise<number> {
  const row = await db.selectFrom('rate_limits').select('hits').where('key', '=', key).where('window_start', '=', windowOf(windowSeconds, now)).executeTakeFirst();
  return row?.hits ?? 0;
}

/**
 * Counts one hit of `key` in the current fixed window ({@link countHit}); throws RATE_LIMITED once
 * the window's allowance is spent, saying how long to wait (`text` of the seconds, and
 * `Retry-After`: until the window ends). `now` comes from the caller's clock.
 */
export async function hitRateLimit(db: Executor, key: string, limit: Limit, now: number, text: (retryAfterSeconds: number) => string = rateLimitedText): Promise<RateLimitHit> {
  const hit = await countHit(db, key, limit.windowSeconds, now);
  if (hit.hits > limit.max) {
    const retryAfterSeconds = Math.max(1, Math.ceil((hit.windowStart.getTime() + limit.windowSeconds * 1000 - now) / 1000));
    throw new AppError('RATE_LIMITED', text(retryAfterSeconds), { retryAfterSeconds });
  }
  return hit;
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
