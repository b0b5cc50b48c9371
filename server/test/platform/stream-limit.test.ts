import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRoutes } from '@app/contracts';
import { createDb, type Db } from '../../src/db/database.ts';
import { seedAiCatalog } from '../../src/db/seed.ts';
import { finishRun } from '../../src/features/generations/generations.queries.ts';
import { createTestApp, eventually, multipart, newUser, openStream, userWithTokens, type LiveStream, type TestApp, type TestUser } from '../support/index.ts';

/* Open event streams per user (SSE_STREAMS_PER_USER), counted by each process in its memory. */

const LIMIT = 3;
const REFUSAL = { status: 'error', code: 'STREAMS_LIMIT', text: 'Слишком много открытых потоков. Закройте лишние вкладки и попробуйте снова' };

let t: TestApp;
let other: Db;
const open: LiveStream[] = [];
beforeAll(async () => {
  t = await createTestApp({ workers: false, env: { SSE_STREAMS_PER_USER: String(LIMIT) } });
  await seedAiCatalog(t.db);
  await t.listen();
  other = createDb(t.config.databaseUrl ?? '', 2);
});
afterAll(async () => {
  for (const stream of open) stream.close();
  await other.destroy();
  await t.close();
});

/** A run of `user` left queued: its event stream stays open until the run ends or the client leaves. */
const queuedRun = async (user: TestUser) =>
  (await other.insertInto('generations').values({ user_id: user.id, product_id: null, model_id: null, variant: 'img', product_name: 'Тест', model_name: 'Тест', wallet: 'media', cost: 0 }).returning('id').executeTakeFirstOrThrow()).id;

const follow = async (user: TestUser, run: number) => {
  const stream = await openStream(`${t.baseUrl}/api/new/generations/${String(run)}/events`, { headers: { authorization: `Bearer ${user.token}` } });
  if (stream.status === 200) {
    open.push(stream);
    await stream.waitFor((e) => e.event === 'progress');
  }
  return stream;
};

const openBy = (user: TestUser) => async () => t.app.streamSlots.openBy(user.id);

describe('open event streams per user (SSE_STREAMS_PER_USER)', () => {
  it('holds the limit of a user’s streams; one more is refused with 429 in Russian; others are not affected', async () => {
    const user = await newUser(t.db);
    const run = await queuedRun(user);
    for (let i = 0; i < LIMIT; i++) expect((await follow(user, run)).status).toBe(200);
    const refused = await follow(user, run);
    expect(refused.status).toBe(429);
    expect(refused.data).toEqual(REFUSAL);
    expect(t.app.streamSlots.openBy(user.id)).toBe(LIMIT);

    const someoneElse = await newUser(t.db);
    expect((await follow(someoneElse, await queuedRun(someoneElse))).status).toBe(200);
  });

  it('counts a streamed chat answer too, refused before anything is stored or held', async () => {
    const user = await userWithTokens(t.db, 0, 10_000);
    const run = await queuedRun(user);
    for (let i = 0; i < LIMIT; i++) expect((await follow(user, run)).status).toBe(200);
    const model = await t.db.selectFrom('ai_models').select('id').where('kind', '=', 'chat').where('active', '=', true).orderBy('id').executeTakeFirstOrThrow();
    const body = multipart([
      { name: 'ai_models_id', value: String(model.id) },
      { name: 'message', value: 'Привет' },
    ]);
    const res = await fetch(`${t.baseUrl}${chatRoutes.sendStream.path}`, { method: 'POST', headers: { authorization: `Bearer ${user.token}`, accept: 'text/event-stream', ...body.headers }, body: body.payload });
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual(REFUSAL);
    expect(await t.db.selectFrom('chats').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
  });

  it('a stream whose client goes away frees its slot', async () => {
    const user = await newUser(t.db);
    const run = await queuedRun(user);
    const streams = [];
    for (let i = 0; i < LIMIT; i++) streams.push(await follow(user, run));
    expect((await follow(user, run)).status).toBe(429);
    streams[0]?.close();
    expect(await eventually(openBy(user), (n) => n === LIMIT - 1)).toBe(LIMIT - 1);
    expect((await follow(user, run)).status).toBe(200);
  });

  it('a stream that ends frees its slot', async () => {
    const user = await newUser(t.db);
    const run = await queuedRun(user);
    const streams = [];
    for (let i = 0; i < LIMIT; i++) streams.push(await follow(user, run));
    await finishRun(other, run, ['queued'], { status: 'cancelled', error: null });
    for (const stream of streams) await stream.ended;
    expect(streams.every((s) => s.events.at(-1)?.event === 'done')).toBe(true);
    expect(await eventually(openBy(user), (n) => n === 0)).toBe(0);
    const next = await queuedRun(user);
    for (let i = 0; i < LIMIT; i++) expect((await follow(user, next)).status).toBe(200);
  });

  it('a refused stream (its run not found) holds no slot', async () => {
    const user = await newUser(t.db);
    const stranger = await newUser(t.db);
    const run = await queuedRun(stranger);
    for (let i = 0; i < LIMIT + 2; i++) expect((await follow(user, run)).status).toBe(404);
    expect(t.app.streamSlots.openBy(user.id)).toBe(0);
  });
});
