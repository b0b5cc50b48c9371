import { createRequire } from 'node:module';
import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';

/** The plugin's own Redis store (its Lua script, its per-route children): a file of the pinned version, not among its exports. */
const RedisStore = createRequire(import.meta.url)('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key: string,
) => FastifyRateLimitStore;

/** Longest a count may take in Redis before the request goes through uncounted (Redis answers in well under a millisecond). */
const COMMAND_TIMEOUT_MS = 500;
/** Longest the start waits for Redis; then the app starts anyway and counts once it connects. */
const START_WAIT_MS = 2000;
/** A Redis outage is logged once a minute at most, with how many requests went through uncounted meanwhile. */
const WARN_EVERY_MS = 60_000;

/** Where the rate limit's counters live and how they are let go at shutdown. */
export interface RateLimitCounts {
  /** The plugin's options for them (none: its in-memory store, this process's counts). */
  options: { store?: FastifyRateLimitStoreCtor; skipOnError?: boolean };
  close(): Promise<void>;
}

/** A store that passes each count to `inner` and tells `warn` of a failure before handing it on. */
function warningStore(redis: Redis, prefix: string, warn: (err: Error) => void): FastifyRateLimitStoreCtor {
  return class RedisCounts implements FastifyRateLimitStore {
    private readonly inner: FastifyRateLimitStore;

    constructor(options: FastifyRateLimitOptions, inner?: FastifyRateLimitStore) {
      const { continueExceeding, exponentialBackoff } = options as { continueExceeding?: boolean; exponentialBackoff?: boolean };
      this.inner = inner ?? new RedisStore(continueExceeding ?? false, exponentialBackoff ?? false, redis, prefix);
    }

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number, max: number): void {
      this.inner.incr(
        key,
        (error, result) => {
          if (error) warn(error);
          callback(error, result);
        },
        timeWindow,
        max,
      );
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      return new RedisCounts({}, this.inner.child(routeOptions));
    }
  };
}

/**
 * The rate limit's counters: with `REDIS_URL` in Redis under `REDIS_KEY_PREFIX` + `rate-limit:`,
 * shared by every process of the service; otherwise in this process's memory. Redis must not take
 * the site down: while it is unreachable or does not answer within 500 ms a request goes through
 * uncounted (the plugin's `skipOnError`), with a warning in the log once a minute.
 */
export async function rateLimitCounts(config: Config, log: Logger): Promise<RateLimitCounts> {
  const { url, keyPrefix } = config.redis;
  if (!url) return { options: {}, close: async () => undefined };
  let warnedAt = 0;
  let uncounted = 0;
  const warn = (err: Error) => {
    uncounted += 1;
    if (Date.now() - warnedAt < WARN_EVERY_MS) return;
    log.warn({ err, uncounted }, 'rate limit: Redis is unavailable, requests go through uncounted');
    warnedAt = Date.now();
    uncounted = 0;
  };
  const redis = new Redis(url, {
    connectionName: `${keyPrefix}rate-limit`,
    // Unconnected, a count fails at once (and the request goes through) instead of waiting in a queue.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: START_WAIT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  redis.on('error', (err: Error) => warn(err));
  redis.on('ready', () => {
    if (warnedAt) log.info('rate limit: Redis is back');
    warnedAt = 0;
  });
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      redis.off('error', done);
      resolve();
    };
    const timer = setTimeout(done, START_WAIT_MS);
    redis.once('ready', done);
    redis.once('error', done);
  });
  return {
    options: { store: warningStore(redis, `${keyPrefix}rate-limit:`, warn), skipOnError: true },
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
