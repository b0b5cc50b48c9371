import crypto from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminAiModel } from '@app/contracts';
import { ModelCache } from '../../src/features/ai/model-cache.ts';
import { credit } from '../../src/features/wallet/wallet.queries.ts';
import { PgListener } from '../../src/lib/pg-listener.ts';
import { createTestApp, multipart, newAdmin, newUser, until, type TestApp, type TestUser } from '../support/index.ts';
import { adminCalls, catalogState, expectRefused, fieldErrorsOf, json, type Page } from './admin-ai-support.ts';

/*
 * The admin's models: every column (kind, connection, provider model, prices, answer limit,
 * `setting.model.params` checked by the runtime's reader), the kind a connection can run and
 * the products on a model can use; a change reaches chats at once (the model cache is dropped,
 * here and in other processes); deletion refused while products use a model, a switch-off
 * while history refers to it; every change audited.
 */

let t: TestApp;
let admin: TestUser;
let api: ReturnType<typeof adminCalls>;
const conn: Record<'demo' | 'openai' | 'replicate', number> = { demo: 0, openai: 0, replicate: 0 };
let category: number;

beforeAll(async () => {
  t = await createTestApp({ workers: false, env: { DEMO_WORD_DELAY_MS: '0' } });
  admin = await newAdmin(t.db);
  api = adminCalls(t, admin);
  conn.demo = (await t.db.insertInto('provider_connections').values({ name: 'Демо', protocol: 'demo' }).returning('id').executeTakeFirstOrThrow()).id;
  conn.openai = (
    await t.db.insertInto('provider_connections').values({ name: 'OpenAI', protocol: 'openai', base_url: 'http://127.0.0.1:9/v1', api_key_env: 'NONE_API_KEY' }).returning('id').executeTakeFirstOrThrow()
  ).id;
  conn.replicate = (
    await t.db.insertInto('provider_connections').values({ name: 'Replicate', protocol: 'replicate', base_url: 'http://127.0.0.1:9', api_key_env: 'NONE_API_TOKEN' }).returning('id').executeTakeFirstOrThrow()
  ).id;
  category = (await t.db.insertInto('ai_categories').values({ name: 'Основная' }).returning('id').executeTakeFirstOrThrow()).id;
});
afterAll(() => t.close());

const PARAMS = [
  { value: 'square', label: 'Квадрат', provider: { size: '1024x1024', n: 1, hd: false } },
  { value: 'calm', label: 'Спокойный', temperature: 0.3, max_output_tokens: 200 },
];
const chatModel = (over: Record<string, unknown> = {}) => ({
  name: `Ассистент ${crypto.randomBytes(2).toString('hex')}`,
  kind: 'chat',
  connection_id: conn.demo,
  provider_model: 'demo',
  words_per_token: 1.25,
  media_price: 0,
  media_per_second: 0,
  max_output_tokens: 300,
  setting: { model: { params: [{ value: 'balanced', label: 'Сбалансированный', temperature: 0.7 }] } },
  description: 'Для тестов',
  sort: 7,
  active: true,
  ...over,
});

async function created(body: Record<string, unknown>): Promise<AdminAiModel> {
  const res = await api.post('/api/admin/ai-models', body);
  expect(res.statusCode, res.body).toBe(200);
  return (json(res) as AdminAiModel);
}

const chatModels = async (user: TestUser) => (json(await api.as(user.token).get('/api/new/chat_models')) as { id: number; name: string; setting: { model: { params: { value: string }[] } }; max_words: number }[]);

async function sendChat(user: TestUser, modelId: number) {
  const body = multipart([
    { name: 'ai_models_id', value: String(modelId) },
    { name: 'message', value: 'Привет' },
  ]);
  return t.app.inject({ method: 'POST', url: '/api/new/chat', payload: body.payload, headers: { ...body.headers, authorization: `Bearer ${user.token}` } });
}

async function richUser(): Promise<TestUser> {
  const user = await newUser(t.db);
  await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `models-${String(user.id)}` }, 100_000));
  return user;
}

describe('AI models: create, read, list', () => {
  it('creates a model with every column; prices in media tokens on the wire, tenths inside; users see it in the chat models', async () => {
    const res = await api.post('/api/admin/ai-models', { ...chatModel({ name: 'Новая модель', kind: 'image', media_price: 2.5, media_per_second: 0.5 }), setting: { model: { params: PARAMS } } });
    expect(res.statusCode, res.body).toBe(200);
    const model = (json(res) as AdminAiModel);
    expect(model).toMatchObject({
      name: 'Новая модель',
      kind: 'image',
      connection_id: conn.demo,
      connection: 'Демо',
      protocol: 'demo',
      provider_model: 'demo',
      words_per_token: 1.25,
      media_price: 2.5,
      media_per_second: 0.5,
      max_output_tokens: 300,
      setting: { model: { params: PARAMS } },
      description: 'Для тестов',
      sort: 7,
      active: true,
      history_messages: null,
      products: 0,
    });
    const row = await t.db.selectFrom('ai_models').selectAll().where('id', '=', model.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ media_price_tenths: 25, media_per_second_tenths: 5, setting: { model: { params: PARAMS } } });
    expect((json(await api.get(`/api/admin/ai-models/${String(model.id)}`)) as AdminAiModel)).toEqual(model);
    const [audit] = await api.audit('ai_model', model.id);
    expect(audit).toMatchObject({ action: 'ai_model.create', actor_id: admin.id, actor_email: admin.email, before: null, after: { name: 'Новая модель', media_price_tenths: 25, setting: { model: { params: PARAMS } } } });

    const chat = await created(chatModel({ name: 'Чат для пользователей' }));
    const listed = (await chatModels(await newUser(t.db))).find((m) => m.id === chat.id);
    expect(listed).toMatchObject({ name: 'Чат для пользователей', setting: { model: { params: [{ value: 'balanced', label: 'Сбалансированный' }] } }, max_words: 375 });
  });

  it('lists 20 a page, searches by name or provider model, filters by kind and connection, sorts by a named column', async () => {
    const tag = crypto.randomBytes(3).toString('hex');
    for (let i = 0; i < 20; i++) await created(chatModel({ name: `${tag} чат ${String(i).padStart(2, '0')}` }));
    await created(chatModel({ name: 'Видео по тегу', kind: 'video', provider_model: `owner/${tag}-video`, connection_id: conn.replicate }));
    const first = (json(await api.get(`/api/admin/ai-models?q=${tag}&sort=name&dir=asc`)) as Page<AdminAiModel>);
    expect(first.last_page).toBe(2);
    expect(first.data[0]?.name).toBe(`${tag} чат 00`);
    const second = (json(await api.get(`/api/admin/ai-models?q=${tag}&sort=name&dir=asc&page=2`)) as Page<AdminAiModel>);
    expect(second.data.map((m) => m.name)).toEqual(['Видео по тегу']);
    expect((json(await api.get(`/api/admin/ai-models?q=${tag}&kind=video`)) as Page<AdminAiModel>).data.map((m) => m.provider_model)).toEqual([`owner/${tag}-video`]);
    expect((json(await api.get(`/api/admin/ai-models?q=${tag}&connection_id=${String(conn.replicate)}`)) as Page<AdminAiModel>).data).toHaveLength(1);
    expect((json(await api.get(`/api/admin/ai-models?q=${tag}&sort=kind&dir=desc`)) as Page<AdminAiModel>).data[0]?.kind).toBe('video');
    for (const query of ['sort=setting', 'kind=audio', 'connection_id=-5', 'dir=0']) expectRefused(await api.get(`/api/admin/ai-models?${query}`), query);
  });
});

describe('AI models: what the editor may not send', () => {
  it('refuses bad columns, kinds a connection cannot run and parameter lists the reader would not read as given; stores nothing', async () => {
    const before = await catalogState(t.db);
    const params = (list: unknown) => chatModel({ setting: { model: { params: list } } });
    const cases: [string, Record<string, unknown>, string][] = [
      ['no name', chatModel({ name: undefined }), 'name'],
      ['unknown kind', chatModel({ kind: 'audio' }), 'kind'],
      ['no provider model', chatModel({ provider_model: ' ' }), 'provider_model'],
      ['no such connection', chatModel({ connection_id: 2_147_483_647 }), 'connection_id'],
      ['video on the OpenAI protocol', chatModel({ kind: 'video', connection_id: conn.openai }), 'connection_id'],
      ['chat on Replicate', chatModel({ connection_id: conn.replicate }), 'connection_id'],
      ['a negative price', chatModel({ media_price: -1 }), 'media_price'],
      ['two decimals of media', chatModel({ media_price: 1.25 }), 'media_price'],
      ['price as text', chatModel({ media_per_second: '1' }), 'media_per_second'],
      ['five decimals per token', chatModel({ words_per_token: 1.00001 }), 'words_per_token'],
      ['answer limit zero', chatModel({ max_output_tokens: 0 }), 'max_output_tokens'],
      ['answer limit fractional', chatModel({ max_output_tokens: 10.5 }), 'max_output_tokens'],
      ['a history cap above the window', chatModel({ history_messages: 21 }), 'history_messages'],
      ['a negative history cap', chatModel({ history_messages: -1 }), 'history_messages'],
      ['a history cap as text', chatModel({ history_messages: '4' }), 'history_messages'],
      ['setting as a JSON string', chatModel({ setting: JSON.stringify({ model: { params: [] } }) }), 'setting'],
      ['params not a list', params({ value: 'a' }), 'setting'],
      ['a repeated value', params([{ value: 'a', label: 'А' }, { value: 'a', label: 'Б' }]), 'setting'],
      ['a choice without a value', params([{ label: 'Без значения' }]), 'setting'],
      ['a temperature above 2', params([{ value: 'hot', label: 'Жарко', temperature: 3 }]), 'setting'],
      ['a provider value that is an object', params([{ value: 'x', label: 'X', provider: { size: { w: 1 } } }]), 'setting'],
      ['a provider key the reader would not pass on', params([{ value: 'x', label: 'X', provider: { 'Bad Key': 1 } }]), 'setting'],
      ['an unknown key in a choice', params([{ value: 'x', label: 'X', price: 5 }]), 'setting'],
    ];
    for (const [label, body, field] of cases) {
      const res = await api.post('/api/admin/ai-models', body);
      expectRefused(res, label);
      expect(Object.keys(fieldErrorsOf(res)), label).toContain(field);
    }
    expect(fieldErrorsOf(await api.post('/api/admin/ai-models', params([{ value: 'a', label: 'А' }, { value: 'a', label: 'Б' }]))).setting).toEqual(['Значение «a» повторяется: у каждого варианта своё']);
    for (const extra of [{ id: 5 }, { products: 3 }, { media_price_tenths: 10 }]) expectRefused(await api.post('/api/admin/ai-models', chatModel(extra)), JSON.stringify(extra));
    expect(await catalogState(t.db)).toEqual(before);
  });
});

describe('AI models: update', () => {
  it('changes columns and params; the audit log has before and after; users see the change right away', async () => {
    const model = await created(chatModel({ name: 'Старое имя' }));
    const user = await newUser(t.db);
    expect((await chatModels(user)).find((m) => m.id === model.id)?.name).toBe('Старое имя');
    const params = [{ value: 'fast', label: 'Быстро', max_output_tokens: 100 }];
    const res = await api.patch(`/api/admin/ai-models/${String(model.id)}`, { name: 'Новое имя', setting: { model: { params } }, words_per_token: 2 });
    expect(res.statusCode, res.body).toBe(200);
    expect((json(res) as AdminAiModel)).toMatchObject({ name: 'Новое имя', words_per_token: 2, setting: { model: { params } } });
    expect((await chatModels(user)).find((m) => m.id === model.id)).toMatchObject({ name: 'Новое имя', setting: { model: { params: [{ value: 'fast' }] } }, max_words: 600 });
    // Staff cap the history the model gets with each message; null is the service's window again.
    const capped = await api.patch(`/api/admin/ai-models/${String(model.id)}`, { history_messages: 4 });
    expect((json(capped) as AdminAiModel).history_messages).toBe(4);
    expect((await t.db.selectFrom('ai_models').select('history_messages').where('id', '=', model.id).executeTakeFirstOrThrow()).history_messages).toBe(4);
    expect((json(await api.patch(`/api/admin/ai-models/${String(model.id)}`, { history_messages: null })) as AdminAiModel).history_messages).toBeNull();
    const [, , audit] = await api.audit('ai_model', model.id);
    expect(audit).toMatchObject({
      action: 'ai_model.update',
      actor_id: admin.id,
      before: { name: 'Старое имя', words_per_token: 1.25, setting: { model: { params: [{ value: 'balanced' }] } } },
      after: { name: 'Новое имя', words_per_token: 2, setting: { model: { params } } },
    });
  });

  it('refuses a kind the products on the model cannot use, and a connection that cannot run it; changes nothing', async () => {
    const model = await created(chatModel({ kind: 'image', name: 'Художник' }));
    await t.db.insertInto('ai_products').values({ category_id: category, variant: 'img', name: 'Картинка', model_id: model.id }).execute();
    const before = await catalogState(t.db);
    const kind = await api.patch(`/api/admin/ai-models/${String(model.id)}`, { kind: 'video' });
    expectRefused(kind, 'kind');
    expect(fieldErrorsOf(kind).kind?.[0]).toMatch(/^На модели работают продукты \(1\)/);
    expectRefused(await api.patch(`/api/admin/ai-models/${String(model.id)}`, { connection_id: conn.replicate, kind: 'chat' }), 'chat on replicate');
    expectRefused(await api.patch(`/api/admin/ai-models/${String(model.id)}`, {}), 'nothing');
    expectRefused(await api.patch(`/api/admin/ai-models/${String(model.id)}`, { setting: { model: { params: [{ value: 'a', label: 'A' }, { value: 'a', label: 'B' }] } } }), 'repeated');
    expect(await catalogState(t.db)).toEqual(before);
    // An image model moves to Replicate, which runs images too.
    expect((await api.patch(`/api/admin/ai-models/${String(model.id)}`, { connection_id: conn.replicate })).statusCode).toBe(200);
    expect((await api.patch('/api/admin/ai-models/2147483647', { name: 'Нет' })).data.text).toBe('Модель не найдена');
  });
});

describe('the model cache', () => {
  it('a switched-off model is refused to the very next chat message (this process drops its cache at once)', async () => {
    const model = await created(chatModel());
    const user = await richUser();
    const first = await sendChat(user, model.id);
    expect(first.statusCode, first.body).toBe(200);
    // The model is now in this process's cache for 10 seconds…
    expect(await t.ctx.models.find(t.db, model.id, ['chat'])).toMatchObject({ id: model.id, active: true });
    expect((await api.patch(`/api/admin/ai-models/${String(model.id)}`, { active: false })).statusCode).toBe(200);
    // …yet the change counts at once.
    const second = await sendChat(user, model.id);
    expect(second.statusCode).toBe(400);
    expect(JSON.parse(second.body)).toMatchObject({ text: { ai_models_id: ['Эта модель недоступна. Выберите другую'] } });
    expect((await chatModels(user)).map((m) => m.id)).not.toContain(model.id);
  });

  it('other processes drop theirs when the change commits (NOTIFY)', async () => {
    const model = await created(chatModel({ provider_model: 'demo-before' }));
    const other = new ModelCache();
    const listener = new PgListener(t.ctx.config.databaseUrl ?? '', pino({ level: 'silent' }));
    other.listen(listener);
    await listener.start();
    try {
      expect((await other.find(t.db, model.id, ['chat']))?.provider_model).toBe('demo-before');
      await t.db.updateTable('ai_models').set({ provider_model: 'changed-behind-its-back' }).where('id', '=', model.id).execute();
      // A change outside the admin API is not announced: the other process keeps its copy.
      expect((await other.find(t.db, model.id, ['chat']))?.provider_model).toBe('demo-before');
      await api.patch(`/api/admin/ai-models/${String(model.id)}`, { provider_model: 'demo-after' });
      await until(async () => (await other.find(t.db, model.id, ['chat']))?.provider_model === 'demo-after', 5000, 20);
    } finally {
      await listener.stop();
    }
  });
});

describe('AI models: delete', () => {
  it('refuses while products use the model, switches it off when chats refer to it, deletes it otherwise; each audited', async () => {
    const used = await created(chatModel({ kind: 'text', name: 'Автор' }));
    await t.db.insertInto('ai_products').values({ category_id: category, variant: 'text_1', name: 'Пост', model_id: used.id, prompt_template: '{topic}', fields: JSON.stringify([{ name: 'topic', label: 'Тема' }]) }).execute();
    const before = await catalogState(t.db);
    const refused = await api.del(`/api/admin/ai-models/${String(used.id)}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.data.code).toBe('IN_USE');
    expect(refused.data.text).toMatch(/^На модели работают продукты \(1\)/);
    expect(await catalogState(t.db)).toEqual(before);
    expect((json(await api.get(`/api/admin/ai-models/${String(used.id)}`)) as AdminAiModel).products).toBe(1);

    const chatted = await created(chatModel());
    expect((await sendChat(await richUser(), chatted.id)).statusCode).toBe(200);
    expect(json(await api.del(`/api/admin/ai-models/${String(chatted.id)}`))).toEqual({ outcome: 'deactivated' });
    expect((json(await api.get(`/api/admin/ai-models/${String(chatted.id)}`)) as AdminAiModel).active).toBe(false);
    expect((await api.audit('ai_model', chatted.id))[0]).toMatchObject({ action: 'ai_model.deactivate', before: { active: true }, after: { active: false } });

    const unused = await created(chatModel({ name: 'Лишняя' }));
    expect(json(await api.del(`/api/admin/ai-models/${String(unused.id)}`))).toEqual({ outcome: 'deleted' });
    expect((await api.get(`/api/admin/ai-models/${String(unused.id)}`)).statusCode).toBe(404);
    expect((await api.audit('ai_model', unused.id))[0]).toMatchObject({ action: 'ai_model.delete', actor_id: admin.id, before: { name: 'Лишняя' }, after: null });
  });
});

describe('access', () => {
  it('every model endpoint: 401 for a guest, 403 for a user, nothing changed', async () => {
    const model = await created(chatModel());
    const user = await newUser(t.db);
    const before = await catalogState(t.db);
    const m = `/api/admin/ai-models/${String(model.id)}`;
    for (const token of [undefined, user.token]) {
      const as = api.as(token);
      for (const res of [await as.get('/api/admin/ai-models'), await as.get(m), await as.post('/api/admin/ai-models', chatModel()), await as.patch(m, { active: false }), await as.del(m)]) {
        expect(res.statusCode, res.body).toBe(token ? 403 : 401);
      }
    }
    expect(await catalogState(t.db)).toEqual(before);
  });
});
