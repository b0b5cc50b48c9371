import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { chatRoutes, type Generation } from '@app/contracts';
import { SEED_TARIFFS, seedAiCatalog, seedGenerationCatalog } from '../../src/db/seed.ts';
import type { TariffRow } from '../../src/features/billing/billing.table.ts';
import { closeAbandonedAnswers, ABANDONED_AFTER_MS } from '../../src/features/chat/chat.service.ts';
import { chatSend } from '../../src/features/chat/chat.queries.ts';
import { runCost } from '../../src/features/catalog/catalog.service.ts';
import { findActiveProduct } from '../../src/features/catalog/catalog.queries.ts';
import { readModelSetting } from '../../src/features/ai/model-setting.ts';
import { MAX_RUN_ATTEMPTS, completeRun, requeueStaleRuns, runGeneration } from '../../src/features/generations/generations.job.ts';
import { HOLD_SWEEP_AFTER_MINUTES, closeHoldsOfEndedWork } from '../../src/features/wallet/wallet.jobs.ts';
import { credit, placeHold } from '../../src/features/wallet/wallet.queries.ts';
import {
  call,
  createTestApp,
  multipart,
  newUser,
  nextTransactionId,
  notify,
  parseEvents,
  payFields,
  runJobStates,
  startPayment,
  startRun,
  until,
  walletState,
  type SseEvent,
  type TestApp,
  type TestUser,
} from '../support/index.ts';
import { FakeOpenAi, fakeProviderEnv } from '../support/ai-fakes.ts';

/*
 * Where tokens could be created at the edges: a refund while tokens sit in holds, holds closed
 * apart from their work, a chat deleted while another process writes its answer, caps passed by
 * concurrent requests, a text run's hold. Every test ends with balance = ledger.
 */

let t: TestApp;
/** A second web process of the same service: same database, its own answers in memory. */
let other: TestApp;
const fake = new FakeOpenAi('sk-money-edges');
let plan: TariffRow;
let fakeModel: number;
const products: Record<string, number> = {};

beforeAll(async () => {
  await fake.start();
  // No workers: runs stay queued until a test moves them.
  const providerEnv = fakeProviderEnv({ FAKE_OPENAI_API_KEY: { key: fake.apiKey, url: fake.baseUrl } });
  t = await createTestApp({ workers: false, env: { DEMO_STEP_DELAY_MS: '0', DEMO_WORD_DELAY_MS: '0', ...providerEnv } });
  other = await createTestApp({ workers: false, shareDatabaseWith: t, env: providerEnv });
  await seedAiCatalog(t.db);
  await seedGenerationCatalog(t.db);
  for (const row of await t.db.selectFrom('ai_products').select(['id', 'name']).execute()) products[row.name] = row.id;
  const base = SEED_TARIFFS[2];
  plan = await t.db
    .insertInto('tariffs')
    .values({ ...base, name: 'Мини', amount_kopecks: 10_000, words: 20_000, media_tenths: 100, description: JSON.stringify(['Для проверки']) })
    .returningAll()
    .executeTakeFirstOrThrow();
  const remote = await t.db
    .insertInto('provider_connections')
    .values({ name: 'Фейк', protocol: 'openai', base_url: fake.baseUrl, api_key_env: 'FAKE_OPENAI_API_KEY', timeout_seconds: 30 })
    .returningAll()
    .executeTakeFirstOrThrow();
  fakeModel = (
    await t.db
      .insertInto('ai_models')
      .values({ name: 'Фейк GPT', kind: 'chat', connection_id: remote.id, provider_model: 'gpt-fake', max_output_tokens: 500, words_per_token: 1 })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  await t.listen();
  await other.listen();
});
afterAll(async () => {
  await other.close();
  await t.close();
  await fake.stop();
});
beforeEach(() => {
  fake.reset();
  fake.answer = { pieces: ['Привет', '! Чем', ' помочь?'], finishReason: 'stop', promptTokens: 12, completionTokens: 5 };
});

const product = (name: string) => {
  const id = products[name];
  if (id === undefined) throw new Error(`no product ${name}`);
  return id;
};

/** Pays for the test plan through a signed Pay notification; answers the payment's transaction id. */
async function payPlan(user: TestUser): Promise<number> {
  const invoice = await startPayment(t.app, user, plan);
  const pay = payFields(invoice, user);
  expect((await notify(t.app, 'pay', pay)).code).toBe(0);
  return pay.TransactionId;
}

/** A signed Refund notification of `rubles` of the payment `transactionId`. */
const refundFields = (user: TestUser, transactionId: number, rubles: number) => ({
  TransactionId: nextTransactionId(),
  PaymentTransactionId: transactionId,
  Amount: rubles.toFixed(2),
  Currency: 'RUB',
  AccountId: String(user.id),
});

const startImage = (user: TestUser) => startRun(t.app, user, { product_id: product('Картинка по описанию'), prompt: 'Лес' });
const cancel = (app: TestApp, user: TestUser, id: number) => call(app.app, { method: 'POST', url: `/api/new/generations/${String(id)}/cancel`, token: user.token });

async function expectConsistent(userId: number) {
  const state = await walletState(t.db, userId);
  expect(state.balance).toEqual(state.sums);
  const open = await t.db.selectFrom('wallet_holds').select('id').where('user_id', '=', userId).where('status', '=', 'held').execute();
  return { ...state.balance, openHolds: open.length };
}

describe('a refund takes back the tokens that are in holds too', () => {
  it('a full refund while ten runs hold the plan’s media: the runs cancelled afterwards give their tokens to the refund, not the balance', async () => {
    const user = await newUser(t.db);
    const paid = await payPlan(user);
    const runs: Generation[] = [];
    for (let i = 0; i < 10; i++) runs.push((await startImage(user)).data.json as Generation);
    // 10 runs × 1 media token are held; 0 media is free.
    expect((await walletState(t.db, user.id)).balance.media).toBe(0);

    const refund = refundFields(user, paid, 100);
    const notices = await Promise.all([notify(t.app, 'refund', refund), notify(t.app, 'refund', refund), notify(other.app, 'refund', refund)]);
    expect(notices.map((n) => n.code)).toEqual([0, 0, 0]);
    // Each run cancelled twice, on both processes at once.
    const cancels = await Promise.all(runs.flatMap((r) => [cancel(t, user, r.id), cancel(other, user, r.id)]));
    expect(cancels.every((c) => c.statusCode === 200)).toBe(true);

    expect(await expectConsistent(user.id)).toEqual({ words: 0, media: 0, openHolds: 0 });
    const refundLines = await t.db.selectFrom('wallet_ledger').select(['kind', 'amount', 'ref_type']).where('user_id', '=', user.id).where('reason', '=', 'refund').execute();
    expect(refundLines.filter((l) => l.kind === 'media').reduce((s, l) => s + l.amount, 0)).toBe(-100);
    expect(new Set(refundLines.map((l) => l.ref_type))).toEqual(new Set(['invoice_refund']));
  });

  it('a half refund while all the media is held takes half back as the runs are cancelled', async () => {
    const user = await newUser(t.db);
    const paid = await payPlan(user);
    const runs: Generation[] = [];
    for (let i = 0; i < 10; i++) runs.push((await startImage(user)).data.json as Generation);
    expect((await notify(t.app, 'refund', refundFields(user, paid, 50))).code).toBe(0);
    await Promise.all(runs.map((r) => cancel(t, user, r.id)));
    // Half of the plan's 10 media tokens and half of its 20 000 words stay.
    expect(await expectConsistent(user.id)).toEqual({ words: 10_000, media: 50, openHolds: 0 });
  });

  it('refunds racing the cancels end the same way whichever comes first', async () => {
    const user = await newUser(t.db);
    const paid = await payPlan(user);
    const runs: Generation[] = [];
    for (let i = 0; i < 6; i++) runs.push((await startImage(user)).data.json as Generation);
    const refund = refundFields(user, paid, 100);
    await Promise.all([...runs.map((r, i) => cancel(i % 2 ? other : t, user, r.id)), notify(t.app, 'refund', refund), notify(other.app, 'refund', refund)]);
    expect(await expectConsistent(user.id)).toEqual({ words: 0, media: 0, openHolds: 0 });
  });

  it('a run that succeeds after the refund keeps what it spent; only what it gives back goes to the refund', async () => {
    const user = await newUser(t.db);
    // 20 000 words and 10 media from the plan, plus 3 media of the user's own from before.
    await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'media', reason: 'welcome_gift', idempotencyKey: `own-${String(user.id)}` }, 30));
    const paid = await payPlan(user);
    const runs: Generation[] = [];
    for (let i = 0; i < 10; i++) runs.push((await startImage(user)).data.json as Generation);
    expect((await walletState(t.db, user.id)).balance.media).toBe(30);
    expect((await notify(t.app, 'refund', refundFields(user, paid, 100))).code).toBe(0);
    // The refund took the 3 free media tokens at once and claims 7 from the holds.
    expect((await walletState(t.db, user.id)).balance.media).toBe(0);
    const first = runs[0];
    if (!first) throw new Error('no run');
    await t.db.updateTable('generations').set({ status: 'running' }).where('id', '=', first.id).execute();
    expect(await completeRun(t.ctx, { id: first.id, user_id: user.id }, { files: [], text: null, cost: 10 })).toBe(true);
    await Promise.all(runs.slice(1).map((r) => cancel(t, user, r.id)));
    // One run's media token was really spent; 9 came back, 6 of them to the refund (the spent run's
    // claim went unpaid): the user keeps the 3 media tokens they had before the payment.
    expect(await expectConsistent(user.id)).toEqual({ words: 0, media: 30, openHolds: 0 });
  });

  it('chat answers being written when the payment is refunded: what they give back goes to the refund', async () => {
    const user = await newUser(t.db);
    const paid = await payPlan(user);
    fake.behaviour = { kind: 'stalled_stream', afterChunks: 2 };
    const streams = [];
    for (let i = 0; i < 3; i++) streams.push(await openStream(t, user, `Вопрос ${String(i)}`));
    const starts: { chat_id: number }[] = [];
    for (const s of streams) {
      starts.push((await s.next())?.data as { chat_id: number });
      await s.next();
      await s.next();
    }
    expect((await notify(t.app, 'refund', refundFields(user, paid, 100))).code).toBe(0);
    for (const start of starts) await call(other.app, { method: 'POST', url: `/api/new/chat/${String(start.chat_id)}/stop`, token: user.token });
    for (const s of streams) expect((await s.next())?.data).toMatchObject({ status: 'stopped' });
    // Each answer wrote «Привет! Чем» and is charged for it; the plan's words are otherwise all taken back.
    const state = await expectConsistent(user.id);
    expect(state).toEqual({ words: 0, media: 0, openHolds: 0 });
    const charged = await t.db.selectFrom('chat_messages').select(['words']).where('user_id', '=', user.id).where('role', '=', 'assistant').execute();
    expect(charged.every((m) => m.words > 0)).toBe(true);
  });
});

describe('a hold is closed only together with its work', () => {
  const age = (holdId: number, minutes: number) =>
    t.db.updateTable('wallet_holds').set({ created_at: new Date(Date.now() - minutes * 60_000) } as never).where('id', '=', holdId).execute();
  const holdOf = async (generationId: number) => (await t.db.selectFrom('generations').select('hold_id').where('id', '=', generationId).executeTakeFirstOrThrow()).hold_id ?? 0;

  it('a run still going after hours (a long video, a long queue) keeps its hold, and its history and ledger agree when it ends', async () => {
    const user = await newUser(t.db);
    await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'media', reason: 'admin_adjustment', idempotencyKey: `m-${String(user.id)}` }, 100));
    const queued = (await startImage(user)).data.json as Generation;
    const video = (await startRun(t.app, user, { product_id: product('Видео по описанию'), prompt: 'Море' })).data.json as Generation;
    const videoCost = Math.round(video.cost.amount * 10);
    await t.db.updateTable('generations').set({ status: 'running' }).where('id', '=', video.id).execute();
    await age(await holdOf(queued.id), 180);
    await age(await holdOf(video.id), 180);
    await closeHoldsOfEndedWork(t.ctx);
    expect((await walletState(t.db, user.id)).balance.media).toBe(100 - 10 - videoCost);
    expect(await completeRun(t.ctx, { id: video.id, user_id: user.id }, { files: [], text: null, cost: videoCost })).toBe(true);
    await cancel(t, user, queued.id);
    const history = (await call(t.app, { url: `/api/new/generations/${String(video.id)}`, token: user.token })).data.json as Generation;
    expect(history).toMatchObject({ status: 'succeeded', cost: { wallet: 'media', amount: videoCost / 10 } });
    const spent = await t.db.selectFrom('wallet_holds').select(['spent', 'status']).where('id', '=', await holdOf(video.id)).executeTakeFirstOrThrow();
    expect(spent).toEqual({ spent: videoCost, status: 'settled' });
    expect(await expectConsistent(user.id)).toEqual({ words: 0, media: 100 - videoCost, openHolds: 0 });
  });

  it('a hold left open by work that ended is closed as the work ended: kept for a success or a closed answer, returned otherwise', async () => {
    const user = await newUser(t.db);
    await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'media', reason: 'admin_adjustment', idempotencyKey: `m2-${String(user.id)}` }, 100));
    const done = (await startImage(user)).data.json as Generation;
    const failed = (await startImage(user)).data.json as Generation;
    // Records ended without their holds, as a crash between two writes of an older version left them.
    await t.db.updateTable('generations').set({ status: 'succeeded' }).where('id', '=', done.id).execute();
    await t.db.updateTable('generations').set({ status: 'failed' }).where('id', '=', failed.id).execute();
    const workless = await placeHold(t.db, { userId: user.id, kind: 'media', amount: 5, idempotencyKey: `workless-${String(user.id)}` });
    const young = await placeHold(t.db, { userId: user.id, kind: 'media', amount: 5, idempotencyKey: `young-${String(user.id)}` });
    for (const id of [await holdOf(done.id), await holdOf(failed.id), workless.id]) await age(id, HOLD_SWEEP_AFTER_MINUTES + 1);
    expect(await closeHoldsOfEndedWork(t.ctx)).toBeGreaterThanOrEqual(3);
    const rows = await t.db.selectFrom('wallet_holds').select(['id', 'status', 'spent']).where('user_id', '=', user.id).orderBy('id').execute();
    expect(rows).toEqual([
      { id: await holdOf(done.id), status: 'settled', spent: 10 },
      { id: await holdOf(failed.id), status: 'released', spent: 0 },
      { id: workless.id, status: 'released', spent: 0 },
      { id: young.id, status: 'held', spent: null },
    ]);
    expect(await expectConsistent(user.id)).toEqual({ words: 0, media: 85, openHolds: 1 });
  });
});

describe('abandoned work is found by its sweepers, which end it with its hold', () => {
  it('a queued run whose job is gone is sent again; a run started too many times fails with its tokens back', async () => {
    const user = await newUser(t.db);
    await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'media', reason: 'admin_adjustment', idempotencyKey: `ab-${String(user.id)}` }, 100));
    const lost = (await startImage(user)).data.json as Generation;
    const waiting = (await startImage(user)).data.json as Generation;
    // `lost`'s job failed for good; `waiting` is in a long queue (its job is still there). Both are old.
    await sql`update pgboss.job set state = 'failed' where name = 'generations.run' and data->>'generationId' = ${String(lost.id)}`.execute(t.db);
    await t.db.updateTable('generations').set({ updated_at: new Date(Date.now() - 3_600_000) }).where('id', 'in', [lost.id, waiting.id]).execute();
    expect(await requeueStaleRuns(t.ctx)).toBe(1);
    expect(await runJobStates(t.db, lost.id)).toEqual(['failed', 'created']);

    await t.db.updateTable('generations').set({ attempts: MAX_RUN_ATTEMPTS }).where('id', '=', lost.id).execute();
    await runGeneration(t.ctx, lost.id, { id: 'test', attempt: 1, signal: new AbortController().signal });
    const failed = (await call(t.app, { url: `/api/new/generations/${String(lost.id)}`, token: user.token })).data.json as Generation;
    expect(failed).toMatchObject({ status: 'failed', refunded: true });
    expect(await expectConsistent(user.id)).toEqual({ words: 0, media: 90, openHolds: 1 });
  });

  it('a queued run whose worker died after fetching its job, before starting it, is sent again; one fetched just now is left to its worker', async () => {
    const user = await newUser(t.db);
    await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'media', reason: 'admin_adjustment', idempotencyKey: `fetched-${String(user.id)}` }, 100));
    const orphaned = (await startImage(user)).data.json as Generation;
    const starting = (await startImage(user)).data.json as Generation;
    // Both jobs fetched (active), neither run started: `orphaned`'s worker a minute ago (it died), `starting`'s a moment ago.
    const fetched = (id: number, secondsAgo: number) =>
      sql`update pgboss.job set state = 'active', started_on = now() - make_interval(secs => ${secondsAgo}) where name = 'generations.run' and data->>'generationId' = ${String(id)}`.execute(t.db);
    await fetched(orphaned.id, 60);
    await fetched(starting.id, 0);
    await t.db.updateTable('generations').set({ updated_at: new Date(Date.now() - 60_000) }).where('id', 'in', [orphaned.id, starting.id]).execute();
    // Two sweeps at once (two processes' schedules): the run is claimed by one of them, sent once.
    const sent = await Promise.all([requeueStaleRuns(t.ctx), requeueStaleRuns(t.ctx)]);
    expect(sent.sort()).toEqual([0, 1]);
    expect(await runJobStates(t.db, orphaned.id)).toEqual(['active', 'created']);
    expect(await runJobStates(t.db, starting.id)).toEqual(['active']);
    // Sent once: the next sweep finds its new job waiting.
    await t.db.updateTable('generations').set({ updated_at: new Date(Date.now() - 60_000) }).where('id', '=', orphaned.id).execute();
    expect(await requeueStaleRuns(t.ctx)).toBe(0);
    // The new job runs it to its end, charged once.
    await runGeneration(t.ctx, orphaned.id, { id: 'test', attempt: 1, signal: new AbortController().signal });
    const done = (await call(t.app, { url: `/api/new/generations/${String(orphaned.id)}`, token: user.token })).data.json as Generation;
    expect(done.status).toBe('succeeded');
    expect(await expectConsistent(user.id)).toEqual({ words: 0, media: 80, openHolds: 1 });
  });
});

/** A streamed send over a real connection to `app`: events as they come. */
async function openStream(app: TestApp, user: TestUser, message: string, chatId?: number): Promise<{ next: () => Promise<SseEvent | null> }> {
  const parts = [
    { name: 'ai_models_id', value: String(fakeModel) },
    { name: 'message', value: message },
    ...(chatId === undefined ? [] : [{ name: 'chat_id', value: String(chatId) }]),
  ];
  const body = multipart(parts);
  const res = await fetch(`${app.baseUrl}${chatRoutes.sendStream.path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, accept: 'text/event-stream', ...body.headers },
    body: body.payload,
  });
  expect(res.status).toBe(200);
  const reader = res.body?.getReader();
  if (!reader) throw new Error('no body');
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    next: async () => {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end + 2);
          buffer = buffer.slice(end + 2);
          const parsed = parseEvents(block).events[0];
          if (parsed) return parsed;
          continue;
        }
        const chunk = (await reader.read()) as { done: boolean; value?: Uint8Array };
        if (chunk.done) return null;
        buffer += decoder.decode(chunk.value, { stream: true });
      }
    },
  };
}

describe('a chat deleted while another process writes its answer', () => {
  it('the answer is still charged for what it wrote; the chat is hidden at once and gone once the answer is closed', async () => {
    const user = await newUser(t.db);
    await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `w-${String(user.id)}` }, 10_000));
    fake.behaviour = { kind: 'stalled_stream', afterChunks: 2 };
    const stream = await openStream(t, user, 'Расскажи что-нибудь');
    const start = (await stream.next())?.data as { chat_id: number; message_id: number };
    await stream.next();
    await stream.next();

    const res = await call(other.app, { method: 'DELETE', url: `/api/new/chat/${String(start.chat_id)}`, token: user.token });
    expect(res.data.json).toEqual({ deleted: true });
    expect((await call(other.app, { url: `/api/new/chat/${String(start.chat_id)}`, token: user.token })).statusCode).toBe(404);
    expect((await call(t.app, { url: '/api/new/chat?page=1', token: user.token })).data.json).toMatchObject({ data: [] });
    // The process writing it was told to stop: it stores and charges what it wrote.
    expect((await stream.next())?.data).toMatchObject({ status: 'stopped', message: 'Привет! Чем' });
    await until(async () => (await t.db.selectFrom('chats').select('id').where('id', '=', start.chat_id).executeTakeFirst()) === undefined);
    const hold = await t.db
      .selectFrom('wallet_holds')
      .select(['status', 'spent'])
      .where('idempotency_key', '=', `chat-answer:${String(start.message_id)}`)
      .executeTakeFirstOrThrow();
    expect(hold.status).toBe('settled');
    expect(hold.spent).toBeGreaterThan(0);
    expect(await expectConsistent(user.id)).toEqual({ words: 10_000 - (hold.spent ?? 0), media: 0, openHolds: 0 });
  });

  it('when the process writing it died, the abandoned-answer job charges the saved text and removes the chat', async () => {
    const user = await newUser(t.db);
    await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `w2-${String(user.id)}` }, 1_000));
    const chat = await t.db.insertInto('chats').values({ user_id: user.id, title: 'Сбой', model_id: fakeModel }).returning('id').executeTakeFirstOrThrow();
    const answer = await t.db
      .insertInto('chat_messages')
      .values({ chat_id: chat.id, user_id: user.id, role: 'assistant', status: 'generating', model_id: fakeModel, model_name: 'Фейк GPT', text: 'Оборванный ответ' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const hold = await placeHold(t.db, { userId: user.id, kind: 'words', amount: 300, idempotencyKey: `chat-answer:${String(answer.id)}` });
    await t.db.updateTable('chat_messages').set({ hold_id: hold.id }).where('id', '=', answer.id).execute();

    expect((await call(t.app, { method: 'DELETE', url: `/api/new/chat/${String(chat.id)}`, token: user.token })).data.json).toEqual({ deleted: true });
    expect((await walletState(t.db, user.id)).balance.words).toBe(700);
    await t.db.updateTable('chat_messages').set({ updated_at: new Date(Date.now() - ABANDONED_AFTER_MS - 1000) }).where('id', '=', answer.id).execute();
    expect(await closeAbandonedAnswers(t.ctx)).toBe(1);
    expect(await t.db.selectFrom('chats').select('id').where('id', '=', chat.id).executeTakeFirst()).toBeUndefined();
    // «Оборванный ответ»: 16 characters, about three a token.
    expect(await expectConsistent(user.id)).toEqual({ words: 1_000 - 6, media: 0, openHolds: 0 });
  });

  it('the send commits durably: its hold cannot be lost to a crash after the answer started', async () => {
    const user = await newUser(t.db);
    await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `w3-${String(user.id)}` }, 1_000));
    const setting = await t.db.transaction().execute(async (tx) => {
      const sent = await chatSend(tx, { user_id: user.id, title: 'Проверка', model_id: fakeModel, model_name: 'Фейк GPT', param: null, message: 'Привет', rate: 1, base_tokens: 10, history_limit: 20, file_ids: [], max_answers: 3 });
      expect(sent.status).toBe('ok');
      return (await sql<{ value: string }>`select current_setting('synchronous_commit') as value`.execute(tx)).rows[0]?.value;
    });
    expect(setting).toBe('on');
  });
});

describe('caps that concurrent requests cannot pass together', () => {
  it('30 starts at once: exactly 10 runs are accepted, the rest get 429, nothing else is stored or held', async () => {
    const user = await newUser(t.db);
    await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'media', reason: 'admin_adjustment', idempotencyKey: `c-${String(user.id)}` }, 1_000));
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => startRun((i % 2 ? other : t).app, user, { product_id: product('Картинка по описанию'), prompt: `Лес ${String(i)}` })));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.filter((c) => c === 429)).toHaveLength(20);
    for (const r of results.filter((x) => x.statusCode === 429)) expect(r.data.code).toBe('GENERATIONS_BUSY');
    const stored = await t.db.selectFrom('generations').select('id').where('user_id', '=', user.id).execute();
    expect(stored).toHaveLength(10);
    expect(await expectConsistent(user.id)).toEqual({ words: 0, media: 1_000 - 100, openHolds: 10 });
  });

  it('answers being written at once: six sends into new chats, three are answered and three get a Russian 429', async () => {
    const user = await newUser(t.db);
    await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `a-${String(user.id)}` }, 100_000));
    fake.behaviour = { kind: 'stalled_stream', afterChunks: 1 };
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) => {
        const body = multipart([
          { name: 'ai_models_id', value: String(fakeModel) },
          { name: 'message', value: `Чат ${String(i)}` },
        ]);
        return fetch(`${(i % 2 ? other : t).baseUrl}${chatRoutes.sendStream.path}`, { method: 'POST', headers: { authorization: `Bearer ${user.token}`, ...body.headers }, body: body.payload });
      }),
    );
    // The accepted ones are streams of answers that stall; the refused ones plain error replies.
    expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429, 429]);
    for (const r of replies.filter((x) => x.status === 429)) {
      expect(await r.json()).toMatchObject({ code: 'ANSWERS_BUSY', text: 'Дождитесь окончания ответов в других чатах: одновременно пишется не больше 3' });
    }
    await Promise.all([t.ctx.chatRuns.stopAll(), other.ctx.chatRuns.stopAll()]);
    for (const r of replies.filter((x) => x.status === 200)) await r.text();
    expect(await t.db.selectFrom('chats').select('id').where('user_id', '=', user.id).execute()).toHaveLength(3);
    expect((await expectConsistent(user.id)).openHolds).toBe(0);
  });

  it('a send takes the user’s cap lock last, after writing its rows; over the cap under the lock, nothing it wrote stays', async () => {
    const user = await newUser(t.db);
    await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `l-${String(user.id)}` }, 10_000));
    const model = await t.db.selectFrom('ai_models').select(['id', 'name']).where('kind', '=', 'chat').orderBy('id').executeTakeFirstOrThrow();
    let release = () => {};
    const holding = new Promise<void>((resolve) => (release = resolve));
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    // Another send holding the user's lock, whose commit brings the answers being written to the cap.
    const other = t.db.transaction().execute(async (tx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`chat-answers:${String(user.id)}`}, 0))`.execute(tx);
      const chat = await tx.insertInto('chats').values({ user_id: user.id, title: 'Другой' }).returning('id').executeTakeFirstOrThrow();
      await tx.insertInto('chat_messages').values(Array.from({ length: 3 }, () => ({ chat_id: chat.id, user_id: user.id, role: 'assistant' as const, status: 'generating' as const }))).execute();
      locked();
      await holding;
      return chat.id;
    });
    await isLocked;
    const send = chatSend(t.db, { user_id: user.id, title: 'Новый', model_id: model.id, model_name: model.name, param: null, message: 'Привет', rate: 1, base_tokens: 300, history_limit: 20, file_ids: [], max_answers: 3 });
    // The send waits for the lock with its rows already written (its transaction has an id). Only
    // its own wait counts: the app's background work may wait on other advisory locks meanwhile.
    for (;;) {
      const { rows } = await sql<{ xid: string | null }>`select backend_xid::text as xid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory' and query like 'select chat_send(%'`.execute(t.db);
      if (rows.length) {
        expect(rows[0]?.xid).not.toBeNull();
        break;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    release();
    const otherChat = await other;
    expect(await send).toEqual({ status: 'too_many' });
    expect(await t.db.selectFrom('chats').select('id').where('user_id', '=', user.id).execute()).toEqual([{ id: otherChat }]);
    expect(await t.db.selectFrom('wallet_holds').select('id').where('user_id', '=', user.id).execute()).toHaveLength(0);
    expect((await expectConsistent(user.id)).openHolds).toBe(0);
  });
});

describe('a text run holds the bound of the prompt it sends', () => {
  it('the user’s long fields are in the hold, and the run never costs more than it', async () => {
    const user = await newUser(t.db);
    await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `tx-${String(user.id)}` }, 100_000));
    const id = product('Описание товара');
    const row = await findActiveProduct(t.db, id);
    if (!row) throw new Error('no product');
    const param = readModelSetting(row.setting).model.params[0];
    const features = '!'.repeat(1000);
    const res = await startRun(t.app, user, { product_id: id, fields: JSON.stringify({ product: 'Кружка', features }) });
    expect(res.statusCode).toBe(200);
    const hold = await t.db.selectFrom('wallet_holds').select('amount').where('user_id', '=', user.id).executeTakeFirstOrThrow();
    const templateOnly = runCost(row, param).amount;
    // A thousand punctuation marks are up to a thousand tokens more than the bare template (less its «{features}»).
    expect(hold.amount).toBeGreaterThan(templateOnly + 980);
    expect(hold.amount).toBe(runCost(row, param, `Составь продающее описание товара «Кружка». Особенности: ${features}.`).amount);
  });
});
