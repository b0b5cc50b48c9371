import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { routes as contractRoutes, type RouteContract } from '@app/contracts';
import { hostPages, renderErrorPage } from '@app/host-pages';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import { Jobs, type JobDefinition } from './jobs/queue.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { mailJob } from './mail/mail.job.ts';
import type { Secrets } from './lib/secrets.ts';
import { installErrorHandler } from './lib/error-handler.ts';
import { enableMethodSpoofing } from './lib/routes.ts';
import { pruneRateLimits } from './lib/rate-limit.ts';
import { defineJob } from './jobs/queue.ts';
import authPlugin from './features/accounts/auth.plugin.ts';
import accountsRoutes from './features/accounts/accounts.routes.ts';
import { pageContext } from './features/pages/page-context.ts';
import healthRoutes from './features/health/health.routes.ts';
import billingRoutes from './features/billing/billing.routes.ts';
import { expireSubscriptionsJob } from './features/billing/billing.jobs.ts';
import dashboardRoutes from './features/dashboard/dashboard.routes.ts';
import notificationRoutes from './features/payments/notifications.routes.ts';
import { HttpCloudPaymentsApi, type CloudPaymentsApi } from './features/payments/cloudpayments.ts';
import { cancelCpSubscriptionJob } from './features/payments/payments.jobs.ts';
import sandboxRoutes from './features/payments/sandbox/sandbox.routes.ts';
import { SandboxCloudPaymentsApi, runSandboxRenewals } from './features/payments/sandbox/sandbox.engine.ts';
import welcomeRoutes from './features/welcome/welcome.routes.ts';
import { telegramPollJob } from './features/welcome/welcome.jobs.ts';
import { HttpTelegramClient, SandboxTelegramClient, type TelegramClient } from './features/welcome/telegram.client.ts';
import filesRoutes from './features/files/files.routes.ts';
import { createStorage } from './storage/create-storage.ts';
import type { Storage } from './storage/storage.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    mailer: Mailer;
    jobs: Jobs;
    /** CloudPayments' API, or the sandbox's stand-in when no keys are configured. */
    cloudpayments: CloudPaymentsApi;
    /** Telegram's Bot API, or the sandbox's stand-in when no bot token is configured. */
    telegram: TelegramClient;
    /** Where files live (local disk or S3); until services take an application context, routes reach it here. */
    storage: Storage;
  }
}

export interface AppDeps {
  config: Config;
  db: Db;
  /** The connection string of `db`, for the job queue's own pool. */
  databaseUrl: string;
  secrets: Secrets;
  /** Seconds between job polls; tests lower it. */
  jobPollSeconds?: number;
  /** The process logger (main); tests leave it unset. */
  loggerInstance?: FastifyBaseLogger;
}

/** Content-Security-Policy: only what the pages load. */
function cspDirectives(config: Config): Record<string, string[]> {
  const paymentOrigins = config.cloudpayments.sandbox ? [] : ['https://widget.cloudpayments.ru', 'https://*.cloudpayments.ru'];
  // Development only (WIDGET_DEV_SERVERS, refused in production): widget modules from their
  // `vite dev` servers, and those servers' hot-reload socket.
  const devOrigins = Object.values(config.widgetDevServers);
  const devSockets = devOrigins.map((origin) => origin.replace(/^http/, 'ws'));
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...paymentOrigins, ...devOrigins],
    // CloudPayments' widget script styles its overlay with inline styles and loads its own fonts
    // and images; scripts stay limited to the listed origins.
    styleSrc: ["'self'", ...(paymentOrigins.length ? ["'unsafe-inline'", ...paymentOrigins] : [])],
    imgSrc: ["'self'", 'data:', 'blob:', ...paymentOrigins],
    fontSrc: ["'self'", ...paymentOrigins],
    connectSrc: ["'self'", ...paymentOrigins, ...devOrigins, ...devSockets],
    frameSrc: ["'self'", ...paymentOrigins],
    frameAncestors: ["'self'"],
    formAction: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
  };
}

const externalPlugins = fp(
  async (app: FastifyInstance, deps: AppDeps) => {
    await app.register(cookie);
    await app.register(formbody, { bodyLimit: 64 * 1024 });
    await app.register(helmet, {
      contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(deps.config) },
      crossOriginEmbedderPolicy: false,
      hsts: deps.config.publicUrl.startsWith('https://'),
    });
    await app.register(rateLimit, {
      global: true,
      max: deps.config.rateLimitPerMinute,
      timeWindow: '1 minute',
      allowList: (req) => req.url === '/healthz' || req.url === '/readyz',
      errorResponseBuilder: () => ({ statusCode: 429, status: 'error', text: 'Слишком много запросов. Попробуйте позже', code: 'RATE_LIMITED' }),
    });
    await app.register(swagger, {
      openapi: {
        info: { title: 'Нейростудия API', version: '1.0.0', description: 'Every call replies `{status: "success", json}` or `{status: "error", text}`.' },
        components: {
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer' },
            session: { type: 'apiKey', in: 'cookie', name: 'session' },
          },
        },
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  },
  { name: 'external' },
);

const appPlugins = fp(
  async (app: FastifyInstance, deps: AppDeps) => {
    app.decorate('config', deps.config);
    app.decorate('db', deps.db);
    app.decorate('secrets', deps.secrets);
    app.decorate('storage', createStorage(deps.config.storage));
    app.addHook('onClose', async () => app.storage.close());
    app.decorate('mailer', createMailer({ smtpUrl: deps.config.smtpUrl, from: deps.config.mailFrom, dataDir: deps.config.dataDir, log: app.log }));
    const jobs = new Jobs(deps.databaseUrl, app.log);
    app.decorate('jobs', jobs);
    const { cloudpayments: cp, telegram } = deps.config;
    app.decorate<CloudPaymentsApi>('cloudpayments', cp.sandbox ? new SandboxCloudPaymentsApi(app) : new HttpCloudPaymentsApi(cp.apiUrl, cp.publicId, cp.apiSecret));
    app.decorate<TelegramClient>('telegram', telegram.botToken ? new HttpTelegramClient(telegram.apiUrl, telegram.botToken) : new SandboxTelegramClient(app));
    const definitions: JobDefinition<never>[] = [
      mailJob(app),
      defineJob({ name: 'maintenance.rate-limits', cron: '17 * * * *', handler: async () => { await pruneRateLimits(app.db); } }),
      expireSubscriptionsJob(app),
      cancelCpSubscriptionJob(app),
    ];
    // The sandbox charges due renewals itself, as CloudPayments would.
    if (cp.sandbox) definitions.push(defineJob({ name: 'sandbox.renewals', cron: '* * * * *', retryLimit: 0, handler: async () => {
        await runSandboxRenewals(app);
      } }));
    if (telegram.botToken && !telegram.webhookSecret) definitions.push(telegramPollJob(app));
    jobs.register(definitions);
    app.addHook('onReady', () => jobs.start({ work: deps.config.runWorkers, pollingIntervalSeconds: deps.jobPollSeconds }));
    app.addHook('onClose', async () => {
      await jobs.stop();
      app.mailer.close();
    });
    await app.register(authPlugin);
  },
  { name: 'db' },
);

/** Every contract route, for spoofing and the route inventory test. */
export const ALL_CONTRACTS: RouteContract[] = Object.values(contractRoutes).flatMap((group) => Object.values(group) as RouteContract[]);

/** Builds the whole HTTP app; `main` and the tests both call it. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    ...(deps.loggerInstance ? { loggerInstance: deps.loggerInstance } : { logger: { level: deps.config.logLevel } }),
    trustProxy: deps.config.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(externalPlugins, deps);
  await app.register(appPlugins, deps);
  installErrorHandler(app, (req, reply, status) => renderErrorPage(reply, status));

  await app.register(healthRoutes);
  await app.register(hostPages, {
    widgetsDir: deps.config.widgetsDir,
    loaderDir: deps.config.loaderDir,
    devServers: deps.config.widgetDevServers,
    context: (req) => pageContext(app, req),
  });
  await app.register(accountsRoutes);
  await app.register(billingRoutes);
  await app.register(notificationRoutes);
  await app.register(sandboxRoutes);
  await app.register(dashboardRoutes);
  await app.register(welcomeRoutes);
  await app.register(filesRoutes);
  enableMethodSpoofing(app, ALL_CONTRACTS);
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.url.startsWith('/api') && !reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
    return payload;
  });
  return app;
}
