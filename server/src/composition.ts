import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import type { Db } from './db/database.ts';
import type { Secrets } from './lib/secrets.ts';
import { Jobs } from './jobs/queue.ts';
import { ALL_JOBS } from './jobs/registry.ts';
import { createMailer } from './mail/mailer.ts';
import { HttpCloudPaymentsApi } from './features/payments/cloudpayments.ts';
import { SandboxCloudPaymentsApi } from './features/payments/sandbox/sandbox.engine.ts';
import { HttpTelegramClient, SandboxTelegramClient } from './features/welcome/telegram.client.ts';
import { createStorage } from './storage/create-storage.ts';
import { PgListener } from './lib/pg-listener.ts';
import { ViewerCache } from './features/accounts/viewer-cache.ts';
import { ProviderRegistry } from './providers/registry.ts';
import { ChatRuns } from './features/chat/chat-runs.ts';
import { ModelCache } from './features/ai/model-cache.ts';
import { PlanCache } from './features/billing/plan-cache.ts';
import { SettingsStore, defaultSettings } from './features/settings/settings.store.ts';
import { GenerationEvents } from './features/generations/generation-events.ts';
import { generationOf } from './features/generations/generations.service.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { Metrics } from './lib/metrics/metrics.ts';

/*
 * The composition root: which classes and jobs make up an application context. `main`, the
 * worker, the command-line tools, the tests and the bench build their context here; everything
 * else sees only the type (`context.ts`).
 */

export interface ContextDeps {
  config: Config;
  db: Db;
  /** The connection string of `db`, for the job queue's own connections. */
  databaseUrl: string;
  secrets: Secrets;
  log: Logger;
  /** `Date.now` unless a test sets the time. */
  clock?: Clock;
}

/** Builds the context (the queue is not started: see `startContext`). */
export function createContext(deps: ContextDeps): AppContext {
  const { config } = deps;
  const cp = config.cloudpayments;
  const listener = new PgListener(deps.databaseUrl, deps.log);
  const metrics = new Metrics({ db: deps.db, queues: ALL_JOBS.map((job) => job.name), log: deps.log });
  const ctx: { -readonly [K in keyof AppContext]: AppContext[K] } = {
    config,
    db: deps.db,
    log: deps.log,
    secrets: deps.secrets,
    jobs: new Jobs(deps.databaseUrl, deps.log, ALL_JOBS, listener),
    mailer: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, env: config.env, log: deps.log }),
    cloudpayments: cp.sandbox ? new SandboxCloudPaymentsApi(() => ctx) : new HttpCloudPaymentsApi(cp.apiUrl, cp.publicId, cp.apiSecret),
    telegram: config.telegram.botToken ? new HttpTelegramClient(config.telegram.apiUrl, config.telegram.botToken) : new SandboxTelegramClient(deps.db),
    storage: createStorage(config.storage),
    listener,
    providers: new ProviderRegistry(config, undefined, (...call) => metrics.providerCall(...call)),
    models: new ModelCache(),
    plans: new PlanCache(),
    viewers: new ViewerCache({ ttlMs: config.sessionCacheSeconds * 1000, maxEntries: 50_000 }),
    chatRuns: new ChatRuns(() => ctx),
    generationEvents: new GenerationEvents(deps.db, (userId, id) => generationOf(ctx, userId, id)),
    settings: new SettingsStore(defaultSettings(config), deps.log),
    clock: deps.clock ?? systemClock,
    metrics,
  };
  return ctx;
}

/** Starts the job queue; with `work` (RUN_WORKERS, or the worker process) also its workers and schedules; with METRICS_PORT, the process's `/metrics`. */
export async function startContext(ctx: AppContext, opts: { work: boolean; pollSeconds?: number }): Promise<void> {
  ctx.chatRuns.listen();
  ctx.models.listen(ctx.listener);
  ctx.plans.listen(ctx.listener);
  ctx.viewers.listen(ctx.listener);
  ctx.generationEvents.listen(ctx.listener);
  ctx.settings.listen(ctx.listener, ctx.db);
  await ctx.settings.load(ctx.db);
  await ctx.jobs.start(ctx, opts);
  await ctx.listener.start();
  if (ctx.config.metricsPort !== undefined) await ctx.metrics.listen(ctx.config.host, ctx.config.metricsPort, ctx.log);
}

/** Stops chat answers (each kept as far as it went) and the queue (waiting for running jobs), closes the mailer, the storage client and the providers' connections; the database is the caller's. */
export async function stopContext(ctx: AppContext): Promise<void> {
  await ctx.chatRuns.stopAll();
  await ctx.jobs.stop();
  await ctx.listener.stop();
  ctx.mailer.close();
  ctx.storage.close();
  await ctx.providers.close();
  await ctx.metrics.close();
}
