import crypto from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPath, type RouteContract } from '@app/contracts';
import { ALL_CONTRACTS } from '../../src/app.ts';
import { seed } from '../../src/db/seed.ts';
import { call, createTestApp, newAdmin, multipart, userWithTokens, type TestApp, type TestUser } from '../support/index.ts';

/*
 * Inputs that used to reach the database and fail there (500): multipart without a boundary, ids
 * past 32 bits, NUL and lone surrogates in what staff type. Each now gets a Russian 4xx from the
 * contracts' schemas, and nothing is stored.
 */

let t: TestApp;
let user: TestUser;
let admin: TestUser;
let product = 0;
let category = 0;
let imageModel = 0;
let demoConnection = 0;

beforeAll(async () => {
  t = await createTestApp({ workers: false });
  await seed(t.db, pino({ level: 'silent' }));
  user = await userWithTokens(t.db, 50);
  admin = await newAdmin(t.db);
  product = (await t.db.selectFrom('ai_products').select('id').where('variant', '=', 'img').executeTakeFirstOrThrow()).id;
  category = (await t.db.selectFrom('ai_categories').select('id').executeTakeFirstOrThrow()).id;
  imageModel = (await t.db.selectFrom('ai_models').select('id').where('kind', '=', 'image').executeTakeFirstOrThrow()).id;
  demoConnection = (await t.db.selectFrom('provider_connections').select('id').where('protocol', '=', 'demo').executeTakeFirstOrThrow()).id;
});
afterAll(() => t.close());

const RUSSIAN = /[а-яё]/i;
const asCaller = (c: RouteContract) => (c.access === 'admin' ? admin : user);
const auditLines = async () => Number((await t.db.selectFrom('audit_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('multipart/form-data without a boundary', () => {
  const routes = () => [
    { url: '/api/new/chat', as: user },
    { url: '/api/new/chat/stream', as: user },
    { url: '/api/new/generations', as: user },
    { url: `/api/admin/ai-products/${String(product)}/example`, as: admin },
  ];
  for (const contentType of ['multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary=""', `multipart/form-data; boundary=${'b'.repeat(300)}`]) {
    it(`${contentType.slice(0, 45)}: a Russian 400 from chat, its stream, generations and the product example upload`, async () => {
      for (const { url, as } of routes()) {
        const res = await call(t.app, { method: 'POST', url, token: as.token, payload: '--x\r\nContent-Disposition: form-data; name="message"\r\n\r\nПривет\r\n--x--\r\n', headers: { 'content-type': contentType } });
        expect({ url, status: res.statusCode, envelope: res.data.status }).toEqual({ url, status: 400, envelope: 'error' });
        expect(JSON.stringify(res.data.text)).toMatch(RUSSIAN);
      }
    });
  }
});

describe('ids past 32 bits', () => {
  it('a product and its example: 400 with the field named, not 500', async () => {
    for (const url of ['/api/new/ai-products/2147483648', '/api/new/ai-products/2147483648/example']) {
      const res = await call(t.app, { url, token: user.token });
      expect({ url, status: res.statusCode, data: res.data }).toEqual({ url, status: 400, data: { status: 'error', code: 'VALIDATION', text: { id: ['Неверный идентификатор'] } } });
    }
  });

  it('a run of product 2147483648: 400 on product_id', async () => {
    const body = multipart([
      { name: 'product_id', value: '2147483648' },
      { name: 'prompt', value: 'Кот' },
    ]);
    const res = await call(t.app, { method: 'POST', url: '/api/new/generations', token: user.token, payload: body.payload, headers: body.headers });
    expect(res.statusCode).toBe(400);
    expect(res.data.text).toEqual({ product_id: ['Неверный идентификатор'] });
  });

  it('every path id of every contract, by a caller the route lets in: 400 or 404, with the envelope', async () => {
    const withIds = ALL_CONTRACTS.filter((c) => c.path.includes(':id'));
    expect(withIds.length).toBeGreaterThan(20);
    for (const c of withIds) {
      for (const id of ['2147483648', '4294967296', '9007199254740993', '99999999999999999999']) {
        const res = await call(t.app, { method: c.method, url: buildPath(c.path, { id }), token: asCaller(c).token, payload: c.method === 'GET' ? undefined : {} });
        expect({ route: `${c.method} ${c.path}`, id, ok: [400, 404].includes(res.statusCode), status: res.data.status }).toEqual({ route: `${c.method} ${c.path}`, id, ok: true, status: 'error' });
      }
    }
  });

  it('ids in queries and bodies: 400 with the field named', async () => {
    const cases: [Parameters<typeof call>[1], string][] = [
      [{ url: '/api/payment/cloudpayments/pay?id=2147483648', token: user.token }, 'id'],
      [{ url: '/api/payment/cloudpayments/status?id=2147483648', token: user.token }, 'id'],
      [{ method: 'POST', url: '/api/sandbox/cloudpayments/charge', token: user.token, payload: { payment_id: 2147483648, card_number: '4242 4242 4242 4242', exp: '12/30', cvv: '123' } }, 'payment_id'],
      [{ url: '/api/admin/ai-products?category_id=2147483648', token: admin.token }, 'category_id'],
      [{ url: '/api/admin/ai-models?connection_id=2147483648', token: admin.token }, 'connection_id'],
      [{ method: 'POST', url: '/api/admin/sandbox/renew', token: admin.token, payload: { subscription_id: 2147483648 } }, 'subscription_id'],
      [{ method: 'POST', url: '/api/admin/ai-products', token: admin.token, payload: { category_id: 2147483648, variant: 'img', name: 'Продукт', model_id: imageModel } }, 'category_id'],
    ];
    for (const [opts, field] of cases) {
      const res = await call(t.app, opts);
      expect({ url: opts.url, status: res.statusCode, fields: Object.keys(res.data.text as object) }).toEqual({ url: opts.url, status: 400, fields: [field] });
    }
  });
});

describe('NUL and lone surrogates in what staff type', () => {
  const uuid = () => crypto.randomUUID();
  const name = () => `Имя ${crypto.randomBytes(3).toString('hex')}`;
  /** A valid body with `bad` put where `put` says, and the field the refusal must name. */
  const cases = (): { method: 'POST' | 'PATCH' | 'PUT'; url: string; body: (bad: string) => Record<string, unknown>; field: string }[] => [
    { method: 'POST', url: '/api/admin/ai-categories', body: (bad) => ({ name: bad }), field: 'name' },
    { method: 'POST', url: '/api/admin/ai-categories', body: (bad) => ({ name: name(), description: bad }), field: 'description' },
    { method: 'PATCH', url: `/api/admin/ai-categories/${String(category)}`, body: (bad) => ({ name: bad }), field: 'name' },
    { method: 'POST', url: '/api/admin/ai-products', body: (bad) => ({ category_id: category, variant: 'img', name: bad, model_id: imageModel }), field: 'name' },
    { method: 'POST', url: '/api/admin/ai-products', body: (bad) => ({ category_id: category, variant: 'img', name: name(), prompt_template: bad, model_id: imageModel }), field: 'prompt_template' },
    {
      method: 'POST',
      url: '/api/admin/ai-products',
      body: (bad) => ({ category_id: category, variant: 'img_3', name: name(), prompt_template: 'Открытка {who}', fields: [{ name: 'who', label: 'Кому', placeholder: bad }], model_id: imageModel }),
      field: 'fields',
    },
    { method: 'PATCH', url: `/api/admin/ai-products/${String(product)}`, body: (bad) => ({ description: bad }), field: 'description' },
    { method: 'POST', url: '/api/admin/ai-models', body: (bad) => ({ name: name(), kind: 'image', connection_id: demoConnection, provider_model: bad }), field: 'provider_model' },
    {
      method: 'POST',
      url: '/api/admin/ai-models',
      body: (bad) => ({ name: name(), kind: 'image', connection_id: demoConnection, provider_model: 'demo-image', setting: { model: { params: [{ value: 'a', label: 'А', provider: { size: bad } }] } } }),
      field: 'setting',
    },
    { method: 'POST', url: '/api/admin/providers', body: (bad) => ({ name: bad, protocol: 'demo' }), field: 'name' },
    { method: 'POST', url: '/api/admin/providers', body: (bad) => ({ name: name(), protocol: 'openai', base_url: `https://api.openai.com/v1/${bad}`, api_key_env: 'OPENAI_API_KEY' }), field: 'base_url' },
    { method: 'POST', url: '/api/admin/dashboard-cards', body: (bad) => ({ name: name(), description: bad, icon: '/assets/icons/chat.svg', link: '/chat' }), field: 'description' },
    { method: 'POST', url: '/api/admin/dashboard-cards', body: (bad) => ({ name: name(), description: 'Описание', icon: '/assets/icons/chat.svg', link: `/chat${bad}` }), field: 'link' },
    {
      method: 'POST',
      url: '/api/admin/tariffs',
      body: (bad) => ({ name: name(), amount: 490, first_amount: 1, description: [`[[words]] слова ${bad}`], subscriptions_type: 1, words: 1000, media: 5 }),
      field: 'description',
    },
    { method: 'POST', url: '/api/admin/tariffs', body: (bad) => ({ name: bad, amount: 490, subscriptions_type: 2, words: 1000, media: 5 }), field: 'name' },
    { method: 'POST', url: '/api/admin/payments/1/refund', body: (bad) => ({ amount: 1, reason: `Возврат ${bad}`, request_id: uuid() }), field: 'reason' },
    { method: 'POST', url: `/api/admin/users/${String(user.id)}/balance`, body: (bad) => ({ wallet: 'words', amount: 10, reason: `Подарок ${bad}`, request_id: uuid() }), field: 'reason' },
    {
      method: 'PUT',
      url: '/api/admin/settings',
      body: (bad) => ({ welcome_words: 100, welcome_media: 1, telegram_channel: '@neurostudio_news', support_url: `https://example.com/help${bad}`, sandbox_payments: true, sandbox_telegram: true }),
      field: 'support_url',
    },
  ];

  for (const [label, bad] of [
    ['NUL', 'a\u0000b'],
    ['a lone high surrogate', 'x\ud800'],
    ['a lone low surrogate', '\udc00y'],
  ] as const) {
    it(`${label}: a Russian 400 naming the field, and nothing stored or audited`, async () => {
      const before = await auditLines();
      for (const c of cases()) {
        const res = await call(t.app, { method: c.method, url: c.url, token: admin.token, payload: c.body(bad) });
        const text = res.data.text as Record<string, string[]> | string;
        expect({ url: c.url, status: res.statusCode, fields: typeof text === 'string' ? text : Object.keys(text) }).toEqual({ url: c.url, status: 400, fields: [c.field] });
        expect((text as Record<string, string[]>)[c.field]?.join(' ')).toMatch(RUSSIAN);
      }
      expect(await auditLines()).toBe(before);
    });
  }

  it('the same fields without them are taken (the cases are otherwise valid)', async () => {
    const taken = cases().filter((c) => !c.url.includes('/refund'));
    for (const c of taken) {
      const res = await call(t.app, { method: c.method, url: c.url, token: admin.token, payload: c.body('ok') });
      expect({ url: c.url, status: res.statusCode, body: res.statusCode === 200 ? '' : res.body }).toEqual({ url: c.url, status: 200, body: '' });
    }
  });

  it('a search or a reset link’s query with NUL: 400, not 500', async () => {
    for (const url of ['/api/admin/users?q=a%00b', '/api/admin/ai-products?q=%00', '/api/admin/audit?q=%00']) {
      const res = await call(t.app, { url, token: admin.token });
      expect({ url, status: res.statusCode, fields: Object.keys(res.data.text as object) }).toEqual({ url, status: 400, fields: ['q'] });
    }
    const check = await call(t.app, { url: '/api/new/reset_password/check?token=abc&email=a%00b%40example.ru' });
    expect(check.statusCode).toBe(400);
  });
});

describe('addresses the router refuses', () => {
  it('a path that does not decode, or a parameter over 200 characters: the envelope in Russian, not Fastify’s own JSON', async () => {
    for (const [url, status, code] of [
      ['/api/new/chat/%ZZ', 400, 'BAD_REQUEST'],
      ['/api/new/generations/%ED%A0%80/events', 400, 'BAD_REQUEST'],
      [`/api/admin/dashboard-cards/${'9'.repeat(201)}`, 404, 'NOT_FOUND'],
    ] as const) {
      const res = await call(t.app, { url, token: user.token });
      expect({ url, status: res.statusCode, data: res.data }).toEqual({ url, status, data: { status: 'error', code, text: code === 'BAD_REQUEST' ? 'Некорректный запрос' : 'Не найдено' } });
    }
  });
});
