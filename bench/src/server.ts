import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '@app/server/app';
import { createContext, startContext, stopContext } from '../../server/src/composition.ts';
import type { TestUser } from '@app/server/testing';
import { loadConfig } from '../../server/src/config.ts';
import { createDb, type Db } from '../../server/src/db/database.ts';
import { migrateToLatest } from '../../server/src/db/migrate.ts';
import { resolveSecrets } from '../../server/src/lib/secrets.ts';
import { adminConnection, databaseUrl, withAdmin } from '../../server/test/support/postgres.ts';

export interface BenchServer {
  baseUrl: string;
  /** The scratch database the server runs on. */
  databaseUrl: string;
  user: TestUser;
  /** A user who has not confirmed their email yet (the overlay's reads). */
  unconfirmed: TestUser;
  /** An admin, for the admin panel's lists. */
  admin: TestUser;
  close(): Promise<void>;
}

/** What the scratch database holds for the bench: a confirmed user, an unconfirmed one and an admin, each with a live session. */
export interface PreparedDatabase {
  user: TestUser;
  unconfirmed: TestUser;
  admin: TestUser;
}

/**
 * Makes the scratch database ready in a worker thread (`prepare-worker.ts`), so the server's own
 * thread does no more than a server does when it starts on a database that is already there. Done
 * in the server's thread, migrating from nothing, seeding and the rest left V8 allocating every
 * later request's rows (pg's row and date parsing) in the old generation — its allocation-site
 * pretenuring judged them long-lived from what survived at start — and each young-generation
 * collection 2.5× as long: measured on the admin list, 20–30 µs more CPU a request than the same
 * server started with that judgement off, a cost of the bench's setup that the bare server does
 * not carry.
 */
function prepareDatabase(url: string, customers: number): Promise<PreparedDatabase> {
  return new Promise((resolve, reject) => {
    // A worker does not inherit the `--import tsx` hooks of the thread that starts it: it registers them itself, then loads the TypeScript file.
    const script = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./prepare-worker.ts', import.meta.url).href)}); })`;
    const worker = new Worker(script, { eval: true, workerData: { url, customers } });
    let prepared: PreparedDatabase | undefined;
    worker.once('message', (message: PreparedDatabase) => (prepared = message));
    worker.once('error', reject);
    worker.once('exit', (code) => (prepared ? resolve(prepared) : reject(new Error(`the database's preparation ended with ${String(code)} and no answer`))));
  });
}

/**
 * The real app on a scratch database (the machine's Postgres, else an embedded one), prepared in a
 * thread of its own (migrated, seeded, with one confirmed user, an admin and `customers` more
 * users), then started as a server starts on an existing database (its migrations checked); no
 * workers unless `work`, mail to a temporary folder.
 */
export async function startServer(env: Record<string, string> = {}, opts: { work?: boolean; customers?: number } = {}): Promise<BenchServer> {
  const { adminUrl, embedded } = await adminConnection();
  const name = `ns_bench_${crypto.randomBytes(5).toString('hex')}`;
  await withAdmin(adminUrl, (client) => client.query(`create database "${name}"`));
  const url = databaseUrl(adminUrl, name);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-bench-data-'));
  const cleanups: (() => Promise<unknown>)[] = [
    async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    () => withAdmin(adminUrl, (client) => client.query(`drop database if exists "${name}" with (force)`)),
    async () => embedded?.stop(),
  ];
  const close = async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup().catch((err: unknown) => console.error('bench cleanup:', err));
  };
  try {
    const config = loadConfig({
      NODE_ENV: 'production',
      ALLOW_SANDBOX: 'true',
      LOG_LEVEL: 'silent',
      DATABASE_URL: url,
      DATA_DIR: dataDir,
      APP_SECRET: crypto.randomBytes(32).toString('hex'),
      PORT: '0',
      RUN_WORKERS: 'false',
      // The limit's own work counts, but not its refusals: one token sends ~400 000 requests a minute here.
      RATE_LIMIT_PER_MINUTE: '1000000',
      ...env,
    });
    const { user, unconfirmed, admin } = await prepareDatabase(url, opts.customers ?? 0);
    const db: Db = createDb(url, { poolSize: config.databasePoolSize, ...config.database });
    cleanups.unshift(() => db.destroy());
    // What a server's start does on a database that is already there (bootstrap.ts): its migrations checked.
    await migrateToLatest(db);
    const ctx = createContext({ config, db, databaseUrl: url, secrets: resolveSecrets(config), log: pino({ level: 'silent' }) });
    const app: FastifyInstance = await buildApp(ctx);
    cleanups.unshift(() => app.close());
    await startContext(ctx, { work: opts.work ?? false, pollSeconds: 2 });
    cleanups.splice(1, 0, () => stopContext(ctx));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('the server has no address');
    const baseUrl = `http://127.0.0.1:${String(address.port)}`;
    config.publicUrl = baseUrl;
    return { baseUrl, databaseUrl: url, user, unconfirmed, admin, close };
  } catch (err) {
    await close();
    throw err;
  }
}
