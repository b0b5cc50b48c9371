import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRoutes, type ChatMessage } from '@app/contracts';
import { credit, debitUpTo } from '../../src/features/wallet/wallet.queries.ts';
import { call, createTestApp, multipart, newUser, parseEvents, walletState, type TestApp, type TestUser } from '../support/index.ts';
import { FakeOpenAi, fakeProviderEnv } from '../support/ai-fakes.ts';

/*
 * Regenerated answers and edited messages (variants of one place of the conversation), switching
 * between them, and what a send will cost before it is sent.
 */

let t: TestApp;
const fake = new FakeOpenAi('sk-variants-test');
let demoModel: number;
let fakeModel: number;

beforeAll(async () => {
  await fake.start();
  t = await createTestApp({ env: { DEMO_WORD_DELAY_MS: '0', ...fakeProviderEnv({ FAKE_OPENAI_API_KEY: { key: fake.apiKey, url: fake.baseUrl } }) } });
  const demo = await t.db.insertInto('provider_connections').values({ name: 'Демо', protocol: 'demo' }).returning('id').executeTakeFirstOrThrow();
  const remote = await t.db
    .insertInto('provider_connections')
    .values({ name: 'Фейк', protocol: 'openai', base_url: fake.baseUrl, api_key_env: 'FAKE_OPENAI_API_KEY', timeout_seconds: 5 })
    .returning('id')
    .executeTakeFirstOrThrow();
  demoModel = (await t.db.insertInto('ai_models').values({ name: 'Демо-ассистент', kind: 'chat', connection_id: demo.id, provider_model: 'demo', max_output_tokens: 200 }).returning('id').executeTakeFirstOrThrow()).id;
  fakeModel = (
    await t.db
      .insertInto('ai_models')
      .values({ name: 'Фейк GPT', kind: 'chat', connection_id: remote.id, provider_model: 'gpt-fake', max_output_tokens: 100, words_per_token: 1.5 })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});

async function richUser(words = 100_000): Promise<TestUser> {
  const user = await newUser(t.db);
  await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `v-${String(user.id)}` }, words));
  return user;
}

const path = (route: { path: string }, id: number) => route.path.replace(':id', String(id));

async function streamed(res: Awaited<ReturnType<typeof call>>) {
  const { events } = parseEvents(res.body);
  return { status: res.statusCode, code: res.data.code, events, done: events.find((e) => e.event === 'done')?.data as { message_id: number; words: number; model: string } | undefined };
}

async function send(user: TestUser, message: string, chatId?: number, model = demoModel) {
  const body = multipart([
    { name: 'ai_models_id', value: String(model) },
    { name: 'message', value: message },
    ...(chatId ? [{ name: 'chat_id', value: String(chatId) }] : []),
  ]);
  const res = await call(t.app, { method: 'POST', url: chatRoutes.sendStream.path, token: user.token, payload: body.payload, headers: body.headers });
  const start = parseEvents(res.body).events.find((e) => e.event === 'start')?.data as { chat_id: number; message_id: number; user_message_id: number } | undefined;
  if (!start) throw new Error(`send refused: ${res.body}`);
  return start;
}

const json = (user: TestUser | undefined, method: 'POST' | 'GET', url: string, payload?: unknown) =>
  call(t.app, { method, url, token: user?.token, ...(payload === undefined ? {} : { payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' } }) });

const regenerate = async (user: TestUser | undefined, chatId: number, body: unknown = { ai_models_id: demoModel }) => streamed(await json(user, 'POST', path(chatRoutes.regenerate, chatId), body));
const edit = async (user: TestUser | undefined, chatId: number, body: unknown) => streamed(await json(user, 'POST', path(chatRoutes.edit, chatId), body));
const messages = async (user: TestUser, chatId: number) => (await json(user, 'GET', path(chatRoutes.messages, chatId))).data.json as ChatMessage[];

describe('regenerating the last answer', () => {
  it('adds a new answer, charged as any; the previous one stays reachable as «вариант 1 из 2»', async () => {
    const user = await richUser();
    const first = await send(user, 'Расскажи про кофе');
    const before = await walletState(t.db, user.id);
    const again = await regenerate(user, first.chat_id, { ai_models_id: fakeModel });
    expect(again.status).toBe(200);
    expect(again.done?.model).toBe('Фейк GPT');
    // The fake counts 12 + 5 tokens at 1.5 words a token.
    expect(again.done?.words).toBe(Math.ceil(17 * 1.5));
    const after = await walletState(t.db, user.id);
    expect(after.balance.words).toBe(before.balance.words - Math.ceil(17 * 1.5));
    expect(after.balance).toEqual(after.sums);

    // The question went again, without the replaced answer in the history.
    const sent = fake.chatBodies.at(-1)?.messages as { role: string; content: unknown }[];
    expect(sent.map((m) => m.role)).toEqual(['system', 'user']);

    const list = await messages(user, first.chat_id);
    expect(list.map((m) => m.role)).toEqual(['user', 'assistant']);
    const answer = list[1];
    expect(answer?.id).toBe(again.done?.message_id);
    expect(answer?.variants).toEqual([first.message_id, again.done?.message_id]);
    expect(list[0]?.variants).toBeUndefined();

    // Back to the first answer, and forward again.
    const switched = await json(user, 'POST', path(chatRoutes.variant, first.chat_id), { message_id: first.message_id });
    expect(switched.statusCode).toBe(200);
    expect((switched.data.json as ChatMessage[]).map((m) => m.id)).toEqual([first.user_message_id, first.message_id]);
    expect((await messages(user, first.chat_id))[1]?.model).toBe('Демо-ассистент');

    // A send after switching follows the answer shown.
    const next = await send(user, 'А чай?', first.chat_id);
    const shown = await messages(user, first.chat_id);
    expect(shown.map((m) => m.id)).toEqual([first.user_message_id, first.message_id, next.user_message_id, next.message_id]);
  });

  it('only the chat’s last message, an answer; not in another user’s chat, nor for a guest or an unconfirmed user', async () => {
    const user = await richUser();
    const first = await send(user, 'Привет');
    const other = await richUser();
    expect((await regenerate(other, first.chat_id)).status).toBe(404);
    expect((await regenerate(undefined, first.chat_id)).status).toBe(401);
    const unconfirmed = await newUser(t.db, { confirmed: false });
    expect((await regenerate(unconfirmed, first.chat_id)).status).toBe(403);
    expect((await regenerate(user, 999_999_999)).status).toBe(404);
    expect((await regenerate(user, first.chat_id, { ai_models_id: 'x' })).status).toBe(400);
    expect((await regenerate(user, first.chat_id, { ai_models_id: 2_147_483_000 })).code).toBe('VALIDATION');
    expect((await regenerate(user, first.chat_id, { ai_models_id: demoModel, param: 'x'.repeat(500) })).status).toBe(400);
    // A variant switched to that has answers after it is not the last message.
    const second = await send(user, 'Ещё', first.chat_id);
    const res = await regenerate(user, first.chat_id, { ai_models_id: demoModel });
    expect(res.status).toBe(200);
    expect((await messages(user, first.chat_id)).at(-1)?.variants).toEqual([second.message_id, res.done?.message_id]);
    const state = await walletState(t.db, user.id);
    expect(state.balance).toEqual(state.sums);
  });

  it('too few words: refused with 402 and nothing changes', async () => {
    const user = await richUser(3000);
    const first = await send(user, 'Привет');
    const poor = await t.db.selectFrom('wallets').select('balance').where('user_id', '=', user.id).where('kind', '=', 'words').executeTakeFirstOrThrow();
    await t.db.transaction().execute((tx) => debitUpTo(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `v-take-${String(user.id)}` }, poor.balance - 5));
    const res = await regenerate(user, first.chat_id);
    expect(res.status).toBe(402);
    const list = await messages(user, first.chat_id);
    expect(list.map((m) => m.id)).toEqual([first.user_message_id, first.message_id]);
    expect(list[1]?.variants).toBeUndefined();
  });

  it('two regenerates at once: never two answers at once — one is refused (409), or the later regenerates the earlier’s answer; each written answer is a variant; balance = ledger', async () => {
    const user = await richUser();
    const first = await send(user, 'Скажи что-нибудь');
    const written: number[] = [];
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all([regenerate(user, first.chat_id), regenerate(user, first.chat_id, { ai_models_id: fakeModel })]);
      // Mostly they overlap and one is refused; on a busy machine one may arrive after the other's
      // answer is complete, and then regenerates that one in turn. Either way each answer written is a variant.
      const ok = results.filter((r) => r.status === 200);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      for (const r of results) if (r.status !== 200) expect(['CHAT_BUSY', 'CHAT_NOT_LAST']).toContain(r.code);
      const ids = ok.map((r) => r.done?.message_id ?? 0).sort((a, b) => a - b);
      if (ids.length === 2) {
        // One after the other: the later was started after the earlier had been closed.
        const [earlier, later] = await Promise.all(ids.map((id) => t.db.selectFrom('chat_messages').select(['created_at', 'updated_at']).where('id', '=', id).executeTakeFirstOrThrow()));
        expect(later?.created_at.getTime()).toBeGreaterThanOrEqual(earlier?.updated_at.getTime() ?? Infinity);
      }
      written.push(...ids);
    }
    expect((await messages(user, first.chat_id)).at(-1)?.variants).toEqual([first.message_id, ...written]);
    // A switch racing regenerates: whatever wins, one answer is shown and nothing is lost.
    await Promise.all([regenerate(user, first.chat_id), json(user, 'POST', path(chatRoutes.variant, first.chat_id), { message_id: first.message_id }), regenerate(user, first.chat_id)]);
    const list = await messages(user, first.chat_id);
    expect(list).toHaveLength(2);
    const rows = await t.db.selectFrom('chat_messages').select(['id', 'status', 'words', 'off_path']).where('chat_id', '=', first.chat_id).where('role', '=', 'assistant').execute();
    expect(rows.filter((r) => !r.off_path)).toHaveLength(1);
    const state = await walletState(t.db, user.id);
    expect(state.balance).toEqual(state.sums);
    const charged = rows.reduce((sum, r) => sum + r.words, 0);
    expect(100_000 - state.balance.words).toBe(charged);
  });
});

describe('editing the user’s last message', () => {
  it('sends it again: the answers after it are replaced and kept as a variant', async () => {
    const user = await richUser();
    const q1 = await send(user, 'Первый вопрос', undefined, fakeModel);
    const q2 = await send(user, 'Второй вопрос', q1.chat_id, fakeModel);
    const res = await edit(user, q1.chat_id, { message_id: q2.user_message_id, message: 'Второй вопрос, исправленный', ai_models_id: fakeModel });
    expect(res.status).toBe(200);
    const sent = fake.chatBodies.at(-1)?.messages as { role: string; content: unknown }[];
    expect(sent.map((m) => m.content)).toEqual([expect.any(String), 'Первый вопрос', 'Привет! Чем помочь?', 'Второй вопрос, исправленный']);
    const list = await messages(user, q1.chat_id);
    expect(list.map((m) => m.text)).toEqual(['Первый вопрос', 'Привет! Чем помочь?', 'Второй вопрос, исправленный', 'Привет! Чем помочь?']);
    const start = res.events.find((e) => e.event === 'start')?.data as { user_message_id: number };
    expect(list[2]?.variants).toEqual([q2.user_message_id, start.user_message_id]);
    const back = await json(user, 'POST', path(chatRoutes.variant, q1.chat_id), { message_id: q2.user_message_id });
    expect((back.data.json as ChatMessage[]).map((m) => m.id)).toEqual([q1.user_message_id, q1.message_id, q2.user_message_id, q2.message_id]);
    const state = await walletState(t.db, user.id);
    expect(state.balance).toEqual(state.sums);
  });

  it('refuses an earlier message, an answer, another user’s message, a blank text and a guest', async () => {
    const user = await richUser();
    const q1 = await send(user, 'Первый');
    const q2 = await send(user, 'Второй', q1.chat_id);
    const body = (message_id: number, message = 'Новый текст') => ({ message_id, message, ai_models_id: demoModel });
    expect((await edit(user, q1.chat_id, body(q1.user_message_id))).code).toBe('CHAT_NOT_LAST');
    expect((await edit(user, q1.chat_id, body(q2.message_id))).code).toBe('CHAT_NOT_LAST');
    expect((await edit(user, q1.chat_id, body(q2.user_message_id, '   '))).status).toBe(400);
    expect((await edit(user, q1.chat_id, body(q2.user_message_id, 'a\u0000b'))).status).toBe(400);
    expect((await edit(user, q1.chat_id, { message: 'x', ai_models_id: demoModel })).status).toBe(400);
    const other = await richUser();
    const theirs = await send(other, 'Чужой');
    expect((await edit(user, theirs.chat_id, body(theirs.user_message_id))).status).toBe(404);
    expect((await edit(user, q1.chat_id, body(theirs.user_message_id))).code).toBe('CHAT_NOT_LAST');
    expect((await edit(undefined, q1.chat_id, body(q2.user_message_id))).status).toBe(401);
    expect((await messages(user, q1.chat_id)).map((m) => m.id)).toEqual([q1.user_message_id, q1.message_id, q2.user_message_id, q2.message_id]);
  });

  it('switching variants: not another user’s chat, not a message of another chat, not while an answer is written', async () => {
    const user = await richUser();
    const a = await send(user, 'Один');
    const b = await send(user, 'Два');
    expect((await json(user, 'POST', path(chatRoutes.variant, a.chat_id), { message_id: b.message_id })).statusCode).toBe(404);
    const other = await richUser();
    expect((await json(other, 'POST', path(chatRoutes.variant, a.chat_id), { message_id: a.message_id })).statusCode).toBe(404);
    expect((await json(undefined, 'POST', path(chatRoutes.variant, a.chat_id), { message_id: a.message_id })).statusCode).toBe(401);
    expect((await json(user, 'POST', path(chatRoutes.variant, a.chat_id), { message_id: -1 })).statusCode).toBe(400);
    await t.db.updateTable('chat_messages').set({ status: 'generating' }).where('id', '=', a.message_id).execute();
    expect((await json(user, 'POST', path(chatRoutes.variant, a.chat_id), { message_id: a.message_id })).data.code).toBe('CHAT_BUSY');
    await t.db.updateTable('chat_messages').set({ status: 'done' }).where('id', '=', a.message_id).execute();
  });
});

describe('the cost of a send before it is sent (POST /api/new/chat/estimate)', () => {
  it('counts the history as the hold does: its most is what the next send holds', async () => {
    const user = await richUser();
    const fresh = await json(user, 'POST', chatRoutes.estimate.path, { ai_models_id: fakeModel, message: 'Привет' });
    expect(fresh.statusCode).toBe(200);
    const empty = fresh.data.json as { min_words: number; max_words: number; history_words: number; history_messages: number; answer_words: number };
    expect(empty.history_words).toBe(0);
    expect(empty.answer_words).toBe(150);
    expect(empty.min_words).toBeLessThan(empty.max_words);

    const first = await send(user, 'Расскажи подробно про историю кофе в Европе', undefined, fakeModel);
    const message = 'И про чай тоже, пожалуйста';
    const estimate = (await json(user, 'POST', chatRoutes.estimate.path, { ai_models_id: fakeModel, chat_id: first.chat_id, message })).data.json as typeof empty;
    expect(estimate.history_messages).toBe(2);
    expect(estimate.history_words).toBeGreaterThan(0);
    const next = await send(user, message, first.chat_id, fakeModel);
    const hold = await t.db
      .selectFrom('chat_messages as m')
      .innerJoin('wallet_holds as h', 'h.id', 'm.hold_id')
      .select('h.amount')
      .where('m.id', '=', next.message_id)
      .executeTakeFirstOrThrow();
    expect(hold.amount).toBe(estimate.max_words);
  });

  it('refuses another user’s chat, a guest, an unknown model and bad fields', async () => {
    const user = await richUser();
    const theirs = await send(await richUser(), 'Чужой');
    expect((await json(user, 'POST', chatRoutes.estimate.path, { ai_models_id: demoModel, chat_id: theirs.chat_id, message: 'x' })).statusCode).toBe(404);
    expect((await json(undefined, 'POST', chatRoutes.estimate.path, { ai_models_id: demoModel, message: 'x' })).statusCode).toBe(401);
    const unknown = await json(user, 'POST', chatRoutes.estimate.path, { ai_models_id: 999_999, message: 'x' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.data.text).toEqual({ ai_models_id: ['Эта модель недоступна. Выберите другую'] });
    expect((await json(user, 'POST', chatRoutes.estimate.path, { ai_models_id: demoModel, images: 3 })).statusCode).toBe(400);
    expect((await json(user, 'POST', chatRoutes.estimate.path, { ai_models_id: demoModel, message: 'x'.repeat(20_001) })).statusCode).toBe(400);
    const images = (await json(user, 'POST', chatRoutes.estimate.path, { ai_models_id: demoModel, images: 2 })).data.json as { max_words: number };
    const none = (await json(user, 'POST', chatRoutes.estimate.path, { ai_models_id: demoModel })).data.json as { max_words: number };
    expect(images.max_words).toBeGreaterThan(none.max_words);
  });
});
