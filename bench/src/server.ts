import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '@app/server/app';
import { createContext, startContext, stopContext } from '../../server/src/context.ts';
import { newAdmin, newUser, type TestUser } from '@app/server/testing';
import { loadConfig } from '../../server/src/config.ts';
import { createDb, type Db } from '../../server/src/db/database.ts';
import { migrateToLatest } from '../../server/src/db/migrate.ts';
import { seed } from '../../server/src/db/seed.ts';
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

/**
 * The real app on a scratch database (the machine's Postgres, else an embedded one), seeded,
 * with one confirmed user, an admin and `customers` more users; no workers unless `work`, mail to a temporary folder.
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
    const db: Db = createDb(url, { poolSize: config.databasePoolSize, ...config.database });
    cleanups.unshift(() => db.destroy());
    await migrateToLatest(db);
    await seed(db, pino({ level: 'silent' }));
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
    const user = await newUser(db);
    const unconfirmed = await newUser(db, { confirmed: false });
    await db.insertInto('email_codes').values({ user_id: unconfirmed.id, code_hash: 'x', expires_at: new Date(Date.now() + 1_800_000) }).execute();
    const admin = await newAdmin(db);
    // The admin panel's lists have pages to turn: a few hundred customers (who cannot sign in).
    if (opts.customers) await sql`insert into users (email, password_hash, email_confirmed_at) select 'client-' || n || '@example.ru', 'x', now() from generate_series(1, ${opts.customers}) as n`.execute(db);
    return { baseUrl, databaseUrl: url, user, unconfirmed, admin, close };
  } catch (err) {
    await close();
    throw err;
  }
}
