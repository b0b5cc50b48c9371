import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, newAdmin, newUser, seedCatalog, subscribe, type Catalog, type TestApp, type TestUser } from '../support/index.ts';

/* The personal-data policy and the offer (pages, versions staff publish) and the export of one user's data. */

let t: TestApp;
let admin: TestUser;
let catalog: Catalog;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
  admin = await newAdmin(t.db);
  catalog = await seedCatalog(t.db);
});
afterAll(() => t.close());

const publish = (kind: string, body: unknown, token = admin.token) => call(t.app, { method: 'POST', url: `/api/admin/legal/${kind}`, token, payload: { body } });
const auditOf = (action: string) => t.db.selectFrom('audit_log').select(['actor_id', 'entity', 'entity_id', 'before', 'after']).where('action', '=', action).orderBy('id').execute();

describe('the policy and the offer', () => {
  it('are pages anyone may read, with the version in force', async () => {
    for (const [path, title] of [
      ['/privacy', 'Политика обработки персональных данных'],
      ['/offer', 'Публичная оферта'],
    ]) {
      const page = await t.app.inject({ url: path ?? '' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(`<h1>${title ?? ''}</h1>`);
      expect(page.body).toContain('Редакция 1 от');
    }
    const api = await call(t.app, { url: '/api/new/legal/privacy' });
    expect(api.data.json).toMatchObject({ kind: 'privacy', version: 1, title: 'Политика обработки персональных данных' });
    expect((await call(t.app, { url: '/api/new/legal/cookies' })).statusCode).toBe(400);
  });

  it('staff publish a new version: the page shows it at once, new registrations consent to it, the audit log has it', async () => {
    const text = 'Новая редакция политики.\n\nВторой абзац <script>alert(1)</script>';
    const res = await publish('privacy', `  ${text}  `);
    expect(res.statusCode).toBe(200);
    expect(res.data.json).toMatchObject({ current: { version: 2, body: text }, versions: [{ version: 2, author: admin.email }, { version: 1, author: null }] });
    const page = await t.app.inject({ url: '/privacy' });
    expect(page.body).toContain('Редакция 2 от');
    expect(page.body).toContain('<p>Новая редакция политики.</p><p>Второй абзац &lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(page.body).not.toContain('<script>alert(1)');
    expect(await auditOf('legal.publish')).toEqual([{ actor_id: admin.id, entity: 'legal', entity_id: 'privacy', before: { version: 1 }, after: { version: 2 } }]);

    const email = `after-v2-${String(Date.now())}@example.ru`;
    expect((await call(t.app, { method: 'POST', url: '/api/new/register', payload: { email, password: 'long-enough-1', password_confirmation: 'long-enough-1', consent: true }, csrf: true })).statusCode).toBe(200);
    expect((await t.db.selectFrom('users').select('consent_version').where('email', '=', email).executeTakeFirstOrThrow()).consent_version).toBe(2);
  });

  it('five staff publishing at once get five consecutive versions', async () => {
    const before = (await call(t.app, { url: '/api/new/legal/offer' })).data.json as { version: number };
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => publish('offer', `Оферта, вариант ${String(i)}`)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const versions = await t.db.selectFrom('legal_documents').select('version').where('kind', '=', 'offer').orderBy('version').execute();
    expect(versions.map((v) => v.version)).toEqual(Array.from({ length: before.version + 5 }, (_, i) => i + 1));
  });

  it.each([
    ['an empty text', '   ', { body: ['Введите текст документа'] }],
    ['no text', undefined, { body: ['Введите текст документа'] }],
    ['a number', 42, { body: ['Введите текст документа'] }],
    ['a NUL character', 'a\u0000b', { body: ['Текст содержит недопустимые символы'] }],
    ['a text over 100 000 characters', 'я'.repeat(100_001), { body: ['Текст не длиннее 100 000 символов'] }],
  ])('refuses %s with a Russian field error and publishes nothing', async (_name, body, text) => {
    const before = await t.db.selectFrom('legal_documents').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const res = await publish('privacy', body);
    expect(res.statusCode).toBe(400);
    expect(res.data.text).toEqual(text);
    expect(await t.db.selectFrom('legal_documents').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).toEqual(before);
  });

  it('refuses users and guests, and an unknown document', async () => {
    const user = await newUser(t.db);
    expect((await publish('privacy', 'Захват', user.token)).statusCode).toBe(403);
    expect((await call(t.app, { method: 'POST', url: '/api/admin/legal/privacy', payload: { body: 'x' } })).statusCode).toBe(401);
    expect((await publish('../privacy', 'x')).statusCode).toBe(404);
    expect((await publish('terms', 'x')).statusCode).toBe(400);
    expect((await call(t.app, { url: '/privacy' })).body).not.toContain('Захват');
  });
});

describe('GET /api/admin/users/:id/export', () => {
  it('answers everything stored about the user as JSON, without secrets, and writes it to the audit log', async () => {
    const user = await newUser(t.db);
    await subscribe(t.app, user, catalog.monthly);
    await t.db.insertInto('chats').values({ user_id: user.id, title: 'Личный чат', model_id: null }).execute();
    const res = await call(t.app, { url: `/api/admin/users/${String(user.id)}/export`, token: admin.token });
    expect(res.statusCode).toBe(200);
    const data = res.data.json as { user: Record<string, unknown>; parts: Record<string, Record<string, unknown>[]> };
    expect(data.user).toMatchObject({ id: user.id, email: user.email, role: 'user' });
    expect(data.user).not.toHaveProperty('password_hash');
    expect(data.parts.chats).toEqual([expect.objectContaining({ title: 'Личный чат' })]);
    expect(data.parts.subscriptions).toHaveLength(1);
    expect(data.parts.invoices).toHaveLength(1);
    expect(data.parts.ledger?.length).toBeGreaterThan(0);
    expect(data.parts.sessions?.[0]).not.toHaveProperty('bearer_hash');
    expect(JSON.stringify(data)).not.toMatch(/password_hash|bearer_hash|cookie_hash|card_token/);
    const [audit] = (await auditOf('user.export')).filter((a) => a.entity_id === String(user.id));
    expect(audit).toMatchObject({ actor_id: admin.id, entity: 'user', after: { chats: 1, subscriptions: 1 } });
  });

  it('404 for nobody, 400 for a bad id, 403 for a user, 401 for a guest', async () => {
    const user = await newUser(t.db);
    expect((await call(t.app, { url: '/api/admin/users/2000000000/export', token: admin.token })).statusCode).toBe(404);
    expect((await call(t.app, { url: '/api/admin/users/abc/export', token: admin.token })).statusCode).toBe(400);
    expect((await call(t.app, { url: `/api/admin/users/${String(user.id)}/export`, token: user.token })).statusCode).toBe(403);
    expect((await call(t.app, { url: `/api/admin/users/${String(user.id)}/export` })).statusCode).toBe(401);
  });
});
