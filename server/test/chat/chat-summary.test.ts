import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { chatRoutes, type ChatEstimate, type ChatMessage, type ChatSummaryResult } from '@app/contracts';
import { credit, debitUpTo } from '../../src/features/wallet/wallet.queries.ts';
import { call, createTestApp, multipart, newUser, parseEvents, until, walletState, type TestApp, type TestUser } from '../support/index.ts';
import { FakeOpenAi, fakeProviderEnv } from '../support/ai-fakes.ts';

/*
 * What a long chat costs, under control: the history a model gets capped by staff (the request,
 * the hold and the estimate read the same messages), and a new chat started from a short summary
 * of one, charged as an answer once per click.
 */

let t: TestApp;
const fake = new FakeOpenAi('sk-summary-test');
let fakeModel: number;
let cappedModel: number;
let silentModel: number;

beforeAll(async () => {
  await fake.start();
  t = await createTestApp({ env: { DEMO_WORD_DELAY_MS: '0', ...fakeProviderEnv({ FAKE_OPENAI_API_KEY: { key: fake.apiKey, url: fake.baseUrl } }) } });
  const remote = await t.db
    .insertInto('provider_connections')
    .values({ name: 'Фейк', protocol: 'openai', base_url: fake.baseUrl, api_key_env: 'FAKE_OPENAI_API_KEY', timeout_seconds: 5 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const model = async (name: string, history: number | null) =>
    (
      await t.db
        .insertInto('ai_models')
        .values({ name, kind: 'chat', connection_id: remote.id, provider_model: 'gpt-fake', max_output_tokens: 100, words_per_token: 1.5, history_messages: history })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  fakeModel = await model('Фейк GPT', null);
  cappedModel = await model('Фейк с короткой памятью', 2);
  silentModel = await model('Фейк без истории', 0);
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});
const ANSWER = { ...fake.answer };
beforeEach(() => {
  fake.reset();
  fake.answer = { ...ANSWER };
});

async function richUser(words = 100_000): Promise<TestUser> {
  const user = await newUser(t.db);
  await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `s-${String(user.id)}` }, words));
  return user;
}

const path = (route: { path: string }, id: number) => route.path.replace(':id', String(id));
const json = (user: TestUser | undefined, method: 'POST' | 'GET', url: string, payload?: unknown) =>
  call(t.app, { method, url, token: user?.token, ...(payload === undefined ? {} : { payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' } }) });

async function send(user: TestUser, message: string, chatId?: number, model = fakeModel) {
  const body = multipart([
    { name: 'ai_models_id', value: String(model) },
    { name: 'message', value: message },
    ...(chatId ? [{ name: 'chat_id', value: String(chatId) }] : []),
  ]);
  const res = await call(t.app, { method: 'POST', url: chatRoutes.sendStream.path, token: user.token, payload: body.payload, headers: body.headers });
  const events = parseEvents(res.body).events;
  const start = events.find((e) => e.event === 'start')?.data as { chat_id: number; message_id: number } | undefined;
  if (!start || !events.some((e) => e.event === 'done')) throw new Error(`send refused: ${res.body}`);
  return start;
}

/** A chat of three exchanges (six messages with text). */
async function longChat(user: TestUser, model = fakeModel) {
  const first = await send(user, 'Первый вопрос про кофе', undefined, model);
  await send(user, 'Второй вопрос про чай', first.chat_id, model);
  await send(user, 'Третий вопрос про какао', first.chat_id, model);
  return first.chat_id;
}

const estimate = async (user: TestUser, model: number, chatId: number, message: string) =>
  (await json(user, 'POST', chatRoutes.estimate.path, { ai_models_id: model, chat_id: chatId, message })).data.json as ChatEstimate;

const holdOf = (messageId: number) =>
  t.db.selectFrom('chat_messages as m').innerJoin('wallet_holds as h', 'h.id', 'm.hold_id').select(['h.amount', 'h.spent']).where('m.id', '=', messageId).executeTakeFirstOrThrow();

const lastRequest = () => fake.chatBodies.at(-1) as { messages: { role: string; content: unknown }[]; max_tokens?: number; max_completion_tokens?: number };

describe('the history a model gets, capped by staff (ai_models.history_messages)', () => {
  it('sends, holds and estimates the same latest messages: two with a cap of 2, none with 0, all six without a cap', async () => {
    const user = await richUser();
    const chatId = await longChat(user);
    const message = 'И ещё про сахар';
    for (const [model, sent] of [
      [fakeModel, 6],
      [cappedModel, 2],
      [silentModel, 0],
    ] as const) {
      const before = await estimate(user, model, chatId, message);
      expect(before.history_messages).toBe(sent);
      expect(before.history_limit).toBe(model === fakeModel ? null : sent);
      const next = await send(user, message, chatId, model);
      // The request: the instructions, the history sent and the new message.
      const request = lastRequest().messages;
      expect(request.length).toBe(1 + sent + 1);
      expect(request.at(-1)?.content).toBe(message);
      // The hold is the estimate's most: the estimate counted exactly what went.
      expect((await holdOf(next.message_id)).amount).toBe(before.max_words);
      // The answer just sent is history now for the next round's estimate: put the chat back to six messages.
      await t.db.deleteFrom('chat_messages').where('chat_id', '=', chatId).where('id', '>=', next.message_id - 1).execute();
    }
    const capped = await estimate(user, cappedModel, chatId, message);
    const whole = await estimate(user, fakeModel, chatId, message);
    expect(capped.history_words).toBeLessThan(whole.history_words);
    expect(capped.max_words).toBeLessThan(whole.max_words);
    // A summary reads the whole window whatever the cap: its price is the same with both.
    expect(capped.summary_words).toBe(whole.summary_words);
  });
});

/** Stamps a chat with a summary request id (the column is written only when a chat is made). */
const sqlSetRequest = (chatId: number, requestId: string) => sql`update chats set summary_request = ${requestId} where id = ${chatId}`.execute(t.db);
const summary = (user: TestUser | undefined, chatId: number, body: unknown) => json(user, 'POST', path(chatRoutes.summary, chatId), body);
const messages = async (user: TestUser, chatId: number) => (await json(user, 'GET', path(chatRoutes.messages, chatId))).data.json as ChatMessage[];

describe('a new chat with a short summary (POST /api/new/chat/:id/summary)', () => {
  it('writes the summary with the chat’s model, charges it as an answer (its own line in the history) and opens a chat that starts with it', async () => {
    const user = await richUser();
    const chatId = await longChat(user);
    const priced = await estimate(user, fakeModel, chatId, '');
    expect(priced.summary_words).toBeGreaterThan(0);
    fake.answer = { pieces: ['- Кофе', ', чай и какао.'], finishReason: 'stop', promptTokens: 80, completionTokens: 10 };
    const before = await walletState(t.db, user.id);
    const res = await summary(user, chatId, { request_id: crypto.randomUUID() });
    expect(res.statusCode, res.body).toBe(200);
    const made = res.data.json as ChatSummaryResult;
    expect(made.chat_id).not.toBe(chatId);
    expect(made.status).toBe('done');
    expect(made.title).toBe('Продолжение: Первый вопрос про кофе');
    // 90 tokens at 1.5 words a token, held at the estimate's figure.
    expect(made.words).toBe(135);
    expect((await holdOf(made.message_id)).amount).toBe(priced.summary_words);
    const after = await walletState(t.db, user.id);
    expect(after.balance.words).toBe(before.balance.words - 135);
    expect(after.balance).toEqual(after.sums);
    expect(made.balances.words).toBe(after.balance.words);

    // The model got its instructions, the whole conversation and the request, with a short limit.
    const request = lastRequest();
    expect(request.messages).toHaveLength(1 + 6 + 1);
    expect(String(request.messages[0]?.content)).toMatch(/^Ты составляешь краткое содержание переписки/);
    expect(request.messages.at(-1)?.content).toBe('Составь краткое содержание нашего разговора выше.');

    // The new chat: first in the list, its one message the summary under its heading.
    const list = (await json(user, 'GET', `${chatRoutes.list.path}?page=1`)).data.json as { data: { id: number; text: string }[] };
    expect(list.data[0]).toMatchObject({ id: made.chat_id, text: 'Продолжение: Первый вопрос про кофе' });
    const shown = await messages(user, made.chat_id);
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({ role: 'assistant', status: 'done', words: 135, text: '**Краткое содержание предыдущего чата «Первый вопрос про кофе»**\n\n- Кофе, чай и какао.' });

    // The balance history says what the words went on.
    const history = (await json(user, 'GET', '/api/new/balance/history?page=1')).data.json as { data: { title: string; amount: number }[] };
    expect(history.data[0]).toMatchObject({ title: 'Краткое содержание чата «Первый вопрос про кофе»', amount: -135 });

    // The next message of the new chat takes the summary along as its history.
    fake.answer = { pieces: ['Продолжаем'], finishReason: 'stop', promptTokens: 12, completionTokens: 5 };
    await send(user, 'Продолжим', made.chat_id);
    expect(lastRequest().messages.map((m) => m.role)).toEqual(['system', 'assistant', 'user']);
    expect(String(lastRequest().messages[1]?.content)).toContain('Кофе, чай и какао.');
  });

  it('a retry with the same request id answers the same chat and charges nothing more, even two at once', async () => {
    const user = await richUser();
    const chatId = await longChat(user);
    const requestId = crypto.randomUUID();
    const [a, b] = await Promise.all([summary(user, chatId, { request_id: requestId }), summary(user, chatId, { request_id: requestId })]);
    expect(a.statusCode, a.body).toBe(200);
    expect(b.statusCode, b.body).toBe(200);
    const first = a.data.json as ChatSummaryResult;
    // Both answer the written summary, whichever of them wrote it.
    expect(b.data.json).toEqual(first);
    expect(first.status).toBe('done');
    const charged = await walletState(t.db, user.id);
    const again = await summary(user, chatId, { request_id: requestId });
    expect((again.data.json as ChatSummaryResult)).toMatchObject({ chat_id: first.chat_id, message_id: first.message_id, status: 'done', words: first.words });
    expect(await walletState(t.db, user.id)).toEqual(charged);
    const made = await t.db.selectFrom('chats').select('id').where('user_id', '=', user.id).where('summary_of', '=', chatId).execute();
    expect(made).toHaveLength(1);
    const holds = await t.db.selectFrom('wallet_ledger').select('id').where('user_id', '=', user.id).where('ref_type', '=', 'chat_summary').where('amount', '<', 0).execute();
    expect(holds).toHaveLength(1);
    // Another click (a new request id) is another summary, paid again.
    const other = await summary(user, chatId, { request_id: crypto.randomUUID() });
    expect((other.data.json as ChatSummaryResult).chat_id).not.toBe(first.chat_id);
  });

  it('a retry while another process writes the summary waits for it, then answers it written', async () => {
    const user = await richUser();
    const chatId = await longChat(user);
    const requestId = crypto.randomUUID();
    // As another process would have left it: the chat made, its summary still being written there.
    const chat = await t.db.insertInto('chats').values({ user_id: user.id, title: 'Продолжение: Первый вопрос про кофе', model_id: fakeModel, summary_of: chatId }).returning('id').executeTakeFirstOrThrow();
    await sqlSetRequest(chat.id, requestId);
    const message = await t.db
      .insertInto('chat_messages')
      .values({ chat_id: chat.id, user_id: user.id, role: 'assistant', status: 'generating', text: '**Краткое содержание…**', model_id: fakeModel, model_name: 'Фейк GPT' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const looked = vi.spyOn(t.app.ctx.chatRuns, 'get');
    const pending = summary(user, chatId, { request_id: requestId });
    // It read the summary as still being written, and reads again.
    await until(async () => looked.mock.calls.filter(([id]) => id === message.id).length >= 2);
    await t.db.updateTable('chat_messages').set({ status: 'done', words: 42, text: '**Краткое содержание…**\n\nГотово.' }).where('id', '=', message.id).execute();
    const res = await pending;
    looked.mockRestore();
    expect(res.data.json).toMatchObject({ chat_id: chat.id, message_id: message.id, status: 'done', words: 42 });
  });

  it('too few words: 402, nothing stored, nothing held', async () => {
    const user = await richUser(5_000);
    const chatId = await longChat(user);
    const priced = await estimate(user, fakeModel, chatId, '');
    const left = (await walletState(t.db, user.id)).balance.words;
    await t.db.transaction().execute((tx) => debitUpTo(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `cut-${String(user.id)}` }, left - (priced.summary_words - 1)));
    const chats = await t.db.selectFrom('chats').select('id').where('user_id', '=', user.id).execute();
    const res = await summary(user, chatId, { request_id: crypto.randomUUID() });
    expect(res.statusCode).toBe(402);
    expect(res.data.code).toBe('INSUFFICIENT_TOKENS');
    expect(await t.db.selectFrom('chats').select('id').where('user_id', '=', user.id).execute()).toEqual(chats);
    const state = await walletState(t.db, user.id);
    expect(state.balance.words).toBe(priced.summary_words - 1);
    expect(state.balance).toEqual(state.sums);
  });

  it('refuses a guest, another user’s chat, an empty chat, a missing or malformed request id and a model that is not there', async () => {
    const user = await richUser();
    const chatId = await longChat(user);
    const id = () => ({ request_id: crypto.randomUUID() });
    expect((await summary(undefined, chatId, id())).statusCode).toBe(401);
    const stranger = await richUser();
    const theirs = await summary(stranger, chatId, id());
    expect(theirs.statusCode).toBe(404);
    expect(theirs.data.text).toBe('Чат не найден');
    const empty = await t.db.insertInto('chats').values({ user_id: user.id, title: 'Пустой', model_id: fakeModel }).returning('id').executeTakeFirstOrThrow();
    const nothing = await summary(user, empty.id, id());
    expect(nothing.statusCode).toBe(422);
    expect(nothing.data).toMatchObject({ code: 'CHAT_EMPTY', text: 'В этом чате пока нечего пересказывать: сначала задайте вопрос и дождитесь ответа' });
    for (const body of [{}, { request_id: 'не-uuid' }, { request_id: 5 }, { request_id: crypto.randomUUID(), ai_models_id: -1 }]) {
      const res = await summary(user, chatId, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await summary(user, 2_147_483_647, id())).statusCode).toBe(404);
    const unknown = await summary(user, chatId, { ...id(), ai_models_id: 999_999 });
    expect(unknown.data.text).toEqual({ ai_models_id: ['Эта модель недоступна. Выберите другую'] });
    // Nothing of these made a chat or held a word.
    expect(await t.db.selectFrom('chats').select('id').where('user_id', '=', user.id).where('summary_of', 'is not', null).execute()).toEqual([]);
  });

  it('a provider failure gives the words back and leaves no chat; the same click can be tried again', async () => {
    const user = await richUser();
    const chatId = await longChat(user);
    const before = await walletState(t.db, user.id);
    fake.behaviour = { kind: 'server_error' };
    const requestId = crypto.randomUUID();
    const failed = await summary(user, chatId, { request_id: requestId });
    expect(failed.statusCode).toBe(502);
    expect(failed.data.code).toBe('AI_REQUEST_FAILED');
    expect(await walletState(t.db, user.id)).toEqual(before);
    expect(await t.db.selectFrom('chats').select('id').where('summary_of', '=', chatId).execute()).toEqual([]);
    fake.reset();
    const retried = await summary(user, chatId, { request_id: requestId });
    expect(retried.statusCode, retried.body).toBe(200);
  });
});
