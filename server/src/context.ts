import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { Secrets } from './lib/secrets.ts';
import { Jobs } from './jobs/queue.ts';
import { ALL_JOBS } from './jobs/registry.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { HttpCloudPaymentsApi, type CloudPaymentsApi } from './features/payments/cloudpayments.ts';
import { SandboxCloudPaymentsApi } from './features/payments/sandbox/sandbox.engine.ts';
import { HttpTelegramClient, SandboxTelegramClient, type TelegramClient } from './features/welcome/telegram.client.ts';
import { createStorage } from './storage/create-storage.ts';
import type { Storage } from './storage/storage.ts';
import { PgListener } from './lib/pg-listener.ts';
import { ViewerCache } from './features/accounts/viewer-cache.ts';
import { ProviderRegistry } from './providers/registry.ts';
import { ChatRuns } from './features/chat/chat-runs.ts';
import { ModelCache } from './features/ai/model-cache.ts';
import { SettingsStore, defaultSettings } from './features/settings/settings.store.ts';
import { GenerationEvents } from './features/generations/generation-events.ts';

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
  readonly jobs: Jobs;
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
  /** Who sends each token seen, kept while notifications of changes arrive (`VIEWER_CHANNEL`). */
  readonly viewers: ViewerCache;
  /** Chat answers being written by this process. */
  readonly chatRuns: ChatRuns;
  /** The runs followed by this process's event streams, told of every change by NOTIFY. */
  readonly generationEvents: GenerationEvents;
  /** What admins set at run time (welcome gift, links, sandbox switches), with the environment as defaults. */
  readonly settings: SettingsStore;
}

export interface ContextDeps {
  config: Config;
  db: Db;
  /** The connection string of `db`, for the job queue's own connections. */
  databaseUrl: string;
  secrets: Secrets;
  log: Logger;
}

/** Builds the context (the queue is not started: see `startContext`). */
export function createContext(deps: ContextDeps): AppContext {
  const { config } = deps;
  const cp = config.cloudpayments;
  const listener = new PgListener(deps.databaseUrl, deps.log);
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
    providers: new ProviderRegistry(config),
    models: new ModelCache(),
    viewers: new ViewerCache({ ttlMs: config.sessionCacheSeconds * 1000, maxEntries: 50_000 }),
    chatRuns: new ChatRuns(() => ctx),
    generationEvents: new GenerationEvents(() => ctx),
    settings: new SettingsStore(defaultSettings(config), deps.log),
  };
  return ctx;
}

/** Starts the job queue; with `work` (RUN_WORKERS, or the worker process) also its workers and schedules. */
export async function startContext(ctx: AppContext, opts: { work: boolean; pollSeconds?: number }): Promise<void> {
  ctx.chatRuns.listen();
  ctx.models.listen(ctx.listener);
  ctx.viewers.listen(ctx.listener);
  ctx.generationEvents.listen(ctx.listener);
  ctx.settings.listen(ctx.listener, ctx.db);
  await ctx.settings.load(ctx.db);
  await ctx.jobs.start(ctx, opts);
  await ctx.listener.start();
}

/** Stops chat answers (each kept as far as it went) and the queue (waiting for running jobs), closes the mailer, the storage client and the providers' connections; the database is the caller's. */
export async function stopContext(ctx: AppContext): Promise<void> {
  await ctx.chatRuns.stopAll();
  await ctx.jobs.stop();
  await ctx.listener.stop();
  ctx.mailer.close();
  ctx.storage.close();
  await ctx.providers.close();
}
