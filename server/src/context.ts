import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Config } from './config.ts';
import type { Db, Executor } from './db/database.ts';
import type { Secrets } from './lib/secrets.ts';
import type { Mailer } from './mail/mailer.ts';
import type { CloudPaymentsApi } from './features/payments/cloudpayments.ts';
import type { TelegramClient } from './features/welcome/telegram.client.ts';
import type { Storage } from './storage/storage.ts';
import type { PgListener } from './lib/pg-listener.ts';
import type { ViewerCache } from './features/accounts/viewer-cache.ts';
import type { ProviderRegistry } from './providers/registry.ts';
import type { ChatRuns } from './features/chat/chat-runs.ts';
import type { ModelCache } from './features/ai/model-cache.ts';
import type { PlanCache } from './features/billing/plan-cache.ts';
import type { SettingsStore } from './features/settings/settings.store.ts';
import type { GenerationEvents } from './features/generations/generation-events.ts';
import type { Clock } from './lib/clock.ts';
import type { Metrics } from './lib/metrics/metrics.ts';

/*
 * Types only: what services, jobs and routes work with. The one place that builds a context
 * (which classes, which jobs) is `composition.ts`, beside `main.ts` and `worker.ts`.
 */

/**
 * What services and jobs work with: the database, the job queue, configuration, the log and
 * the adapters of outside services. The HTTP app and the worker process both build one; nothing
 * in it knows about Fastify.
 */
export interface AppContext {
  readonly config: Config;
  readonly db: Db;
  readonly log: Logger;
  readonly secrets: Secrets;
  readonly jobs: JobQueue;
  readonly mailer: Mailer;
  /** CloudPayments' API, or the sandbox's stand-in when no keys are configured. */
  readonly cloudpayments: CloudPaymentsApi;
  /** Telegram's Bot API, or the sandbox's stand-in when no bot token is configured. */
  readonly telegram: TelegramClient;
  /** Uploaded and generated files: local disk under DATA_DIR/files, or an S3-compatible service. */
  readonly storage: Storage;
  /** This process's LISTEN connection: NOTIFYs of other processes (job wake-ups, stop requests). */
  readonly listener: PgListener;
  /** Adapters of the AI provider connections (OpenAI-compatible, Replicate, the demo). */
  readonly providers: ProviderRegistry;
  /** Active AI models with their connections, cached briefly (see `catalogChanged`). */
  readonly models: ModelCache;
  /** The plans on sale as the plans page lists them, cached briefly (see `tariffsChanged`). */
  readonly plans: PlanCache;
  /** Who sends each token seen, kept while notifications of changes arrive (`VIEWER_CHANNEL`). */
  readonly viewers: ViewerCache;
  /** Chat answers being written by this process. */
  readonly chatRuns: ChatRuns;
  /** The runs followed by this process's event streams, told of every change by NOTIFY. */
  readonly generationEvents: GenerationEvents;
  /** What admins set at run time (welcome gift, links, sandbox switches), with the environment as defaults. */
  readonly settings: SettingsStore;
  /** What time it is for the sign-in forms' limits and checks (a test brings its own). */
  readonly clock: Clock;
  /** This process's figures for Prometheus, served on METRICS_PORT (`lib/metrics/`). */
  readonly metrics: Metrics;
}

/** What sending takes of a job (`defineJob`'s definitions are ones): its queue, its payload's schema and how it keys singletons. */
export interface SendableJob<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly payload: S;
  /** Jobs with the same key are kept apart as the queue's `policy` says. */
  singletonKey?(payload: z.output<S>): string;
}

export interface SendOptions {
  /** Enqueue inside this transaction: the job exists exactly when the data that caused it commits. */
  tx?: Executor;
  startAfter?: Date;
}

/** The job queue (`jobs/queue.ts`, pg-boss in the app's own database). */
export interface JobQueue {
  /** Enqueues `payload` for `job` (checked against its schema), inside `opts.tx` when given; answers the job id (null when a singleton key kept it out). */
  send<S extends z.ZodType>(job: SendableJob<S>, payload: z.input<S>, opts?: SendOptions): Promise<string | null>;
  /** Copies jobs that failed for good without their handler seeing it into `job_failures`; answers how many. */
  recordExhausted(db: Executor): Promise<number>;
  /** Starts the queue; with `work`, also the workers and schedules of the jobs `ctx` enables. */
  start(ctx: AppContext, opts: { work: boolean; pollSeconds?: number }): Promise<void>;
  /** Stops the queue, waiting for running jobs. */
  stop(): Promise<void>;
}
