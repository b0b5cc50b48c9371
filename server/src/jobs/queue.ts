import PgBoss from 'pg-boss';
import { CompiledQuery } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/database.ts';

/** A kind of background work: its queue name, handler and optional cron schedule. */
export interface JobDefinition<T extends object = object> {
  name: string;
  handler: (data: T) => Promise<void>;
  /** Cron expression (UTC) to enqueue the job periodically. */
  cron?: string;
  retryLimit?: number;
}

export const defineJob = <T extends object>(job: JobDefinition<T>): JobDefinition<T> => job;

/**
 * The Postgres-backed queue (pg-boss in the app's own database). `send` can enqueue inside a
 * kysely transaction, so a job exists exactly when the data that caused it was committed.
 */
export class Jobs {
  private readonly boss: PgBoss;
  private readonly definitions = new Map<string, JobDefinition<never>>();

  constructor(connectionString: string, private readonly log: FastifyBaseLogger) {
    this.boss = new PgBoss({ connectionString, max: 4, schema: 'pgboss', application_name: 'jobs' });
    this.boss.on('error', (err) => this.log.error({ err }, 'job queue error'));
  }

  register(jobs: readonly JobDefinition<never>[]): void {
    for (const job of jobs) this.definitions.set(job.name, job);
  }

  /** Starts the queue; with `work`, also the workers and schedules. */
  async start(opts: { work: boolean; pollingIntervalSeconds?: number }): Promise<void> {
    await this.boss.start();
    for (const job of this.definitions.values()) {
      await this.boss.createQueue(job.name, { name: job.name, retryLimit: job.retryLimit ?? 5, retryBackoff: true, retryDelay: 5 });
    }
    if (!opts.work) return;
    for (const job of this.definitions.values()) {
      await this.boss.work<object>(job.name, { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2, batchSize: 1 }, async (batch) => {
        for (const item of batch) {
          try {
            await job.handler(item.data as never);
          } catch (err) {
            this.log.error({ err, job: job.name, id: item.id }, 'job failed');
            throw err;
          }
        }
      });
      if (job.cron) await this.boss.schedule(job.name, job.cron, {}, { tz: 'UTC', singletonKey: job.name });
    }
  }

  /** Enqueues a job, inside `tx` when given. */
  async send(name: string, data: object, tx?: Executor, options: { singletonKey?: string; startAfter?: Date } = {}): Promise<void> {
    const db = tx ? { executeSql: async (text: string, values: unknown[]) => tx.executeQuery(CompiledQuery.raw(text, values)) } : undefined;
    await this.boss.send(name, data, { ...options, ...(db ? { db } : {}) });
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: 10_000, close: true });
  }
}
