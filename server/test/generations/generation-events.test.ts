import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Generation } from '@app/contracts';
import { createDb, poolOf, type Db } from '../../src/db/database.ts';
import { seedAiCatalog, seedGenerationCatalog } from '../../src/db/seed.ts';
import { finishRun, markRunning, setProgress } from '../../src/features/generations/generations.queries.ts';
import { createTestApp, eventually, newUser, openStream, startRun, userWithTokens, type TestApp, type TestUser } from '../support/index.ts';

/*
 * `GET /api/new/generations/:id/events` follows a run by NOTIFY: every change of its status or
 * progress is told on commit to every process, so a stream in one app sees a run that a worker
 * of another app runs, reads the run only when it opens and when it is final, and is read again
 * when the notification connection comes back.
 */

let a: TestApp;
let b: TestApp | undefined;
/** The database as another process sees it: changes made here are nobody's in app A. */
let other: Db;

beforeAll(async () => {
  a = await createTestApp({ workers: false });
  await seedAiCatalog(a.db);
  await seedGenerationCatalog(a.db);
  await a.listen();
  other = createDb(a.config.databaseUrl ?? '', 2);
});
afterAll(async () => {
  await b?.close();
  await other.destroy();
  await a.close();
});

const eventsOf = (user: TestUser, id: number) => openStream(`${a.baseUrl}/api/new/generations/${String(id)}/events`, { headers: { authorization: `Bearer ${user.token}` } });

/** A run of `user` left queued with no job (nothing but the test moves it). */
const queuedRun = async (user: TestUser) =>
  (await other.insertInto('generations').values({ user_id: user.id, product_id: null, model_id: null, variant: 'img', product_name: 'Тест', model_name: 'Тест', wallet: 'media', cost: 0 }).returning('id').executeTakeFirstOrThrow()).id;

type Progress = { status: string; progress: number };
const rank = (p: Progress) => (p.status === 'queued' ? 0 : p.status === 'running' ? 1 : 2) * 1000 + p.progress;

describe('generation progress by notification', () => {
  it('a run’s progress and its end reach a stream opened on another app, whose worker runs it', { timeout: 60_000 }, async () => {
    const user = await userWithTokens(a.db, 5);
    const product = await a.db.selectFrom('ai_products').select('id').where('name', '=', 'Картинка по описанию').executeTakeFirstOrThrow();
    const g = (await startRun(a.app, user, { product_id: product.id, prompt: 'Горы' })).data.json as Generation;
    const stream = await eventsOf(user, g.id);
    expect(stream.status).toBe(200);
    expect((await stream.waitFor((e) => e.event === 'progress')).data).toEqual({ status: 'queued', progress: 0 });

    // App A has no workers: the run waits for app B, started now, to run it.
    b = await createTestApp({ shareDatabaseWith: a, env: { DEMO_STEP_DELAY_MS: '30' } });
    const done = await stream.waitFor((e) => e.event === 'done', 30_000);
    expect(done.data).toMatchObject({ id: g.id, status: 'succeeded', progress: 100 });
    expect((done.data as Generation).outputs).toHaveLength(1);
    await stream.ended;
    const progress = stream.events.filter((e) => e.event === 'progress').map((e) => e.data as Progress);
    expect(progress.some((p) => p.status === 'running')).toBe(true);
    expect(progress.at(-1)).toEqual({ status: 'succeeded', progress: 100 });
    // Each event further on than the one before; `done` comes last, once.
    for (let i = 1; i < progress.length; i++) expect(rank(progress[i] as Progress)).toBeGreaterThan(rank(progress[i - 1] as Progress));
    expect(stream.events.filter((e) => e.event === 'done')).toHaveLength(1);
    expect(stream.events.at(-1)?.event).toBe('done');
  });

  it('reads the run once when streams open and once when it is final, however many changes come between', async () => {
    const user = await newUser(a.db);
    const id = await queuedRun(user);
    const pool = poolOf(a.db);
    if (!pool) throw new Error('no pool');
    const reads = vi.spyOn(pool, 'connect');
    try {
      const streams = [];
      for (let i = 0; i < 3; i++) {
        const stream = await eventsOf(user, id);
        await stream.waitFor((e) => e.event === 'progress');
        streams.push(stream);
      }
      await markRunning(other, id);
      // Each change is waited for: a stream sends the run's latest state, so changes that come
      // closer together than it writes are one event (that coalescing is not what this counts).
      for (const stream of streams) await stream.waitFor((e) => e.event === 'progress' && (e.data as Progress).status === 'running');
      for (let step = 10; step <= 90; step += 10) {
        await setProgress(other, id, step);
        for (const stream of streams) await stream.waitFor((e) => e.event === 'progress' && (e.data as Progress).progress === step);
      }
      await finishRun(other, id, ['running'], { status: 'failed', error: 'Сбой провайдера' });
      for (const stream of streams) {
        expect((await stream.waitFor((e) => e.event === 'done')).data).toMatchObject({ id, status: 'failed', progress: 90, error: 'Сбой провайдера' });
        expect(stream.events.map((e) => (e.event === 'done' ? 'done' : `${(e.data as Progress).status} ${String((e.data as Progress).progress)}`))).toEqual([
          'queued 0',
          'running 0',
          ...[10, 20, 30, 40, 50, 60, 70, 80, 90].map((p) => `running ${String(p)}`),
          'failed 90',
          'done',
        ]);
      }
      // One read of the run at the first open; its final state and outputs (two statements) once for all three.
      expect(reads.mock.calls.length).toBeLessThanOrEqual(3);
    } finally {
      reads.mockRestore();
    }
  });

  it('a stream whose run is not the user’s is not found; a closed stream is forgotten', async () => {
    const owner = await newUser(a.db);
    const stranger = await newUser(a.db);
    const id = await queuedRun(owner);
    const refused = await eventsOf(stranger, id);
    expect(refused.status).toBe(404);
    expect(refused.data.code).toBe('NOT_FOUND');
    const before = a.ctx.generationEvents.followed;
    const stream = await eventsOf(owner, id);
    await stream.waitFor((e) => e.event === 'progress');
    expect(a.ctx.generationEvents.followed).toBe(before + 1);
    stream.close();
    await eventually(async () => a.ctx.generationEvents.followed, (n) => n === before);
    expect(a.ctx.generationEvents.followed).toBe(before);
  });

  it('a closing server ends its progress streams instead of waiting for their runs to end', async () => {
    const closing = await createTestApp({ shareDatabaseWith: a, workers: false });
    const url = await closing.listen();
    const user = await newUser(a.db);
    const stream = await openStream(`${url}/api/new/generations/${String(await queuedRun(user))}/events`, { headers: { authorization: `Bearer ${user.token}` } });
    await stream.waitFor((e) => e.event === 'progress');
    await closing.close();
    await stream.ended;
    expect(stream.events.map((e) => e.event)).toEqual(['progress']);
  });

  it('after the notification connection is lost and comes back, reads the run again and still ends the stream', async () => {
    const user = await newUser(a.db);
    const id = await queuedRun(user);
    const stream = await eventsOf(user, id);
    await stream.waitFor((e) => e.event === 'progress');
    const listeners = async () => (await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database() and application_name = 'listener'`.execute(other)).rows.map((r) => r.pid);
    const lost = await listeners();
    expect(lost.length).toBeGreaterThan(0);
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = 'listener'`.execute(other);
    await eventually(listeners, (now) => !now.some((pid) => lost.includes(pid)));
    // Changed while the connection is down (or just back: then told as usual); the stream ends either way.
    await markRunning(other, id);
    await finishRun(other, id, ['running'], { status: 'failed', error: 'Сбой провайдера' });
    expect((await stream.waitFor((e) => e.event === 'done')).data).toMatchObject({ id, status: 'failed', error: 'Сбой провайдера' });
    await stream.ended;
  });
});
