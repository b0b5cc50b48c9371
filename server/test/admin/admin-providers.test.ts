import dns from 'node:dns';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdminProvider, ProviderTestResult } from '@app/contracts';
import { createProviderNetwork, type Lookup } from '../../src/providers/provider-network.ts';
import { ProviderRegistry } from '../../src/providers/registry.ts';
import { ProviderError } from '../../src/providers/types.ts';
import { createTestApp, newAdmin, newUser, type TestApp, type TestUser } from '../support/index.ts';
import { FakeOpenAi, FakeReplicate, RawFakeServer, fakeProviderEnv, hostOf } from '../support/ai-fakes.ts';
import { adminCalls, catalogState, expectRefused, fieldErrorsOf, json, type Page } from './admin-ai-support.ts';

/*
 * Provider connections (tab14): keys only by the name of an environment variable (a key's value
 * is refused in a body and never appears in a reply, even when a provider echoes it), whether
 * that variable is set, the protocols the registry speaks; a key only to the hosts configured for
 * it and private addresses only when configured (at save, at the test call, when connecting); a
 * test call through the registry against protocol fakes showing latency and the answer, or a
 * Russian error with only the provider's own message; every change audited.
 */

const KEY = 'sk-admin-test-0123456789abcdef';
const TOKEN = 'r8_admin_test_token_abcdef';
const ECHOED = 'sk-echoed-secret-987654321';
const TRAP_KEY = 'sk-trap-must-never-arrive-42';
const LAB_KEY = 'sk-lab-configured-key-77';

let t: TestApp;
let admin: TestUser;
let api: ReturnType<typeof adminCalls>;
const openai = new FakeOpenAi(KEY);
const replicate = new FakeReplicate(TOKEN);
/** A hostile OpenAI-compatible server: refuses every request, quoting the key it was sent. */
const echo = new RawFakeServer((req, res) => {
  res.writeHead(400, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message: `Bad request with ${String(req.headers.authorization)}`, type: 'invalid_request_error', param: null, code: null } }));
});

/** A server on 127.0.0.1 that nothing configures: whatever reaches it (a key above all) is a leak. */
const trap = new RawFakeServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{}');
});
/** The replies the lab (a configured internal provider) gives next, one per request. */
const labReplies: [number, string, string][] = [];
/** A provider on 127.0.0.1 that the configuration allows: answers what `labReplies` queues. */
const lab = new RawFakeServer((_req, res) => {
  const [status, type, body] = labReplies.shift() ?? [500, 'text/plain', 'nothing queued'];
  res.writeHead(status, { 'content-type': type });
  res.end(body);
});
const CLOSED = 'http://127.0.0.1:9';

beforeAll(async () => {
  await Promise.all([openai.start(), replicate.start(), echo.start(), trap.start(), lab.start()]);
  t = await createTestApp({
    workers: false,
    env: {
      ...fakeProviderEnv(
        {
          FAKE_OPENAI_API_KEY: { key: KEY, url: openai.baseUrl },
          WRONG_OPENAI_API_KEY: { key: 'sk-not-the-right-one', url: openai.baseUrl },
          NOT_SET_API_KEY: { url: openai.baseUrl },
          FAKE_REPLICATE_API_TOKEN: { key: TOKEN, url: replicate.baseUrl },
          ECHO_API_KEY: { key: ECHOED, url: echo.url },
          CLOSED_API_KEY: { key: 'sk-closed', url: CLOSED },
          LAB_API_KEY: { key: LAB_KEY, url: lab.url },
        },
        // A name that resolves to 127.0.0.1 (see `fakeDns`), configured like the lab.
        [`http://lab.test:${new URL(lab.url).port}`],
      ),
      // Keys the configuration lets go to the trap's host, although the trap's address is not allowed.
      TRAP_API_KEY: TRAP_KEY,
      TRAP_HOSTS_API_KEY: TRAP_KEY,
      TRAP_HOSTS_API_KEY_HOSTS: [hostOf(trap.url), `rebind.test:${new URL(trap.url).port}`, 'localhost', '[::1]', '169.254.169.254', '10.0.0.5'].join(','),
      NAMED_LAB_API_KEY: LAB_KEY,
      NAMED_LAB_API_KEY_HOSTS: `lab.test:${new URL(lab.url).port}`,
      DEMO_WORD_DELAY_MS: '0',
    },
  });
  admin = await newAdmin(t.db);
  api = adminCalls(t, admin);
});
afterAll(async () => {
  await t.close();
  await Promise.all([openai.stop(), replicate.stop(), echo.stop(), trap.stop(), lab.stop()]);
});
beforeEach(() => {
  openai.reset();
  labReplies.length = 0;
});

const openAiBody = (over: Record<string, unknown> = {}) => ({ name: `OpenAI ${String(Math.random()).slice(2, 8)}`, protocol: 'openai', base_url: openai.baseUrl, api_key_env: 'FAKE_OPENAI_API_KEY', timeout_seconds: 5, ...over });

async function created(body: Record<string, unknown>): Promise<AdminProvider> {
  const res = await api.post('/api/admin/providers', body);
  expect(res.statusCode, res.body).toBe(200);
  return (json(res) as AdminProvider);
}

const test = async (id: number, body?: Record<string, unknown>) => {
  const res = await api.post(`/api/admin/providers/${String(id)}/test`, body ?? {});
  expect(res.statusCode, res.body).toBe(200);
  return (json(res) as ProviderTestResult);
};

const chatModelOn = (connectionId: number, providerModel: string) =>
  t.db.insertInto('ai_models').values({ name: `Модель ${providerModel}`, kind: 'chat', connection_id: connectionId, provider_model: providerModel }).execute();

describe('provider connections', () => {
  it('creates a connection with its key named by a variable; says whether the variable is set, never its value; audited', async () => {
    const res = await api.post('/api/admin/providers', openAiBody({ name: 'OpenAI (фейк)', active: false }));
    expect(res.statusCode, res.body).toBe(200);
    const conn = (json(res) as AdminProvider);
    expect(conn).toMatchObject({ name: 'OpenAI (фейк)', protocol: 'openai', base_url: openai.baseUrl, api_key_env: 'FAKE_OPENAI_API_KEY', key_set: true, timeout_seconds: 5, active: false, models: 0 });
    expect((json(await api.get(`/api/admin/providers/${String(conn.id)}`)) as AdminProvider)).toEqual(conn);
    const unset = await created(openAiBody({ api_key_env: 'NOT_SET_API_KEY' }));
    expect(unset.key_set).toBe(false);
    const demo = await created({ name: 'Демо (второе)', protocol: 'demo' });
    expect(demo).toMatchObject({ protocol: 'demo', base_url: null, api_key_env: null, key_set: false, timeout_seconds: 60, active: true });
    const [audit] = await api.audit('provider', conn.id);
    expect(audit).toMatchObject({
      action: 'provider.create',
      actor_id: admin.id,
      actor_email: admin.email,
      before: null,
      after: { name: 'OpenAI (фейк)', protocol: 'openai', base_url: openai.baseUrl, api_key_env: 'FAKE_OPENAI_API_KEY', timeout_seconds: 5, active: false },
    });
  });

  it('lists 20 a page, searches by name, sorts by a named column', async () => {
    for (let i = 0; i < 21; i++) await created(openAiBody({ name: `Поиск_${String(i).padStart(2, '0')}` }));
    const first = (json(await api.get('/api/admin/providers?q=Поиск_&sort=name&dir=asc')) as Page<AdminProvider>);
    expect(first.last_page).toBe(2);
    expect(first.data[0]?.name).toBe('Поиск_00');
    expect((json(await api.get('/api/admin/providers?q=Поиск_&sort=name&dir=asc&page=2')) as Page<AdminProvider>).data.map((c) => c.name)).toEqual(['Поиск_20']);
    expect((json(await api.get('/api/admin/providers?q=%25')) as Page<AdminProvider>).data).toEqual([]);
    for (const query of ['sort=api_key_env', 'dir=x', 'page=0']) expectRefused(await api.get(`/api/admin/providers?${query}`), query);
  });

  it('refuses a key’s value in any field, bad names, URLs and protocols, in Russian, without echoing the key; stores nothing', async () => {
    const before = await catalogState(t.db);
    const secret = 'sk-live-THIS-MUST-NOT-COME-BACK-42';
    const cases: [string, Record<string, unknown>, string][] = [
      ['a key value', openAiBody({ api_key: secret }), 'api_key'],
      ['a token value', openAiBody({ api_token: secret }), 'api_token'],
      ['a key in the variable field', openAiBody({ api_key_env: secret }), 'api_key_env'],
      ['a variable that is not a key', openAiBody({ api_key_env: 'DATABASE_URL' }), 'api_key_env'],
      ['a lower-case variable', openAiBody({ api_key_env: 'fake_openai_api_key' }), 'api_key_env'],
      ['a key in the URL', openAiBody({ base_url: `https://user:${secret}@api.example.com/v1` }), 'base_url'],
      ['a key in the URL query', openAiBody({ base_url: `https://api.example.com/v1?key=${secret}` }), 'base_url'],
      ['a script URL', openAiBody({ base_url: 'javascript:alert(1)' }), 'base_url'],
      ['a file URL', openAiBody({ base_url: 'file:///etc/passwd' }), 'base_url'],
      ['an unknown protocol', openAiBody({ protocol: 'grpc' }), 'protocol'],
      ['a remote connection without a URL', openAiBody({ base_url: null }), 'base_url'],
      ['a remote connection without its key variable', openAiBody({ api_key_env: null }), 'api_key_env'],
      ['a timeout of an hour and a second', openAiBody({ timeout_seconds: 3601 }), 'timeout_seconds'],
      ['no name', openAiBody({ name: '' }), 'name'],
      ['a taken name', openAiBody({ name: 'OpenAI (фейк)' }), 'name'],
    ];
    for (const [label, body, field] of cases) {
      const res = await api.post('/api/admin/providers', body);
      expectRefused(res, label);
      expect(Object.keys(fieldErrorsOf(res)), label).toContain(field);
      expect(res.body, label).not.toContain(secret);
    }
    expect(fieldErrorsOf(await api.post('/api/admin/providers', openAiBody({ api_key: secret }))).api_key?.[0]).toMatch(/^Ключ не передаётся в запросе/);
    expectRefused(await api.post('/api/admin/providers', openAiBody({ models: 3 })), 'an unknown field');
    expect(await catalogState(t.db)).toEqual(before);
    expect(JSON.stringify(before.connections)).not.toContain(secret);
  });

  it('two admins saving one new name at once: one connection, and the other hears why', async () => {
    const results = await Promise.all(Array.from({ length: 4 }, () => api.post('/api/admin/providers', openAiBody({ name: 'Одновременно' }))));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400, 400, 400]);
    for (const res of results.filter((r) => r.statusCode === 400)) expect(fieldErrorsOf(res)).toEqual({ name: ['Подключение с таким названием уже есть'] });
    expect(await t.db.selectFrom('provider_connections').select('id').where('name', '=', 'Одновременно').execute()).toHaveLength(1);
  });

  it('updates a connection (its adapter is made anew); refuses a protocol its models cannot run; audited with before and after', async () => {
    const conn = await created(openAiBody({ name: 'Правка', api_key_env: 'WRONG_OPENAI_API_KEY' }));
    await chatModelOn(conn.id, 'gpt-fake');
    expect((await test(conn.id)).ok).toBe(false);
    const res = await api.patch(`/api/admin/providers/${String(conn.id)}`, { api_key_env: 'FAKE_OPENAI_API_KEY', timeout_seconds: 10 });
    expect(res.statusCode, res.body).toBe(200);
    expect((json(res) as AdminProvider)).toMatchObject({ api_key_env: 'FAKE_OPENAI_API_KEY', key_set: true, timeout_seconds: 10, models: 1 });
    // The registry built a new adapter with the new key.
    expect((await test(conn.id)).ok).toBe(true);
    const [audit] = await api.audit('provider', conn.id);
    expect(audit).toMatchObject({ action: 'provider.update', actor_id: admin.id, before: { api_key_env: 'WRONG_OPENAI_API_KEY', timeout_seconds: 5 }, after: { api_key_env: 'FAKE_OPENAI_API_KEY', timeout_seconds: 10 } });
    const before = await catalogState(t.db);
    const protocol = await api.patch(`/api/admin/providers/${String(conn.id)}`, { protocol: 'replicate' });
    expectRefused(protocol, 'replicate with a chat model');
    expect(fieldErrorsOf(protocol).protocol?.[0]).toBe('Протокол replicate не запускает модели этого подключения (чат)');
    for (const body of [{}, { api_key: KEY }, { base_url: null }, { name: null }]) {
      const refused = await api.patch(`/api/admin/providers/${String(conn.id)}`, body);
      expectRefused(refused, JSON.stringify(body).replace(KEY, '…'));
      expect(refused.body).not.toContain(KEY);
    }
    expect(await catalogState(t.db)).toEqual(before);
    expect((await api.patch('/api/admin/providers/2147483647', { name: 'Нет' })).data.text).toBe('Подключение не найдено');
  });

  it('deletes a connection without models; refuses one with models', async () => {
    const used = await created(openAiBody());
    await chatModelOn(used.id, 'gpt-x');
    const before = await catalogState(t.db);
    const refused = await api.del(`/api/admin/providers/${String(used.id)}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.data.text).toMatch(/^К подключению привязаны модели \(1\)/);
    expect(await catalogState(t.db)).toEqual(before);
    const empty = await created(openAiBody({ name: 'Удаляемое' }));
    expect(json(await api.del(`/api/admin/providers/${String(empty.id)}`))).toEqual({ outcome: 'deleted' });
    expect((await api.get(`/api/admin/providers/${String(empty.id)}`)).statusCode).toBe(404);
    expect((await api.audit('provider', empty.id))[0]).toMatchObject({ action: 'provider.delete', before: { name: 'Удаляемое' }, after: null });
  });
});

describe('the test call', () => {
  it('an OpenAI-compatible connection: a real chat completion with the connection’s model, its latency and answer', async () => {
    const conn = await created(openAiBody());
    await chatModelOn(conn.id, 'gpt-fake-mini');
    const result = await test(conn.id);
    expect(result).toMatchObject({ ok: true, model: 'gpt-fake-mini', answer: 'Привет! Чем помочь?', error: null });
    expect(result.latency_ms).toBeGreaterThanOrEqual(0);
    const [request] = openai.server.requests;
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(openai.chatBodies[0]).toMatchObject({ model: 'gpt-fake-mini', stream: false });
    // Another model on request.
    expect((await test(conn.id, { model: 'gpt-other' })).model).toBe('gpt-other');
    expect(openai.chatBodies[1]?.model).toBe('gpt-other');
  });

  it('failures come back as Russian errors with the latency: a server error, a refused key, an unreachable or silent server, an unset variable', async () => {
    const conn = await created(openAiBody({ timeout_seconds: 1 }));
    await chatModelOn(conn.id, 'gpt-fake');
    openai.behaviour = { kind: 'server_error' };
    expect(await test(conn.id)).toMatchObject({ ok: false, answer: null, error: 'Провайдер недоступен (HTTP 500): The server had an error while processing your request.' });
    openai.behaviour = { kind: 'rate_limited', retryAfterSeconds: 7 };
    expect((await test(conn.id)).error).toBe('Провайдер ограничивает частоту запросов (HTTP 429): повторите через 7 с');
    openai.behaviour = { kind: 'slow', delayMs: 3000 };
    const slow = await test(conn.id);
    expect(slow).toMatchObject({ ok: false, error: 'Провайдер не ответил за 1 с' });
    expect(slow.latency_ms).toBeGreaterThanOrEqual(900);
    expect(slow.latency_ms).toBeLessThan(2900);

    const wrongKey = await created(openAiBody({ api_key_env: 'WRONG_OPENAI_API_KEY' }));
    await chatModelOn(wrongKey.id, 'gpt-fake');
    expect((await test(wrongKey.id)).error).toMatch(/^Провайдер не принял ключ из переменной WRONG_OPENAI_API_KEY \(HTTP 401\)/);
    const unset = await created(openAiBody({ api_key_env: 'NOT_SET_API_KEY' }));
    expect(await test(unset.id, { model: 'gpt-fake' })).toEqual({ ok: false, latency_ms: 0, model: 'gpt-fake', answer: null, error: 'Переменная окружения NOT_SET_API_KEY не задана на сервере' });
    const closed = await created(openAiBody({ base_url: `${CLOSED}/v1`, api_key_env: 'CLOSED_API_KEY' }));
    expect((await test(closed.id, { model: 'gpt-fake' })).error).toBe('Не удалось соединиться с провайдером: проверьте адрес API');
    // Without a chat or text model there is nothing to ask unless the admin names one.
    const bare = await created(openAiBody());
    const noModel = await api.post(`/api/admin/providers/${String(bare.id)}/test`, {});
    expectRefused(noModel, 'no model');
    expect(Object.keys(fieldErrorsOf(noModel))).toEqual(['model']);
    expectRefused(await api.post(`/api/admin/providers/${String(bare.id)}/test`, { model: '' }), 'empty model');
    expect((await api.post('/api/admin/providers/2147483647/test', {})).statusCode).toBe(404);
  });

  it('a provider that echoes the key in its error: the reply masks it', async () => {
    const conn = await created({ name: 'Эхо', protocol: 'openai', base_url: `${echo.url}/v1`, api_key_env: 'ECHO_API_KEY' });
    const result = await test(conn.id, { model: 'any' });
    expect(result.ok).toBe(false);
    expect(result.error).toBe('Провайдер отклонил запрос (HTTP 400): Bad request with Bearer ***');
    expect(JSON.stringify(result)).not.toContain(ECHOED);
  });

  it('a Replicate-protocol connection: the account, without running a model', async () => {
    const conn = await created({ name: 'Replicate (фейк)', protocol: 'replicate', base_url: replicate.baseUrl, api_key_env: 'FAKE_REPLICATE_API_TOKEN' });
    expect(await test(conn.id)).toMatchObject({ ok: true, model: null, answer: 'fake-owner (Fake Owner)', error: null });
    expect(replicate.predictions.size).toBe(0);
    replicate.outage = { status: 500 };
    try {
      expect((await test(conn.id)).error).toBe('Провайдер недоступен (HTTP 500): Internal Server Error');
    } finally {
      replicate.outage = null;
    }
  });

  it('the demo provider answers offline', async () => {
    const conn = await created({ name: 'Демо (проверка)', protocol: 'demo' });
    const result = await test(conn.id);
    expect(result).toMatchObject({ ok: true, model: 'demo', error: null });
    expect(result.answer?.length).toBeGreaterThan(0);
  });
});

describe('where a key goes', () => {
  const trapPort = () => new URL(trap.url).port;
  const trapBody = (over: Record<string, unknown> = {}) => ({ name: `Ловушка ${String(Math.random()).slice(2, 8)}`, protocol: 'openai', base_url: `${trap.url}/v1`, api_key_env: 'TRAP_API_KEY', ...over });
  const completion = (text: string) =>
    JSON.stringify({ id: 'chatcmpl-lab', object: 'chat.completion', created: 0, model: 'lab-model', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] });
  const internal = (host: string) => `Адрес ${host} — внутренний (этот сервер или локальная сеть): такие адреса разрешаются только в PROVIDER_PRIVATE_HOSTS на сервере`;

  it('a connection pointed at a trap on 127.0.0.1, or at any private address, without configuration is refused when saved, on base_url in Russian; nothing stored, the trap receives nothing', async () => {
    const good = await created(openAiBody());
    const before = await catalogState(t.db);
    const cases: [string, Record<string, unknown>, string][] = [
      ['a key with no hosts', trapBody(), 'Ключ из переменной TRAP_API_KEY никуда не отправляется: адреса, куда его можно отправлять, задаются на сервере в TRAP_API_KEY_HOSTS'],
      [
        'a key configured for another host',
        trapBody({ api_key_env: 'FAKE_OPENAI_API_KEY' }),
        `Ключ из переменной FAKE_OPENAI_API_KEY отправляется только на ${hostOf(openai.baseUrl)} (FAKE_OPENAI_API_KEY_HOSTS на сервере), а не на ${hostOf(trap.url)}`,
      ],
      ['OpenAI’s key, by default only to OpenAI', trapBody({ api_key_env: 'OPENAI_API_KEY' }), `Ключ из переменной OPENAI_API_KEY отправляется только на api.openai.com (OPENAI_API_KEY_HOSTS на сервере), а не на ${hostOf(trap.url)}`],
      ['a Replicate-protocol connection', trapBody({ protocol: 'replicate', base_url: trap.url }), 'Ключ из переменной TRAP_API_KEY никуда не отправляется: адреса, куда его можно отправлять, задаются на сервере в TRAP_API_KEY_HOSTS'],
      ['a key allowed there, an address that is not', trapBody({ api_key_env: 'TRAP_HOSTS_API_KEY' }), internal(hostOf(trap.url))],
      ['localhost', trapBody({ base_url: 'http://localhost/v1', api_key_env: 'TRAP_HOSTS_API_KEY' }), internal('localhost')],
      ['IPv6 loopback', trapBody({ base_url: 'http://[::1]/v1', api_key_env: 'TRAP_HOSTS_API_KEY' }), internal('[::1]')],
      ['cloud metadata', trapBody({ base_url: 'http://169.254.169.254/v1', api_key_env: 'TRAP_HOSTS_API_KEY' }), internal('169.254.169.254')],
      ['a private network', trapBody({ base_url: 'http://10.0.0.5/v1', api_key_env: 'TRAP_HOSTS_API_KEY' }), internal('10.0.0.5')],
    ];
    for (const [label, body, message] of cases) {
      const res = await api.post('/api/admin/providers', body);
      expectRefused(res, label);
      expect(fieldErrorsOf(res), label).toEqual({ base_url: [message] });
    }
    const moved = await api.patch(`/api/admin/providers/${String(good.id)}`, { base_url: `${trap.url}/v1` });
    expectRefused(moved, 'moved to the trap');
    expect(Object.keys(fieldErrorsOf(moved))).toEqual(['base_url']);
    expect(await catalogState(t.db)).toEqual(before);
    expect(trap.requests).toEqual([]);
  });

  it('a connection saved before the configuration said otherwise: refused by the test call and by the registry at call time; it can still be renamed and switched off; the trap receives nothing', async () => {
    const insert = (body: ReturnType<typeof trapBody>) =>
      t.db
        .insertInto('provider_connections')
        .values({ name: body.name, protocol: body.protocol as 'openai' | 'replicate', base_url: body.base_url, api_key_env: body.api_key_env })
        .returningAll()
        .executeTakeFirstOrThrow();
    const noHosts = await insert(trapBody());
    const notPrivate = await insert(trapBody({ api_key_env: 'TRAP_HOSTS_API_KEY' }));
    const replicateRow = await insert(trapBody({ protocol: 'replicate', base_url: trap.url }));
    expect(await test(noHosts.id, { model: 'm' })).toEqual({
      ok: false,
      latency_ms: 0,
      model: 'm',
      answer: null,
      error: 'Ключ из переменной TRAP_API_KEY никуда не отправляется: адреса, куда его можно отправлять, задаются на сервере в TRAP_API_KEY_HOSTS',
    });
    expect((await test(notPrivate.id, { model: 'm' })).error).toBe(internal(hostOf(trap.url)));
    expect((await test(replicateRow.id)).error).toMatch(/^Ключ из переменной TRAP_API_KEY никуда не отправляется/);
    // Whatever calls the registry (a chat, a run) is refused as well, before any request.
    expect(() => t.ctx.providers.chat(noHosts)).toThrow(ProviderError);
    expect(() => t.ctx.providers.chat(noHosts)).toThrow(/the key of TRAP_API_KEY may go nowhere/);
    expect(() => t.ctx.providers.image(notPrivate)).toThrow(/is a private address, not in PROVIDER_PRIVATE_HOSTS/);
    expect(() => t.ctx.providers.predictions(replicateRow)).toThrow(/the key of TRAP_API_KEY may go nowhere/);
    const renamed = await api.patch(`/api/admin/providers/${String(noHosts.id)}`, { name: 'Ловушка (отключена)', active: false });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(trap.requests).toEqual([]);
  });

  it('configured, it works: the key arrives at the lab; an error JSON shows only the provider’s message, the key masked before it is cut; an HTML error shows no body', async () => {
    const conn = await created({ name: 'Лаборатория', protocol: 'openai', base_url: `${lab.url}/v1`, api_key_env: 'LAB_API_KEY' });
    labReplies.push([200, 'application/json', completion('Лаборатория на связи')]);
    expect(await test(conn.id, { model: 'lab-model' })).toMatchObject({ ok: true, answer: 'Лаборатория на связи', error: null });
    expect(lab.requests.at(-1)?.headers.authorization).toBe(`Bearer ${LAB_KEY}`);

    const message = `Incorrect API key provided: ${LAB_KEY}. ${'y'.repeat(240)} ${LAB_KEY} and more`;
    labReplies.push([401, 'application/json', JSON.stringify({ error: { message, type: 'invalid_request_error', code: 'invalid_api_key' }, internal: 'SECRET-INTERNAL-DATA' })]);
    const refused = await test(conn.id, { model: 'lab-model' });
    expect(refused.error).toBe(`Провайдер не принял ключ из переменной LAB_API_KEY (HTTP 401): ${message.split(LAB_KEY).join('***').slice(0, 300)}`);
    expect(refused.error).not.toContain(LAB_KEY.slice(0, 8));
    expect(refused.error).not.toContain('SECRET-INTERNAL');

    labReplies.push([502, 'text/html', '<html><body>SECRET-INTERNAL admin page</body></html>']);
    expect((await test(conn.id, { model: 'lab-model' })).error).toBe('Провайдер недоступен (HTTP 502)');

    const replicateLab = await created({ name: 'Лаборатория (Replicate)', protocol: 'replicate', base_url: lab.url, api_key_env: 'LAB_API_KEY' });
    labReplies.push([403, 'application/problem+json', JSON.stringify({ title: 'Forbidden', detail: 'This token cannot read the account', status: 403, trace: 'SECRET-INTERNAL' })]);
    expect((await test(replicateLab.id)).error).toBe('Провайдер не принял ключ из переменной LAB_API_KEY (HTTP 403): This token cannot read the account');
    expect(lab.requests.at(-1)).toMatchObject({ path: '/v1/account', headers: { authorization: `Bearer ${LAB_KEY}` } });
  });

  it('a name that resolves to 127.0.0.1 passes the save (a name says nothing) and is refused when connecting, unless its host is configured', async () => {
    // `*.test` names resolve to 127.0.0.1 here, as a name whose owner points it anywhere could at any moment.
    const fakeDns: Lookup = (hostname, options, callback) => {
      if (!hostname.endsWith('.test')) return dns.lookup(hostname, options, callback);
      if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
      else callback(null, '127.0.0.1', 4);
    };
    const registry = new ProviderRegistry(t.config, createProviderNetwork({ privateHosts: t.config.providerPrivateHosts, lookup: fakeDns }));
    const original = t.ctx.providers;
    Object.assign(t.ctx, { providers: registry });
    try {
      const rebind = await created({ name: 'Перепривязка', protocol: 'openai', base_url: `http://rebind.test:${trapPort()}/v1`, api_key_env: 'TRAP_HOSTS_API_KEY' });
      expect(await test(rebind.id, { model: 'm' })).toMatchObject({
        ok: false,
        error: 'Адрес rebind.test ведёт на 127.0.0.1 — внутренний (этот сервер или локальная сеть): такие адреса разрешаются только в PROVIDER_PRIVATE_HOSTS на сервере',
      });
      expect(trap.requests).toEqual([]);
      const named = await created({ name: 'Лаборатория по имени', protocol: 'openai', base_url: `http://lab.test:${new URL(lab.url).port}/v1`, api_key_env: 'NAMED_LAB_API_KEY' });
      labReplies.push([200, 'application/json', completion('Лаборатория по имени на связи')]);
      expect(await test(named.id, { model: 'lab-model' })).toMatchObject({ ok: true, answer: 'Лаборатория по имени на связи' });
      expect(lab.requests.at(-1)?.headers.authorization).toBe(`Bearer ${LAB_KEY}`);
    } finally {
      Object.assign(t.ctx, { providers: original });
      await registry.close();
    }
  });
});

describe('access and keys', () => {
  it('every provider endpoint: 401 for a guest, 403 for a user; nothing changed, no provider called', async () => {
    const conn = await created(openAiBody());
    await chatModelOn(conn.id, 'gpt-fake');
    const user = await newUser(t.db);
    const before = await catalogState(t.db);
    const p = `/api/admin/providers/${String(conn.id)}`;
    for (const token of [undefined, user.token]) {
      const as = api.as(token);
      for (const res of [
        await as.get('/api/admin/providers'),
        await as.get(p),
        await as.post('/api/admin/providers', openAiBody()),
        await as.patch(p, { base_url: 'https://evil.example/v1' }),
        await as.del(p),
        await as.post(`${p}/test`, {}),
      ]) {
        expect(res.statusCode, res.body).toBe(token ? 403 : 401);
      }
    }
    expect(await catalogState(t.db)).toEqual(before);
    expect(openai.server.requests).toEqual([]);
  });

  it('no reply of this file ever carried a key’s value', () => {
    expect(api.bodies.length).toBeGreaterThan(50);
    for (const body of api.bodies) for (const secret of [KEY, TOKEN, ECHOED, TRAP_KEY, LAB_KEY, 'sk-not-the-right-one']) expect(body).not.toContain(secret);
  });
});
