import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { PROVIDER_KEY_ENV } from '@app/contracts';
import { parseHostRules, type HostRule } from './lib/host-rules.ts';

/** The repository root: relative paths in the configuration are resolved from here. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? fallback : ['true', '1', 'yes'].includes(v)));

const int = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/**
 * `WIDGET_DEV_SERVERS=auth=http://localhost:5101,tariffs=http://localhost:5110`: widgets served
 * by their `vite dev` server instead of their build (development only; `npm run dev -- auth`
 * sets it). Each value is the dev server's origin; the widget's base path is `/widgets/<name>/`.
 */
const widgetDevServers = optionalString.transform((value, ctx): Record<string, string> => {
  const servers: Record<string, string> = {};
  for (const item of (value ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const match = /^([a-z0-9-]+)=(.+)$/.exec(item);
    let origin: string | undefined;
    try {
      const url = new URL(match?.[2] ?? '');
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.pathname === '/' && !url.search && !url.hash && !url.username) origin = url.origin;
    } catch {
      origin = undefined;
    }
    if (!match?.[1] || !origin) {
      ctx.addIssue({ code: 'custom', message: `"${item}" is not <widget>=<http origin> (e.g. auth=http://localhost:5101)` });
      return z.NEVER;
    }
    if (match[1] in servers) {
      ctx.addIssue({ code: 'custom', message: `widget ${match[1]} is listed twice` });
      return z.NEVER;
    }
    servers[match[1]] = origin;
  }
  return servers;
});

/** `PROVIDER_PRIVATE_HOSTS=127.0.0.1:11434,vllm:8000`: a comma-separated host list. */
const hostList = optionalString.transform((value, ctx): HostRule[] => {
  const { rules, errors } = parseHostRules(value ?? '');
  for (const message of errors) ctx.addIssue({ code: 'custom', message });
  return errors.length ? z.NEVER : rules;
});

/**
 * `TRUST_PROXY`: `false` (default), `true`, or the addresses and networks of the reverse proxies
 * (`127.0.0.1`, `10.0.0.0/8,::1`): `X-Forwarded-For` and `-Proto` are then believed only when the
 * request comes from one of them, so a client cannot pass itself off as another address.
 */
const trustProxy = optionalString.transform((value, ctx): boolean | string[] => {
  if (value === undefined || ['false', '0', 'no'].includes(value)) return false;
  if (['true', '1', 'yes'].includes(value)) return true;
  const items = value.split(',').map((s) => s.trim()).filter(Boolean);
  for (const item of items) {
    const [address = '', prefix, extra] = item.split('/');
    const version = isIP(address);
    const bits = version === 4 ? 32 : 128;
    if (!version || extra !== undefined || (prefix !== undefined && !(/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits))) {
      ctx.addIssue({ code: 'custom', message: `"${item}" is not true, false or a proxy's address or network (e.g. 127.0.0.1, 10.0.0.0/8)` });
      return z.NEVER;
    }
  }
  return items;
});

const S3_VARIABLES = ['S3_ENDPOINT', 'S3_REGION', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'] as const;

/** The environment: the variables below, checked; every other variable is kept (provider keys are read from them). */
const EnvSchema = z
  .looseObject({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().default('127.0.0.1'),
    PORT: int(3000, 0, 65535),
    PUBLIC_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    DATA_DIR: z.string().default('./.data'),
    DATABASE_URL: optionalString.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
    DATABASE_POOL_SIZE: int(10, 1, 200),
    DATABASE_STATEMENT_TIMEOUT_MS: int(30_000, 100, 3_600_000),
    DATABASE_CONNECT_TIMEOUT_MS: int(5_000, 100, 600_000),
    DATABASE_MAX_WAITING: int(500, 1, 100_000),
    EMBEDDED_PG_PORT: int(54329, 1024, 65535),
    APP_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    SESSION_TTL_DAYS: int(30, 1, 365),
    SESSION_CACHE_SECONDS: int(60, 0, 3600),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TRUST_PROXY: trustProxy,
    RUN_WORKERS: bool(true),
    WORKER_HEALTH_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    ALLOW_SANDBOX: z
      .enum(['true', 'false', '1', '0', 'yes', 'no'])
      .optional()
      .transform((v) => (v === undefined ? undefined : ['true', '1', 'yes'].includes(v))),
    RATE_LIMIT_PER_MINUTE: int(600, 1, 1_000_000),
    REDIS_URL: optionalString.pipe(z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional()),
    REDIS_KEY_PREFIX: z.string().regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'must be 1–64 letters, digits and : _ . -').default('ns:'),
    HTTP_HEADERS_TIMEOUT_SECONDS: int(15, 1, 300),
    HTTP_REQUEST_TIMEOUT_SECONDS: int(300, 1, 3600),
    SSE_HEARTBEAT_SECONDS: int(15, 1, 300),
    SSE_STREAMS_PER_USER: int(20, 1, 100_000),
    IMAGE_CHECK_MEMORY_MB: int(256, 64, 65_536),
    IMAGE_CHECK_WAIT_SECONDS: int(30, 1, 600),
    DEMO_WORD_DELAY_MS: int(50, 0, 5_000),
    DEMO_STEP_DELAY_MS: int(150, 0, 10_000),
    SMTP_URL: optionalString.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
    MAIL_FROM: z.string().default('Нейростудия <no-reply@neurostudio.local>'),
    SUPPORT_URL: z.string().default('mailto:support@neurostudio.local'),
    CLOUDPAYMENTS_PUBLIC_ID: optionalString,
    CLOUDPAYMENTS_API_SECRET: optionalString,
    CLOUDPAYMENTS_API_URL: z.url().default('https://api.cloudpayments.ru'),
    CLOUDPAYMENTS_WIDGET_URL: z.url().default('https://widget.cloudpayments.ru/bundles/cloudpayments.js'),
    CLOUDPAYMENTS_TAXATION_SYSTEM: int(1, 0, 5),
    TELEGRAM_BOT_TOKEN: optionalString,
    TELEGRAM_BOT_USERNAME: z.string().default('neurostudio_bot'),
    TELEGRAM_CHANNEL: z.string().default('@neurostudio_news'),
    TELEGRAM_API_URL: z.url().default('https://api.telegram.org'),
    TELEGRAM_WEBHOOK_SECRET: optionalString,
    REPLICATE_WEBHOOK_SECRET: optionalString.pipe(
      z
        .string()
        .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, 'must be the signing secret Replicate gives (whsec_ and base64)')
        .optional(),
    ),
    REPLICATE_WEBHOOK_POLL_SECONDS: int(30, 1, 3600),
    WIDGETS_DIR: z.string().default('widgets'),
    LOADER_DIR: z.string().default('host-pages/dist'),
    WIDGET_DEV_SERVERS: widgetDevServers,
    PROVIDER_PRIVATE_HOSTS: hostList,
    STORAGE: z.enum(['local', 's3'], { error: 'must be local or s3' }).optional(),
    S3_ENDPOINT: optionalString.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
    S3_REGION: optionalString,
    S3_BUCKET: optionalString.pipe(
      z
        .string()
        .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name: 3–63 lowercase letters, digits, dots and hyphens')
        .optional(),
    ),
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    S3_FORCE_PATH_STYLE: z
      .enum(['true', 'false', '1', '0', 'yes', 'no'])
      .optional()
      .transform((v) => (v === undefined ? undefined : ['true', '1', 'yes'].includes(v))),
  })
  .superRefine((env, ctx) => {
    if (env.HTTP_HEADERS_TIMEOUT_SECONDS > env.HTTP_REQUEST_TIMEOUT_SECONDS) {
      ctx.addIssue({ code: 'custom', path: ['HTTP_HEADERS_TIMEOUT_SECONDS'], message: 'must not exceed HTTP_REQUEST_TIMEOUT_SECONDS' });
    }
    if (Boolean(env.CLOUDPAYMENTS_PUBLIC_ID) !== Boolean(env.CLOUDPAYMENTS_API_SECRET)) {
      ctx.addIssue({ code: 'custom', path: ['CLOUDPAYMENTS_API_SECRET'], message: 'set both CLOUDPAYMENTS_PUBLIC_ID and CLOUDPAYMENTS_API_SECRET, or neither (sandbox)' });
    }
    // In production a sandbox hands out tokens for test cards: only when asked for (a demo).
    const sandboxAllowed = env.ALLOW_SANDBOX ?? env.NODE_ENV !== 'production';
    if (!sandboxAllowed && !env.CLOUDPAYMENTS_PUBLIC_ID) {
      ctx.addIssue({ code: 'custom', path: ['CLOUDPAYMENTS_PUBLIC_ID'], message: 'is required in production (or set ALLOW_SANDBOX=true for a demo with the payment sandbox)' });
    }
    if (!sandboxAllowed && !env.TELEGRAM_BOT_TOKEN) {
      ctx.addIssue({ code: 'custom', path: ['TELEGRAM_BOT_TOKEN'], message: 'is required in production (or set ALLOW_SANDBOX=true for a demo with the Telegram sandbox)' });
    }
    if (env.NODE_ENV === 'production' && !env.APP_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['APP_SECRET'], message: 'is required in production' });
    }
    if (env.NODE_ENV === 'production' && Object.keys(env.WIDGET_DEV_SERVERS).length > 0) {
      ctx.addIssue({ code: 'custom', path: ['WIDGET_DEV_SERVERS'], message: 'is for development only: unset it in production' });
    }
    if (env.REPLICATE_WEBHOOK_SECRET && !env.PUBLIC_URL) {
      ctx.addIssue({ code: 'custom', path: ['REPLICATE_WEBHOOK_SECRET'], message: 'needs PUBLIC_URL: Replicate must reach the webhook at the site’s public address' });
    }
    const storage = env.STORAGE ?? (env.S3_BUCKET ? 's3' : 'local');
    if (storage === 's3' && !env.S3_BUCKET) {
      ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is required with STORAGE=s3' });
    }
    if (storage === 'local') {
      // A half-configured S3 must not silently keep files on this machine's disk.
      for (const name of S3_VARIABLES) {
        if (env[name] !== undefined) ctx.addIssue({ code: 'custom', path: [name], message: 'is set, but STORAGE=local keeps files on disk: set STORAGE=s3 or unset it' });
      }
    }
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({ code: 'custom', path: ['S3_SECRET_ACCESS_KEY'], message: "set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (the AWS SDK's default credentials)" });
    }
  });

/** Hosts the well-known keys may be sent to while their `<VAR>_HOSTS` is unset. */
export const DEFAULT_PROVIDER_KEY_HOSTS: Readonly<Record<string, string>> = { OPENAI_API_KEY: 'api.openai.com', REPLICATE_API_TOKEN: 'api.replicate.com' };

/** The `<VAR>_HOSTS` lists of provider keys (and the defaults of those not given), with the problems of each. */
function providerKeyHosts(env: Readonly<Record<string, unknown>>): { hosts: Record<string, HostRule[]>; problems: string[] } {
  const lists: Record<string, string> = { ...DEFAULT_PROVIDER_KEY_HOSTS };
  for (const [name, value] of Object.entries(env)) {
    const key = /^(.+)_HOSTS$/.exec(name)?.[1];
    if (key && PROVIDER_KEY_NAME.test(key) && typeof value === 'string' && value.trim() !== '') lists[key] = value;
  }
  const hosts: Record<string, HostRule[]> = {};
  const problems: string[] = [];
  for (const [key, value] of Object.entries(lists)) {
    const { rules, errors } = parseHostRules(value);
    hosts[key] = rules;
    problems.push(...errors.map((e) => `  ${key}_HOSTS: ${e}`));
  }
  return { hosts, problems };
}

/** Environment variables a provider connection may take its key from (the admin's editor checks the same rule). */
export const PROVIDER_KEY_NAME = PROVIDER_KEY_ENV;

/** Sandbox credentials: the sandbox signs notifications with this secret, so the same verification runs. */
export const SANDBOX_PUBLIC_ID = 'pk_sandbox';

/**
 * The configuration a process runs with, shaped from the checked environment; its type is
 * inferred from here ({@link Config}), never written again beside it.
 */
const ConfigSchema = EnvSchema.transform((e) => {
  const fromRoot = (p: string) => path.resolve(REPO_ROOT, p);
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${String(e.PORT)}`).replace(/\/+$/, ''),
    dataDir: fromRoot(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    /** Limits that keep a lost or frozen database from hanging requests (answered 503 instead). */
    database: { statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS, connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS, maxWaiting: e.DATABASE_MAX_WAITING },
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    appSecret: e.APP_SECRET,
    sessionTtlDays: e.SESSION_TTL_DAYS,
    /** How long a process answers who sends a token from memory (0: it asks the database every time); changes reach it by NOTIFY. */
    sessionCacheSeconds: e.SESSION_CACHE_SECONDS,
    logLevel: e.LOG_LEVEL,
    /**
     * Whose `X-Forwarded-*` headers are believed: nobody (false), any peer (true: only behind a
     * proxy that is the sole way in), or the proxies' addresses and networks.
     */
    trustProxy: e.TRUST_PROXY,
    runWorkers: e.RUN_WORKERS,
    /** `npm run worker` answers /healthz and /readyz on this port (none when unset). */
    workerHealthPort: e.WORKER_HEALTH_PORT,
    metricsPort: e.METRICS_PORT,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    /** Redis for what every web process must share (the rate limit's counters); unset → each process's memory. */
    redis: { url: e.REDIS_URL, keyPrefix: e.REDIS_KEY_PREFIX },
    /** Longest a client may take to send a request's headers, and the whole request with its body (Node's `headersTimeout`, `requestTimeout`). */
    http: { headersTimeoutSeconds: e.HTTP_HEADERS_TIMEOUT_SECONDS, requestTimeoutSeconds: e.HTTP_REQUEST_TIMEOUT_SECONDS },
    /** Seconds between the comment lines that keep an open event stream alive. */
    sseHeartbeatSeconds: e.SSE_HEARTBEAT_SECONDS,
    /** Event streams one user may have open at once in one process (counted in its memory). */
    sseStreamsPerUser: e.SSE_STREAMS_PER_USER,
    imageCheck: { memoryBytes: e.IMAGE_CHECK_MEMORY_MB * 1024 * 1024, waitMs: e.IMAGE_CHECK_WAIT_SECONDS * 1000 },
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    supportUrl: e.SUPPORT_URL,
    cloudpayments: {
      /** Without keys the sandbox plays CloudPayments' part. */
      sandbox: !e.CLOUDPAYMENTS_PUBLIC_ID,
      publicId: e.CLOUDPAYMENTS_PUBLIC_ID ?? SANDBOX_PUBLIC_ID,
      apiSecret: e.CLOUDPAYMENTS_API_SECRET ?? '',
      apiUrl: e.CLOUDPAYMENTS_API_URL.replace(/\/+$/, ''),
      widgetUrl: e.CLOUDPAYMENTS_WIDGET_URL,
      taxationSystem: e.CLOUDPAYMENTS_TAXATION_SYSTEM,
    },
    telegram: {
      sandbox: !e.TELEGRAM_BOT_TOKEN,
      botToken: e.TELEGRAM_BOT_TOKEN,
      botUsername: e.TELEGRAM_BOT_USERNAME,
      channel: e.TELEGRAM_CHANNEL,
      apiUrl: e.TELEGRAM_API_URL.replace(/\/+$/, ''),
      webhookSecret: e.TELEGRAM_WEBHOOK_SECRET,
    },
    /** Replicate-protocol connections: webhooks, with polling as the fallback. */
    replicate: {
      /**
       * The account's webhook signing secret (`whsec_…`). Set (with `PUBLIC_URL`) → predictions are
       * created with a webhook to `PUBLIC_URL` + the webhook route; unset → they are only polled.
       */
      webhookSecret: e.REPLICATE_WEBHOOK_SECRET,
      /** Seconds between polls of a prediction that has a webhook (the fallback when it never comes). */
      webhookPollSeconds: e.REPLICATE_WEBHOOK_POLL_SECONDS,
    },
    widgetsDir: fromRoot(e.WIDGETS_DIR),
    loaderDir: fromRoot(e.LOADER_DIR),
    /**
     * Widgets served by their `vite dev` server (name → origin), never in production: the page
     * loads them from there with the React-refresh preamble, and the CSP allows those origins.
     */
    widgetDevServers: e.WIDGET_DEV_SERVERS,
    /** The offline demo provider's pace: average pause before each streamed word. */
    demoWordDelayMs: e.DEMO_WORD_DELAY_MS,
    /** The demo's pace for pictures and clips: pause per progress step (four an image; a clip's tenths take twice as long). */
    demoStepDelayMs: e.DEMO_STEP_DELAY_MS,
    /**
     * Where each key may be sent, by its variable: `<VAR>_HOSTS` beside it (hosts, or `host:port`),
     * with {@link DEFAULT_PROVIDER_KEY_HOSTS} for the well-known ones. A key without hosts is sent
     * nowhere: a connection naming it is refused when saved and when called.
     */
    providerKeyHosts: providerKeyHosts(e).hosts,
    /**
     * `PROVIDER_PRIVATE_HOSTS`: the hosts (by name or address and port, as a connection's URL
     * writes them) provider calls may reach although they are private, loopback, link-local or
     * unique-local; every other such address is refused where the connection is made.
     */
    providerPrivateHosts: e.PROVIDER_PRIVATE_HOSTS,
    /**
     * Keys of AI provider connections, by variable name: every variable whose name ends in
     * `_API_KEY` or `_API_TOKEN`. A connection names its variable (`api_key_env`); other variables
     * (the database URL, the app secret) can never be sent to a provider.
     */
    providerKeys: Object.fromEntries(Object.entries(e).filter((entry): entry is [string, string] => PROVIDER_KEY_NAME.test(entry[0]) && typeof entry[1] === 'string' && entry[1].trim() !== '')),
    /** Where uploaded and generated files are kept: local disk (the default) or an S3-compatible service. */
    storage: e.S3_BUCKET
      ? {
          kind: 's3' as const,
          bucket: e.S3_BUCKET,
          region: e.S3_REGION ?? 'us-east-1',
          /** Unset: AWS S3 itself. */
          endpoint: e.S3_ENDPOINT?.replace(/\/+$/, ''),
          /** `https://host/bucket/key` instead of `https://bucket.host/key` (MinIO and most self-hosted services). */
          forcePathStyle: e.S3_FORCE_PATH_STYLE ?? false,
          /** Unset: the AWS SDK's default chain (AWS_* variables, an instance role). */
          credentials: e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY } : undefined,
        }
      : {
          kind: 'local' as const,
          /** `DATA_DIR/files`. */
          dir: path.join(fromRoot(e.DATA_DIR), 'files'),
        },
  };
});

export type Config = z.output<typeof ConfigSchema>;
export type StorageConfig = Config['storage'];

export class ConfigError extends Error {}

/** Parses the environment; a wrong value stops the start with a message naming it. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable (`PORT=` in an env file) is unset, so its default applies: `z.coerce`
  // would otherwise read '' as 0.
  const input = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1].trim() !== ''));
  const parsed = ConfigSchema.safeParse(input);
  const keyHostProblems = providerKeyHosts(input).problems;
  if (!parsed.success || keyHostProblems.length) {
    const lines = [...(parsed.error?.issues ?? []).map((i) => `  ${i.path.join('.')}: ${i.message}`), ...keyHostProblems];
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
