import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRoutes, type Generation } from '@app/contracts';
import { REPO_ROOT } from '../../src/config.ts';
import { createDb, type Db } from '../../src/db/database.ts';
import { choosePgTool, findPgTools, majorOf } from '../../src/db/pg-tools.ts';
import { seedAiCatalog, seedGenerationCatalog } from '../../src/db/seed.ts';
import { placeHold } from '../../src/features/wallet/wallet.queries.ts';
import {
  call,
  createTestApp,
  createTestDatabase,
  finishedRun,
  multipart,
  newUser,
  notify,
  seedCatalog,
  startRun,
  subscribe,
  walletState,
  type TestApp,
  type TestUser,
} from '../support/index.ts';

/*
 * A backup that has been restored: data in (plans paid, a refund, a chat answer, a run, a hold
 * still open), `npm run db:backup`, a new empty database restored from it with `npm run
 * db:restore`, every table as it was, every balance equal to its ledger, and the app serving the
 * restored users: they sign in and read their balances. A restore never writes over data.
 */

let t: TestApp;
let dir: string;
const users: TestUser[] = [];
const drops: (() => Promise<void>)[] = [];

/** `npm run <script> -- <args>` with the database `url`, as an operator types it. */
function npmRun(script: string, args: string[], url: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], { cwd: REPO_ROOT, env: { ...process.env, DATABASE_URL: url, NODE_ENV: 'test', DATA_DIR: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => resolve({ code, out, err }));
  });
}

/**
 * Rows of every table of the app, and of the job queue's queues and schedules (its jobs move on
 * with the source's workers: cron jobs every minute).
 */
async function tableRows(db: Db): Promise<Record<string, number>> {
  const tables = (await sql<{ name: string }>`select schemaname || '.' || tablename as name from pg_tables where schemaname = 'public' or (schemaname = 'pgboss' and tablename in ('queue', 'schedule')) order by 1`.execute(db)).rows;
  const rows: Record<string, number> = {};
  for (const { name } of tables) rows[name] = Number((await sql<{ n: string }>`select count(*) as n from ${sql.raw(name)}`.execute(db)).rows[0]?.n);
  return rows;
}

async function emptyDatabase(): Promise<string> {
  const database = await createTestDatabase({ empty: true });
  drops.push(database.drop);
  return database.url;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-backup-'));
  t = await createTestApp({ env: { DEMO_WORD_DELAY_MS: '0', DEMO_STEP_DELAY_MS: '0' } });
  const catalog = await seedCatalog(t.db);
  await seedAiCatalog(t.db);
  await seedGenerationCatalog(t.db);
  // A plan paid, a chat answer and a picture on its tokens.
  const a = await newUser(t.db);
  await subscribe(t.app, a, catalog.monthly);
  const model = await t.db.selectFrom('ai_models').select('id').where('name', '=', 'Демо-ассистент').executeTakeFirstOrThrow();
  const body = multipart([
    { name: 'ai_models_id', value: String(model.id) },
    { name: 'message', value: 'Привет! Расскажи о себе.' },
  ]);
  expect((await call(t.app, { method: 'POST', url: chatRoutes.send.path, token: a.token, payload: body.payload, headers: body.headers })).statusCode).toBe(200);
  const product = await t.db.selectFrom('ai_products').select('id').where('name', '=', 'Картинка по описанию').executeTakeFirstOrThrow();
  const run = await startRun(t.app, a, { product_id: product.id, prompt: 'Закат над морем' });
  expect((await finishedRun(t.app, a, (run.data.json as Generation).id)).status).toBe('succeeded');
  // A plan paid and half refunded; a hold still open.
  const b = await newUser(t.db);
  const { invoice } = await subscribe(t.app, b, catalog.monthly);
  const paid = await t.db.selectFrom('invoices').select('transaction_id').where('id', '=', invoice.payment_id).executeTakeFirstOrThrow();
  expect((await notify(t.app, 'refund', { TransactionId: 9_900_001, PaymentTransactionId: paid.transaction_id ?? 0, Amount: (invoice.amount / 2).toFixed(2), Currency: 'RUB' })).code).toBe(0);
  await placeHold(t.db, { userId: b.id, kind: 'words', amount: 10, idempotencyKey: `backup-hold-${String(b.id)}` });
  users.push(a, b);
}, 120_000);

afterAll(async () => {
  await t.close();
  for (const drop of drops) await drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('npm run db:backup and db:restore', () => {
  it('restore a backup into a new database: every table as it was, every balance its ledger, the users served', { timeout: 180_000 }, async () => {
    const file = path.join(dir, 'nightly', 'neurostudio.dump');
    const backup = await npmRun('db:backup', [file], t.databaseUrl);
    expect(backup.code, backup.err).toBe(0);
    expect(backup.out).toContain(`Backup written to ${file}`);
    expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe('PGDMP');
    expect(fs.readdirSync(path.dirname(file))).toEqual(['neurostudio.dump']);

    const url = await emptyDatabase();
    const restore = await npmRun('db:restore', [file], url);
    expect(restore.code, restore.err).toBe(0);
    expect(restore.out).toMatch(/Every balance \(\d+ wallets\) equals the sum of its ledger\./);

    const restored = createDb(url, 2);
    try {
      expect(await tableRows(restored)).toEqual(await tableRows(t.db));
      for (const user of users) {
        const state = await walletState(restored, user.id);
        expect(state.balance).toEqual(state.sums);
        expect(state.balance).toEqual((await walletState(t.db, user.id)).balance);
      }
      expect((await restored.selectFrom('wallet_holds').select('status').where('user_id', '=', users[1]?.id ?? 0).execute()).map((h) => h.status)).toContain('held');
    } finally {
      await restored.destroy();
    }

    // The app on the restored database: the users sign in with their passwords and read their balances.
    const app = await createTestApp({ shareDatabaseWith: { databaseUrl: url }, workers: false });
    try {
      for (const user of users) {
        const login = await call(app.app, { method: 'POST', url: '/api/new/login', payload: { email: user.email, password: user.password }, csrf: true });
        expect(login.statusCode).toBe(200);
        const token = (login.data.json as { token: string }).token;
        const me = await call(app.app, { url: '/api/new/user', token });
        expect(me.statusCode).toBe(200);
        const { balance } = await walletState(t.db, user.id);
        expect((me.data.json as { email: string }).email).toBe(user.email);
        expect(me.body).toContain(`"words":${String(balance.words)}`);
      }
      // A session of before the backup still works: sessions are data like the rest.
      expect((await call(app.app, { url: '/api/new/user', token: users[0]?.token })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('never restores over data, and leaves a database empty when the backup cannot be read', { timeout: 180_000 }, async () => {
    const before = await tableRows(t.db);
    const file = path.join(dir, 'again.dump');
    expect((await npmRun('db:backup', [file], t.databaseUrl)).code).toBe(0);
    const over = await npmRun('db:restore', [file], t.databaseUrl);
    expect(over.code).toBe(1);
    expect(over.err).toContain('the database has');
    expect(over.err).toContain('restore into a new, empty database');
    expect(await tableRows(t.db)).toEqual(before);

    const broken = path.join(dir, 'broken.dump');
    fs.writeFileSync(broken, fs.readFileSync(file).subarray(0, 4096));
    const url = await emptyDatabase();
    const failed = await npmRun('db:restore', [broken], url);
    expect(failed.code).toBe(1);
    expect(failed.err).toContain('The restore failed: pg_restore failed');
    const db = createDb(url, 1);
    try {
      expect(await tableRows(db)).toEqual({});
    } finally {
      await db.destroy();
    }
  });

  it('answer a missing file or argument with what to type', { timeout: 120_000 }, async () => {
    const none = await npmRun('db:backup', [], t.databaseUrl);
    expect(none.code).toBe(2);
    expect(none.err).toContain('Usage: npm run db:backup -- <file>');
    const missing = await npmRun('db:restore', [path.join(dir, 'no-such.dump')], await emptyDatabase());
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('no such backup file');
  });
});

describe('which pg_dump and pg_restore', () => {
  /** A fake client program that says it is of PostgreSQL `version`. */
  function fakeTool(version: string): string {
    const bin = fs.mkdtempSync(path.join(dir, 'bin-'));
    fs.writeFileSync(path.join(bin, 'pg_dump'), `#!/bin/sh\necho "pg_dump (PostgreSQL) ${version}"\n`, { mode: 0o755 });
    return bin;
  }

  it('takes the one of the server’s version, else the oldest newer one, and says what to install when none fits', () => {
    const tools = findPgTools('pg_dump', [fakeTool('17.2'), fakeTool('15.20 (Debian 15.20-0+deb12u1)'), fakeTool('16.4'), path.join(dir, 'nothing-here')]);
    expect(tools.map((x) => x.major)).toEqual([17, 15, 16]);
    expect(choosePgTool('pg_dump', 16, tools).major).toBe(16);
    expect(choosePgTool('pg_dump', 14, tools).major).toBe(15);
    expect(() => choosePgTool('pg_dump', 18, tools)).toThrow(/pg_dump of PostgreSQL 18 or newer is needed for this server, found: 17 \(.*\), 15 .*, 16 .*postgresql-client-18/);
    expect(majorOf('pg_restore (PostgreSQL) 9.6.24')).toBe(9);
    expect(majorOf('something else')).toBeNull();
  });
});
