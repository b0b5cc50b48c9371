import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createContext, startContext, stopContext } from '../../src/composition.ts';
import type { AppContext } from '../../src/context.ts';
import pino, { type Logger } from 'pino';
import { loadConfig, type Config } from '../../src/config.ts';
import { createDb, type Db } from '../../src/db/database.ts';
import { resolveSecrets } from '../../src/lib/secrets.ts';
import type { Clock } from '../../src/lib/clock.ts';
import { databaseUrl, withAdmin } from './postgres.ts';
import { TestSmtp } from './smtp.ts';

export interface TestApp {
  app: FastifyInstance;
  /** The application context the app's routes and jobs use. */
  ctx: AppContext;
  db: Db;
  config: Config;
  smtp: TestSmtp;
  /** The database this app works on (another app may share it: a second process). */
  databaseUrl: string;
  /** Set after `listen()`. */
  baseUrl: string;
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Extra environment for the configuration. */
  env?: Record<string, string>;
  /** Run the job workers (mail delivery and the rest); on by default. */
  workers?: boolean;
  /** Milliseconds the test SMTP server holds each message (a slow mail server). */
  smtpDelayMs?: number;
  /** Routes a test adds (before the app is ready), e.g. contracts of its own to exercise route kinds. */
  routes?: (app: FastifyInstance) => void | Promise<void>;
  /** Work on this app's database instead of a new one, as a second process of the same service does. */
  shareDatabaseWith?: Pick<TestApp, 'databaseUrl'>;
  /** The app's logger (a test that reads the log); silent by default. */
  log?: Logger;
  /** The app's clock (`ctx.clock`): a test's own time for the sign-in limits, see `testClock`. */
  clock?: Clock;
}

/** A clock a test moves by hand: it starts at `start` and only `advance` changes it. */
export function testClock(start: number): Clock & { advance(ms: number): void; set(ms: number): void } {
  let now = start;
  return Object.assign(() => now, {
    advance: (ms: number) => {
      now += ms;
    },
    set: (ms: number) => {
      now = ms;
    },
  });
}

/** The start of the next window of `windowSeconds`, in the near future: a test clock set there starts a fresh window whose checks have not expired by the wall clock. */
export const nextWindowStart = (windowSeconds: number) => (Math.floor(Date.now() / (windowSeconds * 1000)) + 1) * windowSeconds * 1000;

/** A copy of the migrated template database for one test file (`empty`: a database with nothing in it, as `createdb` makes). */
export async function createTestDatabase(opts: { empty?: boolean } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = inject('pgAdminUrl');
  // Named after the run (the pid in the template's name), so a concurrent run leaves it alone.
  const runPid = /^ns_tpl_(\d+)_/.exec(inject('templateDb'))?.[1] ?? '0';
  const name = `ns_t_${runPid}_${crypto.randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (client) => client.query(`create database "${name}" template "${opts.empty ? 'template0' : inject('templateDb')}"`));
  return {
    url: databaseUrl(adminUrl, name),
    drop: () => withAdmin(adminUrl, (client) => client.query(`drop database if exists "${name}" with (force)`)).then(() => undefined),
  };
}

/** The whole app on its own database, with a real SMTP server receiving its mail. */
export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const shared = opts.shareDatabaseWith;
  // A shared database is dropped by the app that made it.
  const database = shared ? { url: shared.databaseUrl, drop: () => Promise.resolve() } : await createTestDatabase();
  const smtp = new TestSmtp(opts.smtpDelayMs);
  const smtpUrl = await smtp.start();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-test-data-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: '20',
    DATA_DIR: dataDir,
    APP_SECRET: 'test-secret-test-secret-test-secret-0123',
    SMTP_URL: smtpUrl,
    PORT: '0',
    RUN_WORKERS: opts.workers === false ? 'false' : 'true',
    RATE_LIMIT_PER_MINUTE: '100000',
    ...opts.env,
  });
  const db = createDb(database.url, { poolSize: config.databasePoolSize, ...config.database });
  const ctx = createContext({ config, db, databaseUrl: database.url, secrets: resolveSecrets(config), log: opts.log ?? pino({ level: config.logLevel }), ...(opts.clock ? { clock: opts.clock } : {}) });
  const app = await buildApp(ctx);
  await opts.routes?.(app);
  await app.ready();
  await startContext(ctx, { work: config.runWorkers, pollSeconds: 0.5 });
  const t: TestApp = {
    app,
    ctx,
    db,
    config,
    smtp,
    databaseUrl: database.url,
    baseUrl: '',
    async listen() {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const address = app.server.address();
      if (!address || typeof address === 'string') throw new Error('no address');
      t.baseUrl = `http://127.0.0.1:${String(address.port)}`;
      // Links in mail must point at this server.
      config.publicUrl = t.baseUrl;
      return t.baseUrl;
    },
    async close() {
      await app.close();
      await stopContext(ctx);
      await db.destroy();
      await smtp.stop();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return t;
}

export interface CallOptions {
  method?: InjectOptions['method'];
  url: string;
  payload?: InjectOptions['payload'];
  token?: string;
  /** Send a valid CSRF cookie and header pair (anonymous and cookie-authenticated posts). */
  csrf?: boolean;
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
  remoteAddress?: string;
}

/** Issues a valid XSRF cookie/header pair. */
export async function csrfPair(app: FastifyInstance): Promise<{ cookie: string; header: string }> {
  const res = await app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
  const cookie = res.cookies.find((c) => c.name === 'XSRF-TOKEN');
  if (!cookie) throw new Error('no XSRF-TOKEN cookie');
  return { cookie: cookie.value, header: cookie.value };
}

/** One API call through `app.inject`, with bearer token and CSRF as asked. */
export async function call(app: FastifyInstance, opts: CallOptions): Promise<LightMyRequestResponse & { body: string; data: { status?: string; json?: unknown; text?: unknown; code?: string } }> {
  const headers: Record<string, string> = { ...opts.headers };
  const cookies: Record<string, string> = { ...opts.cookies };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.csrf) {
    const pair = await csrfPair(app);
    cookies['XSRF-TOKEN'] = pair.cookie;
    headers['x-xsrf-token'] = pair.header;
  }
  const res = await app.inject({
    method: opts.method ?? 'GET',
    url: opts.url,
    payload: opts.payload,
    headers,
    cookies,
    ...(opts.remoteAddress ? { remoteAddress: opts.remoteAddress } : {}),
  });
  let data: { status?: string; json?: unknown; text?: unknown; code?: string } = {};
  try {
    data = res.json();
  } catch {
    data = {};
  }
  return Object.assign(res, { data });
}
