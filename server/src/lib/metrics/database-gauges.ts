import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';
import { poolOf, type Db } from '../../db/database.ts';
import { openHolds, queuedJobs } from './metrics.queries.ts';

/** What the gauges read: the database, the job queues to report (each, even when empty) and where a failed read is logged. */
export interface DatabaseGaugeSources {
  db: Db;
  queues: readonly string[];
  log: Pick<Logger, 'warn'>;
  /** The clock that decides when the database is asked again (tests move it). */
  now?: () => number;
}

/** The database is asked at most this often, however often Prometheus (or several) scrape. */
export const DATABASE_READ_EVERY_MS = 15_000;
const WALLETS = ['words', 'media'] as const;

interface Reading {
  at: number;
  holds: Awaited<ReturnType<typeof openHolds>>;
  queues: Awaited<ReturnType<typeof queuedJobs>>;
}

/**
 * Gauges read on scrape, never per request: open holds and their age by wallet, each job queue's
 * waiting jobs and the oldest one's wait — two statements at most every
 * {@link DATABASE_READ_EVERY_MS}, shared by concurrent scrapes, the last reading kept when the
 * database does not answer (`neurostudio_database_gauges_age_seconds` then grows) — and the
 * connection pool, from memory.
 */
export function databaseGauges(registry: Registry, sources: DatabaseGaugeSources): void {
  const now = sources.now ?? Date.now;
  let last: Reading | null = null;
  let reading: Promise<Reading | null> | null = null;
  const read = async (): Promise<Reading | null> => {
    if (last && now() - last.at < DATABASE_READ_EVERY_MS) return last;
    reading ??= Promise.all([openHolds(sources.db), queuedJobs(sources.db)])
      .then(([holds, queues]) => (last = { at: now(), holds, queues }))
      .catch((err: unknown) => {
        sources.log.warn({ err }, 'metrics: could not read the gauges of the database');
        return last;
      })
      .finally(() => {
        reading = null;
      });
    return reading;
  };
  const gauge = (name: string, help: string, labelNames: string[], set: (g: Gauge, r: Reading) => void) => {
    const g: Gauge = new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      collect: async () => {
        const r = await read();
        if (r) set(g, r);
      },
    });
  };
  gauge('neurostudio_holds_open', 'Holds of tokens open now (work under way), by wallet.', ['wallet'], (g, r) => {
    for (const wallet of WALLETS) g.set({ wallet }, r.holds.find((h) => h.kind === wallet)?.open ?? 0);
  });
  gauge('neurostudio_holds_oldest_age_seconds', 'Age of the oldest open hold, by wallet (0 when none is open).', ['wallet'], (g, r) => {
    for (const wallet of WALLETS) g.set({ wallet }, r.holds.find((h) => h.kind === wallet)?.oldest_seconds ?? 0);
  });
  const queueGauge = (name: string, help: string, value: (row: Reading['queues'][number] | undefined) => number) =>
    gauge(name, help, ['queue'], (g, r) => {
      for (const queue of sources.queues) g.set({ queue }, value(r.queues.find((q) => q.name === queue)));
    });
  queueGauge('neurostudio_job_queue_waiting', 'Jobs due and waiting for a worker, by queue.', (q) => q?.waiting ?? 0);
  queueGauge('neurostudio_job_queue_oldest_age_seconds', 'Seconds the oldest due job of a queue has waited (0 when none waits).', (q) => q?.oldest_seconds ?? 0);
  gauge('neurostudio_database_gauges_age_seconds', 'Age of the figures read from the database (read at most every 15 s; grows while the database does not answer).', [], (g, r) => {
    g.set((now() - r.at) / 1000);
  });

  const pool = () => poolOf(sources.db)?.stats();
  const poolGauge = (name: string, help: string, value: (s: NonNullable<ReturnType<typeof pool>>) => number) => {
    const g: Gauge = new Gauge({
      name,
      help,
      registers: [registry],
      collect: () => {
        const stats = pool();
        if (stats) g.set(value(stats));
      },
    });
  };
  poolGauge('neurostudio_db_pool_in_use', "Connections of this process's pool checked out now.", (s) => s.total - s.idle);
  poolGauge('neurostudio_db_pool_idle', "Idle connections of this process's pool.", (s) => s.idle);
  poolGauge('neurostudio_db_pool_waiting', 'Requests of this process waiting for a connection.', (s) => s.waiting);
  poolGauge('neurostudio_db_pool_max', "The size of this process's pool (DATABASE_POOL_SIZE).", (s) => s.max);
}
