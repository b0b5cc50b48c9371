import crypto from 'node:crypto';
import { createDb } from '../../server/src/db/database.ts';
import { credit } from '../../server/src/features/wallet/wallet.queries.ts';
import { newUser } from '@app/server/testing';
import { startServer } from './server.ts';
import { runWhenMain } from './standalone.ts';

/** Runs of generations through the job queue on the demo provider. */
export interface QueueReport {
  /** Runs started at once, and how many finished a second (one process, its 2 workers). */
  burst: number;
  runsPerSecond: number;
  /** From the run's commit (created) to its job starting it, one run at a time. */
  startLatencyP50Ms: number;
  startLatencyP99Ms: number;
  samples: number;
  targetStartP50Ms: number;
}

/** Runs started at once, 10 for each of BURST / 10 users. */
const BURST = 40;
const SAMPLES = 30;
export const QUEUE_START_TARGET_MS = 50;

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? NaN;

function multipart(fields: Record<string, string>): { body: Buffer; type: string } {
  const boundary = `bench${crypto.randomBytes(8).toString('hex')}`;
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  return { body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`), type: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Generations through the queue on the demo provider (no pauses): a burst of runs started at
 * once and how many finish a second; then runs one at a time and the time from each run's commit
 * to its job starting it (the NOTIFY sent with the commit wakes a worker at once).
 */
export async function measureQueue(): Promise<QueueReport> {
  const server = await startServer({ DEMO_STEP_DELAY_MS: '0' }, { work: true });
  const db = createDb(server.databaseUrl, 2);
  try {
    // Ten users: a user may have at most 10 runs queued or running.
    const users = [server.user, ...(await Promise.all(Array.from({ length: BURST / 10 - 1 }, () => newUser(db))))];
    for (const user of users) await db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'media', reason: 'admin_adjustment', idempotencyKey: `bench-queue-${String(user.id)}` }, 1_000_000));
    const product = await db.selectFrom('ai_products').select('id').where('variant', '=', 'img').orderBy('id').executeTakeFirstOrThrow();
    const startRun = async (i: number) => {
      // A small picture: the queue is measured, not the drawing.
      const { body, type } = multipart({ product_id: String(product.id), prompt: `Бенч ${String(i)}` });
      const user = users[i % users.length] ?? server.user;
      const res = await fetch(`${server.baseUrl}/api/new/generations`, { method: 'POST', headers: { authorization: `Bearer ${user.token}`, 'content-type': type }, body });
      if (res.status !== 200) throw new Error(`queue bench: start answered ${String(res.status)}: ${await res.text()}`);
      return ((await res.json()) as { json: { id: number } }).json.id;
    };
    const waitAll = async (ids: number[]) => {
      for (;;) {
        const open = await db.selectFrom('generations').select('id').where('id', 'in', ids).where('status', 'in', ['queued', 'running']).execute();
        if (open.length === 0) return;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    // Warm-up.
    await waitAll(await Promise.all([0, 1, 2, 3].map(startRun)));

    const began = performance.now();
    const burst = await Promise.all(Array.from({ length: BURST }, (_, i) => startRun(i)));
    await waitAll(burst);
    const seconds = (performance.now() - began) / 1000;

    const latencies: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const id = await startRun(i);
      await waitAll([id]);
      const row = await db.selectFrom('generations').select(['created_at', 'started_at', 'status']).where('id', '=', id).executeTakeFirstOrThrow();
      if (row.status !== 'succeeded' || !row.started_at) throw new Error(`queue bench: run ${String(id)} ended ${row.status}`);
      latencies.push(row.started_at.getTime() - row.created_at.getTime());
    }
    const failed = await db.selectFrom('generations').select('id').where('status', '!=', 'succeeded').execute();
    if (failed.length) throw new Error(`queue bench: ${String(failed.length)} runs did not succeed`);
    return {
      burst: BURST,
      runsPerSecond: Math.round((BURST / seconds) * 10) / 10,
      startLatencyP50Ms: quantile(latencies, 0.5),
      startLatencyP99Ms: quantile(latencies, 0.99),
      samples: SAMPLES,
      targetStartP50Ms: QUEUE_START_TARGET_MS,
    };
  } finally {
    await db.destroy();
    await server.close();
  }
}

// `node --import tsx bench/src/queue.ts` measures only this.
runWhenMain(import.meta.url, measureQueue);
