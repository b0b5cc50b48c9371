import { sql } from 'kysely';
import PgBoss from 'pg-boss';
import { CompiledQuery } from 'kysely';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { AppContext, JobQueue, SendOptions, SendableJob } from '../context.ts';
import { connectionLimits, type ConnectionLimits, type DbOptions, type Executor } from '../db/database.ts';
import type { AnyJob } from './job.ts';
import { exhaustedJobs, recordJobFailure } from './jobs.queries.ts';
import type { PgListener } from '../lib/pg-listener.ts';

/**
 * The longest one statement of the queue's own may run (the client gives up 5 s later). Longer than
 * the app's 30 s: pg-boss migrates its schema at start (after an upgrade of pg-boss, an index or a
 * column on a table of every job) and archives a backlog in one statement, either of which may
 * outlast a request's limit; a poll or a send never comes near it.
 */
export const QUEUE_STATEMENT_TIMEOUT_MS = 10 * 60_000;

/** The channel a committed `send` wakes the workers on (NOTIFY is delivered at commit). */
const WAKE_CHANNEL = 'ns_jobs';

/**
 * The Postgres-backed queue (pg-boss in the app's own database) over typed job definitions.
 * Workers poll, and are also woken by a NOTIFY that `send` issues in the sender's transaction,
 * so a job starts right after its cause commits, in this process or another one.
 */
export class Jobs implements JobQueue {
  private readonly boss: PgBoss;
  private readonly definitions = new Map<string, AnyJob>();
  private readonly workerIds = new Map<string, string[]>();
  /** Aborted when the queue stops: running jobs learn it through their signal and wind down. */
  private readonly stopped = new AbortController();
  private ctx: AppContext | null = null;

  constructor(
    private readonly connectionString: string,
    private readonly log: Logger,
    definitions: readonly AnyJob[],
    private readonly listener: PgListener,
    limits: Pick<DbOptions, 'statementTimeoutMs'> = {},
  ) {
    // Maintenance (jobs past their expiry failed and retried) every 30 s rather than pg-boss's 2
    // minutes: a job whose worker was killed is run again soon after its expiry. pg-boss hands its
    // options to pg's pool: its statements get a limit of their own (`QUEUE_STATEMENT_TIMEOUT_MS`)
    // and TCP keepalive, so that a frozen database or a silent network fails them (retried at the
    // next poll) instead of hanging them for ever. No limit on the wait for a connection, though:
    // pg-boss marks a finished job completed without awaiting the call, and a call that gave up
    // waiting while its four connections were busy would leave the job to run again after its expiry.
    const options: PgBoss.ConstructorOptions & ConnectionLimits = {
      connectionString,
      max: 4,
      schema: 'pgboss',
      application_name: 'jobs',
      maintenanceIntervalSeconds: 30,
      ...connectionLimits({ statementTimeoutMs: QUEUE_STATEMENT_TIMEOUT_MS, ...limits, connectTimeoutMs: 0 }),
    };
    this.boss = new PgBoss(options);
    this.boss.on('error', (err) => this.log.error({ err }, 'job queue error'));
    for (const job of definitions) this.definitions.set(job.name, job);
  }

  /**
   * Starts the queue (creating the queues of every job); with `work`, also runs the workers and
   * schedules of the jobs `ctx` enables.
   */
  async start(ctx: AppContext, opts: { work: boolean; pollSeconds?: number }): Promise<void> {
    this.ctx = ctx;
    await this.boss.start();
    // Processes starting at once would create the same queues at once, which deadlocks in
    // pg-boss: one process at a time, under a session advisory lock held on one connection.
    await ctx.db.connection().execute(async (conn) => {
      await sql`select pg_advisory_lock(hashtext('ns:jobs:create-queues'))`.execute(conn);
      try {
        for (const job of this.definitions.values()) {
          const { retries, retryDelaySeconds, backoff, expireInSeconds, policy } = job.options;
          const queue = { name: job.name, policy, retryLimit: retries, retryDelay: retryDelaySeconds, retryBackoff: backoff, expireInSeconds };
          await this.boss.createQueue(job.name, queue);
          // createQueue keeps an existing queue as it was: options changed in code must reach it too.
          await this.boss.updateQueue(job.name, queue);
        }
      } finally {
        await sql`select pg_advisory_unlock(hashtext('ns:jobs:create-queues'))`.execute(conn);
      }
    });
    if (!opts.work) return;
    // After a job, its workers fetch again at once (woken) instead of sleeping the polling
    // interval: a backlog drains at the workers' pace, not one job per interval.
    for (const job of this.definitions.values()) {
      if (job.enabled && !job.enabled(ctx)) continue;
      const ids: string[] = [];
      for (let i = 0; i < job.options.concurrency; i++) {
        ids.push(await this.boss.work<object>(job.name, { pollingIntervalSeconds: opts.pollSeconds ?? 2, batchSize: 1, includeMetadata: true }, ([item]) => (item ? this.run(job, item).finally(() => this.wake(job.name)) : Promise.resolve())));
      }
      this.workerIds.set(job.name, ids);
      if (job.cron) await this.boss.schedule(job.name, job.cron, {}, { tz: 'UTC', singletonKey: job.name });
    }
    // Schedules of jobs that no longer exist (renamed or removed) would fill queues nobody works.
    for (const schedule of await this.boss.getSchedules()) {
      if (!this.definitions.get(schedule.name)?.cron) await this.boss.unschedule(schedule.name);
    }
    // Sends committed in any process wake this one's workers; after a lost connection, all of them.
    this.listener.subscribe(WAKE_CHANNEL, { onMessage: (name) => this.wake(name), onReconnect: () => this.wake() });
    this.wake();
  }

  private async run(job: AnyJob, item: PgBoss.JobWithMetadata): Promise<void> {
    const ctx = this.ctx;
    if (!ctx) throw new Error('the queue is not started');
    const signal = AbortSignal.any([AbortSignal.timeout(job.options.expireInSeconds * 1000), this.stopped.signal]);
    const started = performance.now();
    let outcome: 'completed' | 'retry' | 'failed' = 'completed';
    try {
      await job.run(ctx, job.payload.parse(item.data), { id: item.id, attempt: item.retryCount + 1, signal });
    } catch (err) {
      const final = item.retryCount >= item.retryLimit;
      outcome = final ? 'failed' : 'retry';
      this.log.error({ err, job: job.name, id: item.id, attempt: item.retryCount + 1, final }, 'job failed');
      if (final) {
        await recordJobFailure(ctx.db, { jobId: item.id, queue: job.name, payload: this.redact(job.name, item.data), error: err, attempts: item.retryCount + 1 }).catch((recordErr: unknown) =>
          this.log.error({ err: recordErr, job: job.name, id: item.id }, 'could not record a failed job'),
        );
      }
      throw err;
    } finally {
      ctx.metrics.jobEnded(job.name, outcome, (performance.now() - started) / 1000);
    }
  }

  /** What of a payload of `queue` may be kept after it failed for good. */
  private redact(queue: string, payload: unknown): unknown {
    const job = this.definitions.get(queue);
    return job?.redact ? job.redact(payload) : payload;
  }

  /**
   * Records the jobs pg-boss failed for good without a handler seeing the last failure (a run that
   * outlived its time, a worker that died), redacted like the others; answers how many.
   */
  async recordExhausted(db: Executor): Promise<number> {
    const rows = await exhaustedJobs(db);
    for (const row of rows) {
      await recordJobFailure(db, { jobId: row.id, queue: row.name, payload: this.redact(row.name, row.data), error: row.output ?? 'failed', attempts: row.attempts });
    }
    return rows.length;
  }

  /** Enqueues `payload` for `job` (checked against its schema), inside `opts.tx` when given; answers the job id (null when a singleton key kept it out). */
  async send<S extends z.ZodType>(job: SendableJob<S>, payload: z.input<S>, opts: SendOptions = {}): Promise<string | null> {
    if (!this.definitions.has(job.name)) throw new Error(`job ${job.name} is not registered`);
    const data: z.output<S> = job.payload.parse(payload);
    const options: PgBoss.SendOptions = { ...(opts.startAfter ? { startAfter: opts.startAfter } : {}), ...(job.singletonKey ? { singletonKey: job.singletonKey(data) } : {}) };
    const tx = opts.tx;
    if (tx) {
      const db = { executeSql: async (text: string, values: unknown[]) => tx.executeQuery(CompiledQuery.raw(text, values)) };
      const id = await this.boss.send(job.name, data as object, { ...options, db });
      await tx.executeQuery(CompiledQuery.raw('select pg_notify($1, $2)', [WAKE_CHANNEL, job.name]));
      return id;
    }
    const id = await this.boss.send(job.name, data as object, options);
    await this.boss.getDb().executeSql('select pg_notify($1, $2)', [WAKE_CHANNEL, job.name]);
    return id;
  }

  /** Wakes the workers of `name` in this process (all queues when omitted). */
  private wake(name?: string): void {
    const ids = name ? (this.workerIds.get(name) ?? []) : [...this.workerIds.values()].flat();
    for (const id of ids) this.boss.notifyWorker(id);
  }

  async stop(): Promise<void> {
    this.stopped.abort(new Error('the job queue is stopping'));
    await this.boss.stop({ graceful: true, timeout: 10_000, close: true });
  }
}
