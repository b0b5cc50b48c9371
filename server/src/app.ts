import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import { routes as contractRoutes, type RouteContract } from '@app/contracts';
import { hostPages, renderErrorPage } from '@app/host-pages';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { frameworkErrorReply, installErrorHandler } from './lib/error-handler.ts';
import { readableLogs } from './lib/logger.ts';
import { RequestLines } from './lib/request-log.ts';
import { enableMethodSpoofing } from './lib/routes.ts';
import { limitJsonDepth } from './lib/json-body.ts';
import { createSerializerCompiler } from './lib/serializer.ts';
import { securityHeaders } from './lib/security-headers.ts';
import { StreamSlots } from './lib/stream-slots.ts';
import { ImageBudget } from './lib/image-budget.ts';
import { rateLimitCounts } from './lib/rate-limit-store.ts';
import { installHttpMetrics } from './lib/metrics/http-metrics.ts';
import authPlugin from './features/accounts/auth.plugin.ts';
import accountsRoutes from './features/accounts/accounts.routes.ts';
import { pageContext, pageReads } from './features/pages/page-context.ts';
import healthRoutes from './features/health/health.routes.ts';
import billingRoutes from './features/billing/billing.routes.ts';
import walletRoutes from './features/wallet/wallet.routes.ts';
import dashboardRoutes from './features/dashboard/dashboard.routes.ts';
import notificationRoutes from './features/payments/notifications.routes.ts';
import sandboxRoutes from './features/payments/sandbox/sandbox.routes.ts';
import welcomeRoutes from './features/welcome/welcome.routes.ts';
import filesRoutes from './features/files/files.routes.ts';
import adminRoutes from './features/admin/admin.routes.ts';
import adminAiRoutes from './features/admin/admin-ai.routes.ts';
import adminBillingRoutes from './features/admin/admin-billing.routes.ts';
import chatRoutes from './features/chat/chat.routes.ts';
import catalogRoutes from './features/catalog/catalog.routes.ts';
import generationRoutes from './features/generations/generations.routes.ts';
import replicateWebhookRoutes from './features/generations/replicate-webhook.routes.ts';
import noticesRoutes from './features/notices/notices.routes.ts';
import privacyRoutes from './features/privacy/privacy.routes.ts';
import promoRoutes from './features/promo/promo.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The application context routes hand to services (never the Fastify instance itself). */
    ctx: AppContext;
    /** Event streams open in this process, per user (`SSE_STREAMS_PER_USER`). */
    streamSlots: StreamSlots;
    /** The memory this process checks uploaded pictures in (`IMAGE_CHECK_MEMORY_MB`). */
    imageBudget: ImageBudget;
  }
}

/** Content-Security-Policy: only what the pages load. */
function cspDirectives(config: Config): Record<string, string[]> {
  const paymentOrigins = config.cloudpayments.sandbox ? [] : ['https://widget.cloudpayments.ru', 'https://*.cloudpayments.ru'];
  // Development only (WIDGET_DEV_SERVERS, refused in production): widget modules from their
  // `vite dev` servers, those servers' hot-reload socket, and the shared worker vite's client makes
  // from a blob to wait for a restarted server.
  const devOrigins = Object.values(config.widgetDevServers);
  const devSockets = devOrigins.map((origin) => origin.replace(/^http/, 'ws'));
  const devWorkers: Record<string, string[]> = devOrigins.length > 0 ? { workerSrc: ["'self'", 'blob:'] } : {};
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
    ...devWorkers,
  };
}

const externalPlugins = fp(
  async (app: FastifyInstance, { ctx }: { ctx: AppContext }) => {
    limitJsonDepth(app);
    await app.register(cookie);
    await app.register(formbody, { bodyLimit: 64 * 1024 });
    // Limits here are the ceiling; each multipart route sets its own (lib/multipart.ts).
    await app.register(multipart, { limits: { files: 10, fileSize: 50 * 1024 * 1024, fields: 50, fieldSize: 256 * 1024, parts: 60 } });
    securityHeaders(app, {
      contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(ctx.config) },
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: ctx.config.publicUrl.startsWith('https://'),
    });
    // Counted in Redis when REDIS_URL is set (shared by every process), else in this process.
    const counts = await rateLimitCounts(ctx.config, ctx.log);
    app.addHook('onClose', () => counts.close());
    await app.register(rateLimit, {
      ...counts.options,
      global: true,
      max: ctx.config.rateLimitPerMinute,
      timeWindow: '1 minute',
      allowList: (req) => req.url === '/healthz' || req.url === '/readyz',
      // Counts go out with a refusal (429 and Retry-After), not on every reply.
      addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
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

const contextPlugin = fp(
  async (app: FastifyInstance, { ctx }: { ctx: AppContext }) => {
    app.decorate('ctx', ctx);
    app.decorate('streamSlots', new StreamSlots(ctx.config.sseStreamsPerUser));
    app.decorate('imageBudget', new ImageBudget(ctx.config.imageCheck.memoryBytes, ctx.config.imageCheck.waitMs));
    await app.register(authPlugin);
  },
  { name: 'context' },
);

/** Every contract route, for spoofing and the route inventory test. */
export const ALL_CONTRACTS: RouteContract[] = Object.values(contractRoutes).flatMap((group) => Object.values(group) as RouteContract[]);

/**
 * Builds the HTTP app over a context (`main` and the tests both call it). The context's job
 * queue is started and stopped by whoever built the context, not by the app.
 */
export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  // Fastify's own logger type: routes and hooks see the context's pino logger as it.
  const loggerInstance: FastifyBaseLogger = ctx.log;
  const { headersTimeoutSeconds, requestTimeoutSeconds } = ctx.config.http;
  const app: FastifyInstance = Fastify({
    loggerInstance,
    // A client that trickles a request's headers or body is cut off (408) when these run out, so
    // one address cannot hold a process's sockets forever; Node checks them this often.
    requestTimeout: requestTimeoutSeconds * 1000,
    http: { headersTimeout: headersTimeoutSeconds * 1000, connectionsCheckingInterval: Math.min(5000, headersTimeoutSeconds * 500) },
    // Outside production one readable line a request instead of Fastify's two objects.
    ...(readableLogs(ctx.config.env) ? { logController: new RequestLines() } : {}),
    trustProxy: ctx.config.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    frameworkErrors: frameworkErrorReply,
  });
  // First, so that every request is timed, those the rate limit refuses too.
  installHttpMetrics(app, ctx.metrics);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(createSerializerCompiler({ checkWithZod: ctx.config.env !== 'production' }));

  await app.register(externalPlugins, { ctx });
  await app.register(contextPlugin, { ctx });
  installErrorHandler(app, (req, reply, status) => renderErrorPage(reply, status, pageContext(ctx, req)));

  enableMethodSpoofing(app, ALL_CONTRACTS);
  await app.register(healthRoutes);
  await app.register(hostPages, {
    widgetsDir: ctx.config.widgetsDir,
    loaderDir: ctx.config.loaderDir,
    devServers: ctx.config.widgetDevServers,
    context: (req) => pageContext(ctx, req),
    read: (req, reads) => pageReads(app, req, reads),
  });
  await app.register(accountsRoutes);
  await app.register(billingRoutes);
  await app.register(walletRoutes);
  await app.register(notificationRoutes);
  await app.register(sandboxRoutes);
  await app.register(dashboardRoutes);
  await app.register(welcomeRoutes);
  await app.register(filesRoutes);
  await app.register(adminRoutes);
  await app.register(adminAiRoutes);
  await app.register(adminBillingRoutes);
  await app.register(chatRoutes);
  await app.register(catalogRoutes);
  await app.register(generationRoutes);
  await app.register(replicateWebhookRoutes);
  await app.register(noticesRoutes);
  await app.register(privacyRoutes);
  await app.register(promoRoutes);
  // Open answer streams would keep the server from closing: their answers are stopped first
  // (each stored as far as it went and charged for that), which ends the streams; streams of
  // generations' progress end (their pages then ask for the run's status).
  app.addHook('preClose', async () => {
    ctx.generationEvents.stopAll();
    await ctx.chatRuns.stopAll();
  });
  return app;
}
