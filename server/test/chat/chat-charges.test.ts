import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chatRoutes } from '@app/contracts';
import { credit } from '../../src/features/wallet/wallet.queries.ts';
import { SYSTEM_PROMPT } from '../../src/features/chat/chat.service.ts';
import { inputTokensEstimate, outputTokensEstimate, wordsFor } from '../../src/features/chat/chat-pricing.ts';
import { call, createTestApp, multipart, newUser, parseEvents, until, walletState, type Part, type SseEvent, type TestApp, type TestUser } from '../support/index.ts';
import { FakeOpenAi, fakeProviderEnv } from '../support/ai-fakes.ts';

/*
 * What an answer is charged when it is stopped before its first word (the provider read the
 * whole prompt) and when the provider's usage is missing or not a count: every answer is charged
 * for what the provider received, stated in the balance history, and its hold is settled.
 */

let t: TestApp;
let baseUrl: string;
const fake = new FakeOpenAi('sk-chat-charges');
let model: number;
/** Words per token of the model. */
const RATE = 1.5;

beforeAll(async () => {
  await fake.start();
  t = await createTestApp({ env: { DEMO_WORD_DELAY_MS: '0', ...fakeProviderEnv({ FAKE_OPENAI_API_KEY: { key: fake.apiKey, url: fake.baseUrl } }) } });
  baseUrl = await t.listen();
  const remote = await t.db
    .insertInto('provider_connections')
    .values({ name: 'Фейк', protocol: 'openai', base_url: fake.baseUrl, api_key_env: 'FAKE_OPENAI_API_KEY', timeout_seconds: 5 })
    .returning('id')
    .executeTakeFirstOrThrow();
  model = (
    await t.db
      .insertInto('ai_models')
      .values({ name: 'Фейк GPT', kind: 'chat', connection_id: remote.id, provider_model: 'gpt-fake', max_output_tokens: 100, words_per_token: RATE, setting: JSON.stringify({ model: { params: [] } }) })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});
beforeEach(() => {
  fake.reset();
  fake.answer = { pieces: ['Привет', '! Чем', ' помочь?'], finishReason: 'stop', promptTokens: 12, completionTokens: 5 };
});

async function richUser(words = 10_000): Promise<TestUser> {
  const user = await newUser(t.db);
  await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `charges-${String(user.id)}` }, words));
  return user;
}

const parts = (message: string): Part[] => [
  { name: 'ai_models_id', value: String(model) },
  { name: 'message', value: message },
];

/** The input estimate of a first message (the system prompt and the question). */
const estimate = (message: string) =>
  inputTokensEstimate('openai', [
    { role: 'system', text: SYSTEM_PROMPT },
    { role: 'user', text: message },
  ]);

/** A streamed send over a real connection: events as they come. */
async function openStream(user: TestUser, message: string): Promise<{ next: () => Promise<SseEvent | null> }> {
  const body = multipart(parts(message));
  const res = await fetch(`${baseUrl}${chatRoutes.sendStream.path}`, { method: 'POST', headers: { authorization: `Bearer ${user.token}`, accept: 'text/event-stream', ...body.headers }, body: body.payload });
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
          const parsed = parseEvents(buffer.slice(0, end + 2)).events[0];
          buffer = buffer.slice(end + 2);
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

/** Stops an answer before its first word: the provider has the prompt and writes nothing until stopped. */
async function stopBeforeFirstWord(user: TestUser, message: string) {
  fake.behaviour = { kind: 'stalled_stream', afterChunks: 0 };
  const stream = await openStream(user, message);
  const start = (await stream.next())?.data as { chat_id: number; message_id: number };
  // The provider has received the request (its stream is open and stalled).
  await until(async () => fake.chatBodies.length > 0, 5_000, 10);
  const stop = await call(t.app, { method: 'POST', url: `/api/new/chat/${String(start.chat_id)}/stop`, token: user.token, payload: {} });
  expect(stop.data.json).toEqual({ stopped: true });
  const done = await stream.next();
  expect(done?.event).toBe('done');
  return { start, result: done?.data as { message: string; status: string; words: number; balances: { words: number } } };
}

const answerRow = (id: number) => t.db.selectFrom('chat_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const holdOf = (id: number | null) => t.db.selectFrom('wallet_holds').select(['amount', 'spent', 'status']).where('id', '=', id ?? 0).executeTakeFirstOrThrow();

async function historyLines(user: TestUser) {
  const res = await call(t.app, { method: 'GET', url: '/api/new/balance/history?page=1', token: user.token });
  expect(res.statusCode).toBe(200);
  return (res.data.json as { data: { amount: number; kind: string; title: string; wallet: string }[] }).data;
}

describe('an answer stopped before its first word', () => {
  it('is charged the estimate of the prompt the provider received, stated in the history like any answer', async () => {
    const user = await richUser();
    const message = 'Расскажи подробно историю Древнего Рима от основания до падения. '.repeat(20).trim();
    const { start, result } = await stopBeforeFirstWord(user, message);
    const expected = wordsFor(estimate(message), RATE);
    expect(expected).toBeGreaterThan(0);
    expect(result).toMatchObject({ message: '', status: 'stopped', words: expected });
    const row = await answerRow(start.message_id);
    expect(row).toMatchObject({ status: 'stopped', words: expected, text: '' });
    const hold = await holdOf(row.hold_id);
    expect(hold.spent).toBe(expected);
    expect(hold.spent).toBeLessThan(hold.amount);
    expect(result.balances.words).toBe(10_000 - expected);
    const state = await walletState(t.db, user.id);
    expect(state.balance).toEqual(state.sums);
    const chat = await t.db.selectFrom('chats').select('title').where('id', '=', start.chat_id).executeTakeFirstOrThrow();
    expect((await historyLines(user))[0]).toMatchObject({ wallet: 'words', kind: 'spent', amount: -expected, title: `Ответ в чате «${chat.title}»` });
  });

  it('is charged the input tokens the provider reported, when it reported them before the stop', async () => {
    const user = await richUser();
    fake.answer = { pieces: ['Не успею'], finishReason: 'stop', promptTokens: 40, completionTokens: 3, usageFirst: true };
    const { start, result } = await stopBeforeFirstWord(user, 'Привет');
    expect(result).toMatchObject({ status: 'stopped', words: wordsFor(40, RATE) });
    const row = await answerRow(start.message_id);
    expect(row).toMatchObject({ words: wordsFor(40, RATE), input_tokens: 40 });
    const state = await walletState(t.db, user.id);
    expect(state.balance).toEqual(state.sums);
    expect(state.balance.words).toBe(10_000 - wordsFor(40, RATE));
  });
});

describe('a provider’s usage that is missing or not a count', () => {
  it.each([
    ['absent', undefined],
    ['a string', 'двенадцать'],
    ['negative', -5],
  ])('prompt_tokens %s: the input is estimated from the text, the output counted, the hold settled', async (_what, promptTokens) => {
    const user = await richUser();
    fake.answer = { pieces: ['Привет', '! Чем', ' помочь?'], finishReason: 'stop', promptTokens, completionTokens: 5 };
    const res = await call(t.app, { method: 'POST', url: chatRoutes.send.path, token: user.token, ...multipart(parts('Привет')) });
    expect(res.statusCode).toBe(200);
    const expected = wordsFor(estimate('Привет') + 5, RATE);
    const row = await t.db.selectFrom('chat_messages').selectAll().where('user_id', '=', user.id).where('role', '=', 'assistant').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'done', words: expected, input_tokens: null, output_tokens: 5 });
    const hold = await holdOf(row.hold_id);
    expect(hold).toMatchObject({ status: 'settled', spent: expected });
    const state = await walletState(t.db, user.id);
    expect(state.balance).toEqual(state.sums);
    expect(state.balance.words).toBe(10_000 - expected);
  });

  it('no usage at all: both parts are estimated from the text', async () => {
    const user = await richUser();
    fake.answer = { pieces: ['Привет', '! Чем', ' помочь?'], finishReason: 'stop', promptTokens: undefined, completionTokens: Number.NaN };
    const res = await call(t.app, { method: 'POST', url: chatRoutes.send.path, token: user.token, ...multipart(parts('Привет')) });
    expect(res.statusCode).toBe(200);
    const expected = wordsFor(estimate('Привет') + outputTokensEstimate('openai', 'Привет! Чем помочь?'), RATE);
    const row = await t.db.selectFrom('chat_messages').selectAll().where('user_id', '=', user.id).where('role', '=', 'assistant').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'done', words: expected, input_tokens: null, output_tokens: null });
    expect(await holdOf(row.hold_id)).toMatchObject({ status: 'settled', spent: expected });
    const state = await walletState(t.db, user.id);
    expect(state.balance).toEqual(state.sums);
  });
});
