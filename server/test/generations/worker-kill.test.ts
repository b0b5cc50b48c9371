import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Generation } from '@app/contracts';
import { seedAiCatalog, seedGenerationCatalog } from '../../src/db/seed.ts';
import { requeueStaleRuns } from '../../src/features/generations/generations.job.ts';
import { credit } from '../../src/features/wallet/wallet.queries.ts';
import { call, createTestApp, multipart, newUser, until, walletState, type TestApp } from '../support/index.ts';

/* A worker killed in the middle of a run: the run is sent again and finishes once, charged once. */

let t: TestApp;
beforeAll(async () => {
  // The web process only: the runs are done by worker processes this test starts and kills.
  t = await createTestApp({ workers: false });
  await seedAiCatalog(t.db);
  await seedGenerationCatalog(t.db);
});
afterAll(() => t.close());

function startWorker(stepDelayMs: number): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, '../../src/worker.ts')], {
    env: { ...process.env, DATABASE_URL: t.config.databaseUrl, DATA_DIR: t.config.dataDir, APP_SECRET: 'test-secret-test-secret-test-secret-0123', LOG_LEVEL: 'info', DEMO_STEP_DELAY_MS: String(stepDelayMs), PORT: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      if (output.includes('workers are running')) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the worker exited with ${String(code)}: ${output}`)));
  });
  return { child, ready };
}

const stopped = (child: ChildProcess) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));

describe('a worker that dies mid-run', () => {
  it('is replaced: the run is sent again, finishes once with one output, and its price is charged once', async () => {
    const user = await newUser(t.db);
    await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'media', reason: 'admin_adjustment', idempotencyKey: `kill-${String(user.id)}` }, 50));
    const product = await t.db.selectFrom('ai_products').select('id').where('variant', '=', 'img').executeTakeFirstOrThrow();

    // A slow first worker: each of the picture's four steps takes 1.5 s.
    const first = startWorker(1500);
    try {
      await first.ready;
      const body = multipart([
        { name: 'product_id', value: String(product.id) },
        { name: 'prompt', value: 'Маяк в шторм' },
      ]);
      const res = await call(t.app, { method: 'POST', url: '/api/new/generations', token: user.token, payload: body.payload, headers: body.headers });
      expect(res.statusCode).toBe(200);
      const gid = (res.data.json as Generation).id;
      await until(async () => {
        const row = await t.db.selectFrom('generations').select(['status', 'progress']).where('id', '=', gid).executeTakeFirstOrThrow();
        return row.status === 'running' && row.progress > 0;
      });
      first.child.kill('SIGKILL');
      await stopped(first.child);
      expect((await t.db.selectFrom('generations').select('status').where('id', '=', gid).executeTakeFirstOrThrow()).status).toBe('running');

      // The sweep (every minute in production) finds it silent and sends it again; a new worker takes it.
      expect(await requeueStaleRuns(t.ctx, 0)).toBe(1);
      const second = startWorker(0);
      try {
        await second.ready;
        const done = await until(async () => {
          const g = (await call(t.app, { url: `/api/new/generations/${String(gid)}`, token: user.token })).data.json as Generation;
          return g.status === 'succeeded' && g;
        });
        expect(done.outputs).toHaveLength(1);
      } finally {
        second.child.kill('SIGTERM');
        await stopped(second.child);
      }
      const state = await walletState(t.db, user.id);
      expect(state.balance).toEqual(state.sums);
      expect(state.balance.media).toBe(40);
      const hold = await t.db.selectFrom('generations').select('hold_id').where('id', '=', gid).executeTakeFirstOrThrow();
      const ledger = await t.db.selectFrom('wallet_ledger').select(['amount', 'reason']).where('hold_id', '=', hold.hold_id).execute();
      expect(ledger).toEqual([{ amount: -10, reason: 'generation_hold' }]);
    } finally {
      if (first.child.exitCode === null) first.child.kill('SIGKILL');
    }
  }, 90_000);
});
