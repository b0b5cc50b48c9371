import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHAT_IMAGE_MAX_BYTES, chatRoutes } from '@app/contracts';
import { credit } from '../../src/features/wallet/wallet.queries.ts';
import { closeAbandonedAnswers, ABANDONED_AFTER_MS, SYSTEM_PROMPT } from '../../src/features/chat/chat.service.ts';
import { inputTokensEstimate, wordsFor } from '../../src/features/chat/chat-pricing.ts';
import { ChatRuns } from '../../src/features/chat/chat-runs.ts';
import { placeHold } from '../../src/features/wallet/wallet.queries.ts';
import { call, createTestApp, csrfPair, multipart, newUser, parseEvents, until, walletState, type Part, type SseEvent, type TestApp, type TestUser } from '../support/index.ts';
import { FakeOpenAi, TINY_PNG, fakeProviderEnv } from '../support/ai-fakes.ts';
import { TINY_JPEG, dataUrlBytes, pixelsOf } from '../support/images.ts';

/*
 * The chat API (seed §7 and the streamed variant) on the demo provider and on a fake
 * OpenAI-compatible server: answers, charges, images, refusals, stops, dropped connections,
 * provider failures and concurrency.
 */

let t: TestApp;
let baseUrl: string;
const fake = new FakeOpenAi('sk-chat-test');
let demoModel: number;
let fakeModel: number;

const JPEG = TINY_JPEG;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');

beforeAll(async () => {
  await fake.start();
  t = await createTestApp({ env: { DEMO_WORD_DELAY_MS: '0', ...fakeProviderEnv({ FAKE_OPENAI_API_KEY: { key: fake.apiKey, url: fake.baseUrl } }) } });
  baseUrl = await t.listen();
  const demo = await t.db.insertInto('provider_connections').values({ name: 'Демо', protocol: 'demo' }).returning('id').executeTakeFirstOrThrow();
  const remote = await t.db
    .insertInto('provider_connections')
    .values({ name: 'Фейк', protocol: 'openai', base_url: fake.baseUrl, api_key_env: 'FAKE_OPENAI_API_KEY', timeout_seconds: 5 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const params = [
    { value: 'balanced', label: 'Сбалансированный', temperature: 0.7 },
    { value: 'precise', label: 'Точный', temperature: 0.2 },
  ];
  // One setting stored as a JSON string, one as an object: the API answers one shape.
  demoModel = (
    await t.db
      .insertInto('ai_models')
      .values({ name: 'Демо-ассистент', kind: 'chat', connection_id: demo.id, provider_model: 'demo', max_output_tokens: 300, setting: JSON.stringify(JSON.stringify({ model: { params } })) })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  fakeModel = (
    await t.db
      .insertInto('ai_models')
      .values({ name: 'Фейк GPT', kind: 'chat', connection_id: remote.id, provider_model: 'gpt-fake', max_output_tokens: 100, words_per_token: 1.5, setting: JSON.stringify({ model: { params } }) })
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

const give = (userId: number, words: number) =>
  t.db.transaction().execute((tx) => credit(tx, { userId, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `test-give-${String(userId)}-${String(Math.random())}` }, words));

async function richUser(words = 100_000): Promise<TestUser> {
  const user = await newUser(t.db);
  await give(user.id, words);
  return user;
}

const messageParts = (fields: Record<string, string | number | undefined>, files: Part[] = []): Part[] => [
  ...Object.entries(fields)
    .filter((e): e is [string, string | number] => e[1] !== undefined)
    .map(([name, value]) => ({ name, value: String(value) })),
  ...files,
];

const png = (name = 'image_example', filename = 'photo.png'): Part => ({ name, file: { filename, type: 'image/png', data: TINY_PNG } });

function send(user: TestUser | undefined, parts: Part[], opts: { stream?: boolean; cookies?: Record<string, string>; headers?: Record<string, string> } = {}) {
  const body = multipart(parts);
  const url = opts.stream ? chatRoutes.sendStream.path : chatRoutes.send.path;
  return call(t.app, { method: 'POST', url, token: user?.token, payload: body.payload, headers: { ...body.headers, ...opts.headers }, cookies: opts.cookies });
}

const get = (user: TestUser | undefined, url: string) => call(t.app, { method: 'GET', url, token: user?.token });

/** A streamed send over a real connection: events as they come. */
async function openStream(user: TestUser, parts: Part[], signal?: AbortSignal): Promise<{ next: () => Promise<SseEvent | null> }> {
  const body = multipart(parts);
  const res = await fetch(`${baseUrl}${chatRoutes.sendStream.path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, accept: 'text/event-stream', ...body.headers },
    body: body.payload,
    ...(signal ? { signal } : {}),
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

const countRows = async (userId: number) => ({
  chats: (await t.db.selectFrom('chats').select('id').where('user_id', '=', userId).execute()).length,
  messages: (await t.db.selectFrom('chat_messages').select('id').where('user_id', '=', userId).execute()).length,
  files: (await t.db.selectFrom('files').select('id').where('owner_id', '=', userId).execute()).length,
});

const answerRow = (id: number) => t.db.selectFrom('chat_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('chat models (GET /api/new/chat_models)', () => {
  it('lists active chat models with their parameters in one shape, whether stored as a string or an object', async () => {
    const user = await newUser(t.db);
    const res = await get(user, chatRoutes.models.path);
    expect(res.statusCode).toBe(200);
    const models = res.data.json as { id: number; ai_models_id: number; name: string; setting: { model: { params: { value: string; label: string }[] } }; provider: string; max_words: number }[];
    const demo = models.find((m) => m.id === demoModel);
    const remote = models.find((m) => m.id === fakeModel);
    expect(demo).toMatchObject({ ai_models_id: demoModel, name: 'Демо-ассистент', provider: 'Демо', max_words: 300 });
    expect(demo?.setting).toEqual({ model: { params: [{ value: 'balanced', label: 'Сбалансированный' }, { value: 'precise', label: 'Точный' }] } });
    expect(remote?.setting).toEqual(demo?.setting);
    expect(remote).toMatchObject({ provider: 'Фейк', max_words: 150 });
  });

  it('hides models of an inactive connection, and asks a guest to sign in', async () => {
    const off = await t.db.insertInto('provider_connections').values({ name: 'Выключен', protocol: 'demo', active: false }).returning('id').executeTakeFirstOrThrow();
    const hidden = await t.db.insertInto('ai_models').values({ name: 'Скрытая', kind: 'chat', connection_id: off.id, provider_model: 'demo' }).returning('id').executeTakeFirstOrThrow();
    const user = await newUser(t.db);
    const ids = ((await get(user, chatRoutes.models.path)).data.json as { id: number }[]).map((m) => m.id);
    expect(ids).not.toContain(hidden.id);
    expect((await get(undefined, chatRoutes.models.path)).statusCode).toBe(401);
    // Sending to it is refused as a field error, nothing stored.
    const rich = await richUser();
    const res = await send(rich, messageParts({ ai_models_id: hidden.id, message: 'Привет' }));
    expect(res.statusCode).toBe(400);
    expect(res.data.text).toEqual({ ai_models_id: ['Эта модель недоступна. Выберите другую'] });
    expect(await countRows(rich.id)).toEqual({ chats: 0, messages: 0, files: 0 });
  });
});

describe('sending a message (POST /api/new/chat)', () => {
  it('answers chat_id, message and model, charges the words of the provider’s usage and stores both messages', async () => {
    const user = await richUser(10_000);
    const res = await send(user, messageParts({ ai_models_id: demoModel, param: 'precise', message: 'Как выучить английский?' }));
    expect(res.statusCode).toBe(200);
    const json = res.data.json as { chat_id: number; message: string; model: string; words: number; status: string; balances: { words: number } };
    expect(json.model).toBe('Демо-ассистент');
    expect(json.status).toBe('done');
    expect(json.message).toContain('английский');
    expect(json.words).toBeGreaterThan(0);
    expect(json.balances.words).toBe(10_000 - json.words);
    const state = await walletState(t.db, user.id);
    expect(state.balance).toEqual(state.sums);
    expect(state.balance.words).toBe(10_000 - json.words);

    const messages = (await get(user, `/api/new/chat/${String(json.chat_id)}`)).data.json as { role: string; text: string; model: string | null; status: string; words: number }[];
    expect(messages.map((m) => [m.role, m.model, m.status])).toEqual([
      ['user', null, 'done'],
      ['assistant', 'Демо-ассистент', 'done'],
    ]);
    expect(messages[1]?.text).toBe(json.message);
    expect(messages[1]?.words).toBe(json.words);
    // The parameter's temperature went to the provider.
    const row = await t.db.selectFrom('chat_messages').select(['param', 'hold_id']).where('chat_id', '=', json.chat_id).where('role', '=', 'assistant').executeTakeFirstOrThrow();
    expect(row.param).toBe('precise');
    const hold = await t.db.selectFrom('wallet_holds').select(['status', 'spent']).where('id', '=', row.hold_id ?? 0).executeTakeFirstOrThrow();
    expect(hold).toEqual({ status: 'settled', spent: json.words });
  });

  it('continues a chat with its history, and lists chats one per page, most recent first', async () => {
    const user = await richUser();
    const first = (await send(user, messageParts({ ai_models_id: demoModel, message: 'Первый чат: составь план поездки' }))).data.json as { chat_id: number };
    const second = (await send(user, messageParts({ ai_models_id: demoModel, message: 'Второй чат' }))).data.json as { chat_id: number };
    const again = await send(user, messageParts({ ai_models_id: demoModel, message: 'Продолжим', chat_id: first.chat_id }));
    expect((again.data.json as { chat_id: number }).chat_id).toBe(first.chat_id);

    const page1 = (await get(user, '/api/new/chat?page=1')).data.json as { data: { id: number; text: string }[]; last_page: number };
    const page2 = (await get(user, '/api/new/chat?page=2')).data.json as { data: { id: number; text: string }[]; last_page: number };
    expect(page1).toMatchObject({ last_page: 2, data: [{ id: first.chat_id, text: 'Первый чат: составь план поездки' }] });
    expect(page2.data).toEqual([expect.objectContaining({ id: second.chat_id, text: 'Второй чат' })]);
    expect(((await get(user, '/api/new/chat?page=3')).data.json as { data: unknown[] }).data).toEqual([]);
    expect((await get(user, '/api/new/chat?page=0')).statusCode).toBe(400);
    expect((await get(user, '/api/new/chat?page=abc')).statusCode).toBe(400);
    expect(((await get(user, `/api/new/chat/${String(first.chat_id)}`)).data.json as unknown[]).length).toBe(4);
  });

  it('lists `per_page` chats a page when asked (the widget reads ten at once); bad values are refused in Russian', async () => {
    const user = await richUser();
    const ids: number[] = [];
    for (const title of ['Первый', 'Второй', 'Третий']) ids.unshift(((await send(user, messageParts({ ai_models_id: demoModel, message: title }))).data.json as { chat_id: number }).chat_id);
    const page = async (query: string) => (await get(user, `/api/new/chat?${query}`)).data.json as { data: { id: number }[]; last_page: number };
    expect(await page('page=1&per_page=10')).toMatchObject({ last_page: 1, data: ids.map((id) => ({ id })) });
    expect(await page('page=1&per_page=2')).toMatchObject({ last_page: 2, data: ids.slice(0, 2).map((id) => ({ id })) });
    expect(await page('page=2&per_page=2')).toMatchObject({ last_page: 2, data: [{ id: ids[2] }] });
    expect((await page('page=3&per_page=2')).data).toEqual([]);
    // Without it, the seed's one a page.
    expect(await page('page=2')).toMatchObject({ last_page: 3, data: [{ id: ids[1] }] });
    for (const bad of ['0', '51', 'десять', '1.5', '-1']) {
      const res = await get(user, `/api/new/chat?page=1&per_page=${encodeURIComponent(bad)}`);
      expect(res.statusCode, bad).toBe(400);
      expect(JSON.stringify(res.data.text), bad).toContain('Число чатов на странице: от 1 до 50');
    }
    // Another user sees none of them; a guest is refused.
    const other = await richUser();
    expect(((await get(other, '/api/new/chat?page=1&per_page=50')).data.json as { data: unknown[] }).data).toEqual([]);
    expect((await get(undefined, '/api/new/chat?page=1&per_page=10')).statusCode).toBe(401);
  });

  it('sends up to two png or jpeg images; the demo says it saw them; only their owner can read them back', async () => {
    const user = await richUser();
    const res = await send(user, messageParts({ ai_models_id: demoModel, message: 'Что на картинках?' }, [png(), { name: 'image_example_2', file: { filename: 'b.jpg', type: 'image/jpeg', data: JPEG } }]));
    expect(res.statusCode).toBe(200);
    const json = res.data.json as { chat_id: number; message: string };
    expect(json.message).toContain('Вы приложили 2 изображения');
    const messages = (await get(user, `/api/new/chat/${String(json.chat_id)}`)).data.json as { images: { id: number; url: string; name: string }[] }[];
    const images = messages[0]?.images ?? [];
    expect(images.map((i) => i.name)).toEqual(['photo.png', 'b.jpg']);
    const own = await t.app.inject({ url: images[0]?.url ?? '', headers: { authorization: `Bearer ${user.token}` } });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/png');
    const stranger = await newUser(t.db);
    expect((await t.app.inject({ url: images[0]?.url ?? '', headers: { authorization: `Bearer ${stranger.token}` } })).statusCode).toBe(404);
  });

  it('sends the images to an OpenAI-compatible model as data-URL parts', async () => {
    const user = await richUser();
    const res = await send(user, messageParts({ ai_models_id: fakeModel, message: 'Опиши' }, [png()]));
    expect(res.statusCode).toBe(200);
    const body = fake.chatBodies.at(-1) as { model: string; messages: { role: string; content: unknown }[]; temperature: number };
    expect(body.model).toBe('gpt-fake');
    expect(body.temperature).toBe(0.7);
    expect(body.messages[0]?.role).toBe('system');
    const [text, image] = body.messages.at(-1)?.content as [unknown, { type: string; image_url: { url: string } }];
    expect(text).toEqual({ type: 'text', text: 'Опиши' });
    // The picture as it was stored: its pixels, written anew without metadata.
    expect(image.image_url.url).toMatch(/^data:image\/png;base64,/);
    expect(await pixelsOf(dataUrlBytes(image.image_url.url))).toEqual(await pixelsOf(TINY_PNG));
    // 12 prompt + 5 completion tokens at 1.5 words a token.
    expect((res.data.json as { words: number }).words).toBe(26);
  });

  it('refuses a third image, a PDF renamed .png and an oversized image, storing nothing', async () => {
    const user = await richUser();
    const before = await walletState(t.db, user.id);
    const third = await send(user, messageParts({ ai_models_id: demoModel, message: 'Три' }, [png(), png('image_example_2'), png('image_example', 'c.png')]));
    expect(third.statusCode).toBe(400);
    expect(third.data.code).toBe('TOO_MANY_FILES');
    expect(third.data.text).toBe('Можно прикрепить не больше 2 файлов');

    const pdf = await send(user, messageParts({ ai_models_id: demoModel, message: 'PDF' }, [{ name: 'image_example', file: { filename: 'scan.png', type: 'image/png', data: PDF } }]));
    expect(pdf.statusCode).toBe(415);
    expect(pdf.data.text).toEqual({ image_example: [expect.stringMatching(/PNG или JPEG/)] });

    const big = Buffer.concat([TINY_PNG, Buffer.alloc(CHAT_IMAGE_MAX_BYTES)]);
    const oversized = await send(user, messageParts({ ai_models_id: demoModel, message: 'Большая' }, [{ name: 'image_example', file: { filename: 'big.png', type: 'image/png', data: big } }]));
    expect(oversized.statusCode).toBe(413);

    const unknownField = await send(user, messageParts({ ai_models_id: demoModel, message: 'Поле' }, [png('avatar')]));
    expect(unknownField.statusCode).toBe(400);

    expect(await countRows(user.id)).toEqual({ chats: 0, messages: 0, files: 0 });
    expect(await walletState(t.db, user.id)).toEqual(before);
  });

  it('validates the fields with Russian messages', async () => {
    const user = await richUser();
    const noMessage = await send(user, messageParts({ ai_models_id: demoModel, message: '   ' }));
    expect(noMessage.statusCode).toBe(400);
    expect(noMessage.data.text).toMatchObject({ message: ['Введите сообщение'] });
    const noModel = await send(user, messageParts({ message: 'Привет' }));
    expect(noModel.statusCode).toBe(400);
    expect(noModel.data.text).toHaveProperty('ai_models_id');
    const badParam = await send(user, messageParts({ ai_models_id: demoModel, param: 'turbo', message: 'Привет' }));
    expect(badParam.data.text).toEqual({ param: ['Выберите параметр из списка'] });
    const long = await send(user, messageParts({ ai_models_id: demoModel, message: 'я'.repeat(20_001) }));
    expect(long.data.text).toMatchObject({ message: ['Сообщение слишком длинное'] });
    const badChat = await send(user, messageParts({ ai_models_id: demoModel, message: 'Привет', chat_id: 'abc' }));
    expect(badChat.statusCode).toBe(400);
    const json = await call(t.app, { method: 'POST', url: chatRoutes.send.path, token: user.token, payload: { ai_models_id: demoModel, message: 'JSON' } });
    expect(json.statusCode).toBe(415);
    expect(await countRows(user.id)).toEqual({ chats: 0, messages: 0, files: 0 });
  });

  it('answers 402 with too few words, storing nothing', async () => {
    const user = await newUser(t.db);
    await give(user.id, 50);
    const res = await send(user, messageParts({ ai_models_id: demoModel, message: 'Привет' }, [png()]));
    expect(res.statusCode).toBe(402);
    expect(res.data.text).toBe('Недостаточно токенов');
    const streamed = await send(user, messageParts({ ai_models_id: demoModel, message: 'Привет' }), { stream: true });
    expect(streamed.statusCode).toBe(402);
    expect(streamed.headers['content-type']).toContain('application/json');
    expect(await countRows(user.id)).toEqual({ chats: 0, messages: 0, files: 0 });
    expect((await walletState(t.db, user.id)).balance.words).toBe(50);
  });

  it('is for signed-in, confirmed users, with the CSRF token when signed in by cookie', async () => {
    const parts = messageParts({ ai_models_id: demoModel, message: 'Привет' });
    expect((await send(undefined, parts)).statusCode).toBe(401);
    const unconfirmed = await newUser(t.db, { confirmed: false });
    expect((await send(unconfirmed, parts)).statusCode).toBe(403);
    const blocked = await newUser(t.db, { blocked: true });
    expect((await send(blocked, parts)).statusCode).toBe(403);
    const user = await richUser();
    expect((await send(undefined, parts, { cookies: { session: user.cookie } })).statusCode).toBe(419);
    const csrf = await csrfPair(t.app);
    const withCsrf = await send(undefined, parts, { cookies: { session: user.cookie, 'XSRF-TOKEN': csrf.cookie }, headers: { 'x-xsrf-token': csrf.header } });
    expect(withCsrf.statusCode).toBe(200);
  });
});

describe('the streamed send (POST /api/new/chat/stream)', () => {
  it('streams start, deltas and done; the stored answer and the charge equal the non-streamed call’s', async () => {
    const user = await richUser(10_000);
    const res = await send(user, messageParts({ ai_models_id: demoModel, message: 'Напиши план подготовки к экзамену' }), { stream: true });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/event-stream');
    const events = parseEvents(res.body).events;
    expect(events[0]?.event).toBe('start');
    expect(events.at(-1)?.event).toBe('done');
    const deltas = events.filter((e) => e.event === 'delta').map((e) => (e.data as { text: string }).text);
    expect(deltas.length).toBeGreaterThan(10);
    const done = events.at(-1)?.data as { chat_id: number; message: string; message_id: number; words: number; status: string; balances: { words: number } };
    expect(deltas.join('')).toBe(done.message);
    expect(done.status).toBe('done');
    expect((await answerRow(done.message_id)).text).toBe(done.message);

    const other = await richUser(10_000);
    const plain = (await send(other, messageParts({ ai_models_id: demoModel, message: 'Напиши план подготовки к экзамену' }))).data.json as { message: string; words: number };
    expect(plain.message).toBe(done.message);
    expect(plain.words).toBe(done.words);
    expect(done.balances.words).toBe(10_000 - done.words);
  });

  it('a provider failure after start is an error event, and the words come back', async () => {
    const user = await richUser(10_000);
    fake.behaviour = { kind: 'broken_stream', afterChunks: 1 };
    const res = await send(user, messageParts({ ai_models_id: fakeModel, message: 'Сломайся' }), { stream: true });
    const events = parseEvents(res.body).events;
    expect(events.map((e) => e.event)).toEqual(['start', 'delta', 'error']);
    expect(events.at(-1)?.data).toMatchObject({ status: 'error', code: 'AI_REQUEST_FAILED', text: 'Ошибка при выполнении запроса' });
    const start = events[0]?.data as { message_id: number };
    expect(await answerRow(start.message_id)).toMatchObject({ status: 'failed', words: 0 });
    const state = await walletState(t.db, user.id);
    expect(state.balance).toEqual(state.sums);
    expect(state.balance.words).toBe(10_000);
  });

  it('the non-streamed send answers 502 «Ошибка при выполнении запроса» on a 500, a 429 or a timeout, releasing the hold', async () => {
    const user = await richUser(10_000);
    for (const behaviour of [{ kind: 'server_error' }, { kind: 'rate_limited', retryAfterSeconds: 3 }, { kind: 'slow', delayMs: 6000 }] as const) {
      fake.behaviour = behaviour;
      const res = await send(user, messageParts({ ai_models_id: fakeModel, message: 'Ошибка?' }));
      expect(res.statusCode).toBe(502);
      expect(res.data.text).toBe('Ошибка при выполнении запроса');
    }
    const statuses = await t.db.selectFrom('chat_messages').select('status').where('user_id', '=', user.id).where('role', '=', 'assistant').execute();
    expect(statuses.map((s) => s.status)).toEqual(['failed', 'failed', 'failed']);
    expect((await walletState(t.db, user.id)).balance.words).toBe(10_000);
  }, 20_000);

  it('deleting the account stops an answer being written: its stream ends at once, the provider’s request is closed, the answer goes with the account', async () => {
    const user = await richUser(10_000);
    fake.answer = { pieces: ['Первая часть', ' ответа', ' — и ещё много текста'], finishReason: 'stop', promptTokens: 60, completionTokens: 50 };
    // The provider goes silent after two pieces: without a stop the answer would wait out the idle limit.
    fake.behaviour = { kind: 'stalled_stream', afterChunks: 2 };
    const stream = await openStream(user, messageParts({ ai_models_id: fakeModel, message: 'Длинный ответ' }));
    expect((await stream.next())?.event).toBe('start');
    expect(await stream.next()).toEqual({ event: 'delta', data: { text: 'Первая часть' } });
    expect(await stream.next()).toEqual({ event: 'delta', data: { text: ' ответа' } });

    const removed = await call(t.app, { method: 'POST', url: '/api/new/account/delete', token: user.token, payload: { password: user.password, confirm: true } });
    expect(removed.statusCode).toBe(200);
    const done = await stream.next();
    expect(done?.event).toBe('done');
    expect(done?.data).toMatchObject({ message: 'Первая часть ответа', status: 'stopped' });
    expect(await stream.next()).toBeNull();
    await fake.chatRequests[0]?.closed;
    expect(await t.db.selectFrom('chat_messages').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    const state = await walletState(t.db, user.id);
    expect(state.balance).toEqual(state.sums);
    expect(await t.db.selectFrom('wallet_holds').select('id').where('user_id', '=', user.id).where('status', '=', 'held').execute()).toEqual([]);
  }, 20_000);

  it('stop ends the answer: kept as far as it went and charged only for that', async () => {
    const user = await richUser(10_000);
    // A real tokenizer's count of the system prompt and the question.
    fake.answer = { pieces: ['Первая часть', ' ответа', ' — и ещё много текста'], finishReason: 'stop', promptTokens: 60, completionTokens: 50 };
    fake.behaviour = { kind: 'stalled_stream', afterChunks: 2 };
    const stream = await openStream(user, messageParts({ ai_models_id: fakeModel, message: 'Длинный ответ' }));
    const start = (await stream.next())?.data as { chat_id: number; message_id: number };
    expect(await stream.next()).toEqual({ event: 'delta', data: { text: 'Первая часть' } });
    expect(await stream.next()).toEqual({ event: 'delta', data: { text: ' ответа' } });
    // A second message into the busy chat waits for this one.
    const busy = await send(user, messageParts({ ai_models_id: fakeModel, message: 'Ещё', chat_id: start.chat_id }));
    expect(busy.statusCode).toBe(409);
    expect(busy.data.text).toBe('Дождитесь окончания ответа в этом чате');

    const stop = await call(t.app, { method: 'POST', url: `/api/new/chat/${String(start.chat_id)}/stop`, token: user.token, payload: {} });
    expect(stop.data.json).toEqual({ stopped: true });
    const done = await stream.next();
    expect(done?.event).toBe('done');
    const result = done?.data as { message: string; status: string; words: number; balances: { words: number } };
    expect(result).toMatchObject({ message: 'Первая часть ответа', status: 'stopped' });
    const row = await answerRow(start.message_id);
    const hold = await t.db.selectFrom('wallet_holds').select(['amount', 'spent']).where('id', '=', row.hold_id ?? 0).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ text: 'Первая часть ответа', status: 'stopped', words: result.words });
    // No usage after a stop: a fair estimate of the input and of the text written, at 1.5 words a token…
    const input = inputTokensEstimate('openai', [
      { role: 'system', text: SYSTEM_PROMPT },
      { role: 'user', text: 'Длинный ответ' },
    ]);
    expect(result.words).toBe(wordsFor(input + Math.ceil('Первая часть ответа'.length / 3), 1.5));
    // …never more than the whole answer would have cost (60 + 50 tokens).
    expect(result.words).toBeLessThanOrEqual(wordsFor(60 + 50, 1.5));
    expect(hold.spent).toBe(result.words);
    expect(result.balances.words).toBe(10_000 - result.words);
    const state = await walletState(t.db, user.id);
    expect(state.balance).toEqual(state.sums);
    // Nothing left to stop.
    expect((await call(t.app, { method: 'POST', url: `/api/new/chat/${String(start.chat_id)}/stop`, token: user.token, payload: {} })).data.json).toEqual({ stopped: false });
  });

  it('an answer whose client went away completes and is stored, so a reload shows it', async () => {
    const user = await richUser(10_000);
    fake.behaviour = { kind: 'slow', delayMs: 700 };
    const controller = new AbortController();
    const stream = await openStream(user, messageParts({ ai_models_id: fakeModel, message: 'Уйду' }), controller.signal);
    const start = (await stream.next())?.data as { chat_id: number; message_id: number };
    controller.abort();
    const row = await until(async () => {
      const r = await answerRow(start.message_id);
      return r.status !== 'generating' && r;
    }, 10_000, 25);
    expect(row).toMatchObject({ status: 'done', text: 'Привет! Чем помочь?', words: 26 });
    const messages = (await get(user, `/api/new/chat/${String(start.chat_id)}`)).data.json as { text: string }[];
    expect(messages.at(-1)?.text).toBe('Привет! Чем помочь?');
    expect((await walletState(t.db, user.id)).balance.words).toBe(10_000 - 26);
  });
});

describe('the streamed send with a JSON body (a message without pictures, as the widget sends it)', () => {
  const json = (user: TestUser | undefined, payload: unknown, url: string = chatRoutes.sendStream.path) =>
    call(t.app, { method: 'POST', url, token: user?.token, payload: typeof payload === 'string' ? payload : JSON.stringify(payload), headers: { 'content-type': 'application/json' } });
  const messagesOf = (userId: number) => t.db.selectFrom('chat_messages').select('id').where('user_id', '=', userId).execute();

  it('streams and charges as the multipart send does, numbers or strings for the ids', async () => {
    const user = await richUser(10_000);
    const res = await json(user, { ai_models_id: demoModel, message: 'Напиши план подготовки к экзамену' });
    expect(res.statusCode).toBe(200);
    const events = parseEvents(res.body).events;
    expect(events.map((e) => e.event).filter((e) => e !== 'delta')).toEqual(['start', 'done']);
    const done = events.at(-1)?.data as { chat_id: number; message: string; words: number; status: string; balances: { words: number } };
    expect(done.status).toBe('done');
    expect(done.balances.words).toBe(10_000 - done.words);
    const next = parseEvents((await json(user, { ai_models_id: String(demoModel), message: 'Ещё раз', chat_id: String(done.chat_id) })).body).events;
    expect((next[0]?.data as { chat_id: number }).chat_id).toBe(done.chat_id);
    const state = await walletState(t.db, user.id);
    expect(state.balance).toEqual(state.sums);
  });

  it('refuses a missing, malformed or hostile body in Russian and stores nothing', async () => {
    const user = await richUser(10_000);
    const empty = await json(user, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.data.text).toMatchObject({ message: ['Введите сообщение'] });
    const blank = await json(user, { ai_models_id: demoModel, message: '   ' });
    expect(blank.data.text).toMatchObject({ message: ['Введите сообщение'] });
    const badId = await json(user, { ai_models_id: 'один', message: 'Привет' });
    expect(badId.statusCode).toBe(400);
    expect(badId.data.text).toHaveProperty('ai_models_id');
    for (const payload of ['{"ai_models_id": 1, "message": ', '[1, 2]', 'null', '"Привет"']) {
      const res = await json(user, payload);
      expect(res.statusCode, payload).toBe(400);
      expect(typeof res.data.text === 'string' ? res.data.text : JSON.stringify(res.data.text), payload).toMatch(/[а-яё]/i);
    }
    const long = await json(user, { ai_models_id: demoModel, message: 'я'.repeat(2_000_000) });
    expect([400, 413]).toContain(long.statusCode);
    // Pictures go only as files: a field of that name in JSON is no picture and is not stored as one.
    const smuggled = await json(user, { ai_models_id: demoModel, message: 'Что на картинке?', image_example: TINY_PNG.toString('base64') });
    expect(smuggled.statusCode).toBe(200);
    expect(await t.db.selectFrom('files').select('id').where('owner_id', '=', user.id).execute()).toEqual([]);
    expect(await messagesOf(user.id)).toHaveLength(2);
    const state = await walletState(t.db, user.id);
    expect(state.balance).toEqual(state.sums);
  });

  it('a guest, an unconfirmed account and another user’s chat are refused as with multipart', async () => {
    expect((await json(undefined, { ai_models_id: demoModel, message: 'Привет' })).statusCode).toBe(401);
    const owner = await richUser(10_000);
    const first = parseEvents((await json(owner, { ai_models_id: demoModel, message: 'Мой чат' })).body).events[0]?.data as { chat_id: number };
    const stranger = await richUser(10_000);
    const foreign = await json(stranger, { ai_models_id: demoModel, message: 'Чужой чат', chat_id: first.chat_id });
    expect(foreign.statusCode).toBe(404);
    expect(await messagesOf(stranger.id)).toEqual([]);
  });

  it('the seed’s send (POST /api/new/chat) stays multipart only', async () => {
    const user = await richUser(10_000);
    const res = await json(user, { ai_models_id: demoModel, message: 'Привет' }, chatRoutes.send.path);
    expect(res.statusCode).toBe(415);
    expect(res.data.text).toBe('Ожидались данные формы (multipart/form-data)');
    expect(await messagesOf(user.id)).toEqual([]);
  });
});

describe('chats of other users and chat management', () => {
  it('another user’s chat is not found for reading, sending, stopping, renaming or deleting', async () => {
    const owner = await richUser();
    const chatId = ((await send(owner, messageParts({ ai_models_id: demoModel, message: 'Мой чат' }))).data.json as { chat_id: number }).chat_id;
    const stranger = await richUser();
    const url = `/api/new/chat/${String(chatId)}`;
    expect((await get(stranger, url)).statusCode).toBe(404);
    expect((await send(stranger, messageParts({ ai_models_id: demoModel, message: 'Чужой', chat_id: chatId }))).statusCode).toBe(404);
    expect((await call(t.app, { method: 'POST', url: `${url}/stop`, token: stranger.token, payload: {} })).statusCode).toBe(404);
    expect((await call(t.app, { method: 'PATCH', url, token: stranger.token, payload: { title: 'Взлом' } })).statusCode).toBe(404);
    expect((await call(t.app, { method: 'DELETE', url, token: stranger.token })).statusCode).toBe(404);
    expect(await countRows(stranger.id)).toEqual({ chats: 0, messages: 0, files: 0 });
    expect(await countRows(owner.id)).toMatchObject({ chats: 1, messages: 2 });
    expect((await get(owner, '/api/new/chat/99999999')).statusCode).toBe(404);
    expect((await get(owner, '/api/new/chat/abc')).statusCode).toBe(400);
    expect((await get(undefined, url)).statusCode).toBe(401);
  });

  it('renames (PATCH, or POST with _method) with a validated title', async () => {
    const user = await richUser();
    const chatId = ((await send(user, messageParts({ ai_models_id: demoModel, message: 'Старое название' }))).data.json as { chat_id: number }).chat_id;
    const url = `/api/new/chat/${String(chatId)}`;
    const renamed = await call(t.app, { method: 'PATCH', url, token: user.token, payload: { title: '  Путешествия  ' } });
    expect(renamed.data.json).toMatchObject({ id: chatId, text: 'Путешествия' });
    const spoofed = await call(t.app, { method: 'POST', url, token: user.token, payload: { _method: 'PATCH', title: 'Планы' } });
    expect(spoofed.data.json).toMatchObject({ text: 'Планы' });
    const empty = await call(t.app, { method: 'PATCH', url, token: user.token, payload: { title: ' ' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.data.text).toEqual({ title: ['Введите название'] });
    expect((await call(t.app, { method: 'PATCH', url, token: user.token, payload: { title: 'я'.repeat(101) } })).data.text).toEqual({ title: ['Не длиннее 100 символов'] });
    expect((await call(t.app, { method: 'PATCH', url, token: user.token, payload: {} })).statusCode).toBe(400);
  });

  it('deletes a chat with its messages and images, blobs included', async () => {
    const user = await richUser();
    const chatId = ((await send(user, messageParts({ ai_models_id: demoModel, message: 'С картинкой' }, [png()]))).data.json as { chat_id: number }).chat_id;
    const file = await t.db.selectFrom('files').select(['storage_key']).where('owner_id', '=', user.id).executeTakeFirstOrThrow();
    expect(await t.ctx.storage.exists(file.storage_key)).toBe(true);
    const res = await call(t.app, { method: 'DELETE', url: `/api/new/chat/${String(chatId)}`, token: user.token });
    expect(res.data.json).toEqual({ deleted: true });
    expect(await countRows(user.id)).toEqual({ chats: 0, messages: 0, files: 0 });
    expect(await t.ctx.storage.exists(file.storage_key)).toBe(false);
    expect((await call(t.app, { method: 'DELETE', url: `/api/new/chat/${String(chatId)}`, token: user.token })).statusCode).toBe(404);
  });
});

describe('money under concurrency and crashes', () => {
  it('50 concurrent sends from one user with words for 2: exactly 2 are answered, the rest get 402, balance = ledger', async () => {
    const probe = await richUser();
    fake.behaviour = { kind: 'slow', delayMs: 1500 };
    const message = 'Параллельный запрос';
    const first = await send(probe, messageParts({ ai_models_id: fakeModel, message }));
    expect(first.statusCode).toBe(200);
    const holdAmount = (await t.db.selectFrom('wallet_holds').select('amount').where('user_id', '=', probe.id).executeTakeFirstOrThrow()).amount;

    const user = await newUser(t.db);
    await give(user.id, holdAmount * 2);
    const results = await Promise.all(Array.from({ length: 50 }, () => send(user, messageParts({ ai_models_id: fakeModel, message }))));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(2);
    expect(codes.filter((c) => c === 402)).toHaveLength(48);
    const state = await walletState(t.db, user.id);
    expect(state.balance).toEqual(state.sums);
    expect(state.balance.words).toBe(holdAmount * 2 - 2 * 26);
    expect(await countRows(user.id)).toEqual({ chats: 2, messages: 4, files: 0 });
  }, 30_000);

  it('an answer whose process died is closed by the job: kept, charged for what it wrote, the rest returned', async () => {
    const user = await richUser(1000);
    const chat = await t.db.insertInto('chats').values({ user_id: user.id, title: 'Сбой', model_id: demoModel }).returning('id').executeTakeFirstOrThrow();
    const answer = await t.db
      .insertInto('chat_messages')
      .values({ chat_id: chat.id, user_id: user.id, role: 'assistant', status: 'generating', model_id: demoModel, model_name: 'Демо-ассистент', text: 'Оборванный ответ' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const hold = await placeHold(t.db, { userId: user.id, kind: 'words', amount: 400, idempotencyKey: `chat-answer:${String(answer.id)}` });
    const old = new Date(Date.now() - ABANDONED_AFTER_MS - 1000);
    await t.db.updateTable('chat_messages').set({ hold_id: hold.id, updated_at: old }).where('id', '=', answer.id).execute();
    const empty = await t.db
      .insertInto('chat_messages')
      .values({ chat_id: chat.id, user_id: user.id, role: 'assistant', status: 'generating', model_id: demoModel, updated_at: old })
      .returning('id')
      .executeTakeFirstOrThrow();

    expect(await closeAbandonedAnswers(t.ctx)).toBe(2);
    // «Оборванный ответ»: 2 demo tokens at 1 word each.
    expect(await answerRow(answer.id)).toMatchObject({ status: 'stopped', words: 2, text: 'Оборванный ответ' });
    expect(await answerRow(empty.id)).toMatchObject({ status: 'failed', words: 0 });
    const state = await walletState(t.db, user.id);
    expect(state.balance).toEqual(state.sums);
    expect(state.balance.words).toBe(998);
    expect(await closeAbandonedAnswers(t.ctx)).toBe(0);
  });

  it('deleting a chat whose answer is being written elsewhere hides it at once and leaves the hold to whoever closes the answer', async () => {
    const user = await richUser(1000);
    const chat = await t.db.insertInto('chats').values({ user_id: user.id, title: 'Удаляемый', model_id: demoModel }).returning('id').executeTakeFirstOrThrow();
    const answer = await t.db
      .insertInto('chat_messages')
      .values({ chat_id: chat.id, user_id: user.id, role: 'assistant', status: 'generating', model_id: demoModel, model_name: 'Демо-ассистент', text: 'Пишется' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const hold = await placeHold(t.db, { userId: user.id, kind: 'words', amount: 300, idempotencyKey: `chat-answer:${String(answer.id)}` });
    await t.db.updateTable('chat_messages').set({ hold_id: hold.id }).where('id', '=', answer.id).execute();
    expect((await walletState(t.db, user.id)).balance.words).toBe(700);

    const res = await call(t.app, { method: 'DELETE', url: `/api/new/chat/${String(chat.id)}`, token: user.token });
    expect(res.data.json).toEqual({ deleted: true });
    expect((await get(user, `/api/new/chat/${String(chat.id)}`)).statusCode).toBe(404);
    expect((await get(user, '/api/new/chat?page=1')).data.json).toMatchObject({ data: [] });
    // Nobody here writes it: the hold waits for the process that does (or the abandoned-answer job).
    expect((await walletState(t.db, user.id)).balance.words).toBe(700);
    await t.db.updateTable('chat_messages').set({ updated_at: new Date(Date.now() - ABANDONED_AFTER_MS - 1000) }).where('id', '=', answer.id).execute();
    expect(await closeAbandonedAnswers(t.ctx)).toBe(1);
    const state = await walletState(t.db, user.id);
    expect(state.balance).toEqual(state.sums);
    // «Пишется»: 1 demo token at 1 word.
    expect(state.balance.words).toBe(999);
    expect(await countRows(user.id)).toEqual({ chats: 0, messages: 0, files: 0 });
  });

  it('concurrent sends into one chat: one is answered, the others wait their turn (409)', async () => {
    const user = await richUser();
    const chatId = ((await send(user, messageParts({ ai_models_id: fakeModel, message: 'Начало' }))).data.json as { chat_id: number }).chat_id;
    fake.behaviour = { kind: 'slow', delayMs: 800 };
    const results = await Promise.all(Array.from({ length: 6 }, () => send(user, messageParts({ ai_models_id: fakeModel, message: 'Вместе', chat_id: chatId }))));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const state = await walletState(t.db, user.id);
    expect(state.balance).toEqual(state.sums);
    expect(await countRows(user.id)).toMatchObject({ chats: 1, messages: 4 });
  });

  it('a stop through NOTIFY from another process, and a stopping server, keep each answer as far as it went', async () => {
    const user = await richUser(10_000);
    fake.behaviour = { kind: 'stalled_stream', afterChunks: 2 };
    const first = await openStream(user, messageParts({ ai_models_id: fakeModel, message: 'Первый' }));
    const start1 = (await first.next())?.data as { message_id: number };
    await first.next();
    await first.next();
    // Another process's runs know nothing of this answer: their stop goes through Postgres.
    const elsewhere = new ChatRuns(() => t.ctx);
    await elsewhere.stop(start1.message_id);
    expect((await first.next())?.data).toMatchObject({ status: 'stopped', message: 'Привет! Чем' });

    const second = await openStream(user, messageParts({ ai_models_id: fakeModel, message: 'Второй' }));
    const start2 = (await second.next())?.data as { message_id: number };
    await second.next();
    await second.next();
    await t.ctx.chatRuns.stopAll();
    expect((await second.next())?.data).toMatchObject({ status: 'stopped', message: 'Привет! Чем' });
    expect(await answerRow(start2.message_id)).toMatchObject({ status: 'stopped', text: 'Привет! Чем' });
    const state = await walletState(t.db, user.id);
    expect(state.balance).toEqual(state.sums);
  });
});

describe('text the database must be able to store', () => {
  it('a NUL, an emoji cut by the title and a model id beyond 32 bits are handled, not 500s', async () => {
    const user = await richUser();
    const long = `${'а'.repeat(98)}😀😀 и дальше`;
    const res = await send(user, messageParts({ ai_models_id: demoModel, message: `${long}\u0000` }));
    expect(res.statusCode).toBe(200);
    const chatId = (res.data.json as { chat_id: number }).chat_id;
    const chat = await t.db.selectFrom('chats').select('title').where('id', '=', chatId).executeTakeFirstOrThrow();
    expect(chat.title).toBe(`${'а'.repeat(98)}😀…`);
    const stored = await t.db.selectFrom('chat_messages').select('text').where('chat_id', '=', chatId).where('role', '=', 'user').executeTakeFirstOrThrow();
    expect(stored.text).toBe(long);

    const renamed = await call(t.app, { method: 'PATCH', url: `/api/new/chat/${String(chatId)}`, token: user.token, payload: { title: 'Имя\u0000 \ud83d' } });
    expect(renamed.statusCode).toBe(200);
    expect((renamed.data.json as { text: string }).text).toBe('Имя \ufffd');

    const huge = await send(user, messageParts({ ai_models_id: 3_000_000_000, message: 'Привет' }));
    expect(huge.statusCode).toBe(400);
    expect(huge.data.text).toEqual({ ai_models_id: ['Неверный идентификатор'] });
  });
});
