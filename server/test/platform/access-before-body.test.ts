import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, csrfPair, newUser, streamUpload, type StreamedUpload, type TestApp, type TestUser } from '../support/index.ts';

/*
 * Who may call a route is decided before its body is read: a guest's, a non-admin's, a blocked or
 * unconfirmed user's and a CSRF-less post's large uploads — JSON or multipart — get their usual
 * status and envelope while the client is still sending, and the connection closes. A plain
 * form's `_token` (a small body) still counts as the CSRF echo.
 */

const MB = 1024 * 1024;
const BODY = 45 * MB;
const MULTIPART = 'multipart/form-data; boundary=----abuse';
const JSON_TYPE = 'application/json';

let t: TestApp;
let user: TestUser;
let blocked: TestUser;
let unconfirmed: TestUser;
let csrf: { cookie: string; header: string };

beforeAll(async () => {
  t = await createTestApp({ workers: false });
  await t.listen();
  user = await newUser(t.db);
  blocked = await newUser(t.db, { blocked: true });
  unconfirmed = await newUser(t.db, { confirmed: false });
  csrf = await csrfPair(t.app);
});
afterAll(() => t.close());

const bearer = (u: TestUser) => ({ authorization: `Bearer ${u.token}` });
const upload = (path: string, contentType: string, headers: Record<string, string> = {}) =>
  streamUpload(t.baseUrl, { path, headers: { 'content-type': contentType, ...headers }, bodyBytes: BODY, head: Buffer.from(contentType === JSON_TYPE ? '{"title":"' : '------abuse\r\n') });

const ENVELOPES = {
  UNAUTHENTICATED: [401, 'Войдите в аккаунт, чтобы продолжить'],
  CSRF_MISMATCH: [419, 'Сессия устарела. Обновите страницу и попробуйте снова'],
  FORBIDDEN: [403, 'Недостаточно прав'],
  ACCOUNT_BLOCKED: [403, 'Аккаунт заблокирован. Обратитесь в поддержку'],
  EMAIL_NOT_CONFIRMED: [403, 'Подтвердите почту, чтобы продолжить'],
} as const;

function expectRefusedUnread(res: StreamedUpload, code: keyof typeof ENVELOPES) {
  const [status, text] = ENVELOPES[code];
  expect({ status: res.status, body: JSON.parse(res.body) as unknown }).toEqual({ status, body: { status: 'error', code, text } });
  expect(res.finishedSending).toBe(false);
  expect(res.sentBytes).toBeLessThan(BODY);
  expect(res.headers.connection).toBe('close');
}

describe('access is checked before the body is read', () => {
  it('a guest: 401 from JSON and multipart routes that need a user, spoofed paths too', async () => {
    expectRefusedUnread(await upload('/api/new/chat', MULTIPART), 'UNAUTHENTICATED');
    expectRefusedUnread(await upload('/api/new/chat/stream', MULTIPART), 'UNAUTHENTICATED');
    expectRefusedUnread(await upload('/api/new/generations', MULTIPART), 'UNAUTHENTICATED');
    expectRefusedUnread(await upload('/api/new/chat/1/stop', JSON_TYPE), 'UNAUTHENTICATED');
    // A POST that only dispatches `_method` (PATCH/DELETE of the path) answers as its targets would.
    expectRefusedUnread(await upload('/api/new/chat/1', JSON_TYPE), 'UNAUTHENTICATED');
    expectRefusedUnread(await upload('/api/admin/ai-categories/1', JSON_TYPE, { 'x-xsrf-token': csrf.header, cookie: `XSRF-TOKEN=${csrf.cookie}` }), 'UNAUTHENTICATED');
  });

  it('a guest without the CSRF echo: 419 from the sign-in forms, also with the cookie but a body too large to carry `_token`', async () => {
    expectRefusedUnread(await upload('/api/new/login', JSON_TYPE), 'CSRF_MISMATCH');
    expectRefusedUnread(await upload('/api/new/register', JSON_TYPE, { cookie: `XSRF-TOKEN=${csrf.cookie}` }), 'CSRF_MISMATCH');
    expectRefusedUnread(await upload('/api/new/reset_password', 'application/x-www-form-urlencoded', { cookie: `XSRF-TOKEN=${csrf.cookie}` }), 'CSRF_MISMATCH');
  });

  it('a user who is not an admin: 403 from admin JSON and multipart routes', async () => {
    expectRefusedUnread(await upload('/api/admin/ai-products/1/example', MULTIPART, bearer(user)), 'FORBIDDEN');
    expectRefusedUnread(await upload('/api/admin/ai-categories', JSON_TYPE, bearer(user)), 'FORBIDDEN');
    expectRefusedUnread(await upload('/api/admin/users/1/balance', JSON_TYPE, bearer(user)), 'FORBIDDEN');
    expectRefusedUnread(await upload('/api/admin/dashboard-cards/1', JSON_TYPE, bearer(user)), 'FORBIDDEN');
  });

  it('a blocked user: 403 blocked; an unconfirmed one: 403 from routes that need a confirmed email', async () => {
    expectRefusedUnread(await upload('/api/new/generations', MULTIPART, bearer(blocked)), 'ACCOUNT_BLOCKED');
    expectRefusedUnread(await upload('/api/new/chat/1/stop', JSON_TYPE, bearer(blocked)), 'ACCOUNT_BLOCKED');
    expectRefusedUnread(await upload('/api/new/chat', MULTIPART, bearer(unconfirmed)), 'EMAIL_NOT_CONFIRMED');
    expectRefusedUnread(await upload('/api/new/generations', MULTIPART, bearer(unconfirmed)), 'EMAIL_NOT_CONFIRMED');
  });

  it('a session cookie without the CSRF header: 419 before the body', async () => {
    expectRefusedUnread(await upload('/api/new/chat', MULTIPART, { cookie: `session=${user.cookie}; XSRF-TOKEN=${csrf.cookie}` }), 'CSRF_MISMATCH');
    expectRefusedUnread(await upload('/api/new/chat/1/stop', JSON_TYPE, { cookie: `session=${user.cookie}` }), 'CSRF_MISMATCH');
  });
});

describe('the CSRF echo in a small body still counts', () => {
  it('`_token` of a plain form or a small JSON body, without the header: accepted; a wrong one: 419', async () => {
    const form = new URLSearchParams({ email: user.email, _token: csrf.header }).toString();
    const ok = await call(t.app, { method: 'POST', url: '/api/new/reset_password', payload: form, headers: { 'content-type': 'application/x-www-form-urlencoded' }, cookies: { 'XSRF-TOKEN': csrf.cookie } });
    expect(ok.statusCode).toBe(200);
    const json = await call(t.app, { method: 'POST', url: '/api/new/reset_password', payload: { email: user.email, _token: csrf.header }, cookies: { 'XSRF-TOKEN': csrf.cookie } });
    expect(json.statusCode).toBe(200);
    const wrong = await call(t.app, { method: 'POST', url: '/api/new/reset_password', payload: { email: user.email, _token: 'forged' }, cookies: { 'XSRF-TOKEN': csrf.cookie } });
    expect(wrong.statusCode).toBe(419);
  });

  it('a spoofed method whose form carries `_token`: the target takes it as the echo', async () => {
    const chat = await t.db.insertInto('chats').values({ user_id: user.id, title: 'Старое' }).returning('id').executeTakeFirstOrThrow();
    const form = new URLSearchParams({ _method: 'PATCH', title: 'Новое', _token: csrf.header }).toString();
    const res = await call(t.app, { method: 'POST', url: `/api/new/chat/${String(chat.id)}`, payload: form, headers: { 'content-type': 'application/x-www-form-urlencoded' }, cookies: { session: user.cookie, 'XSRF-TOKEN': csrf.cookie } });
    expect(res.statusCode).toBe(200);
    expect((await t.db.selectFrom('chats').select('title').where('id', '=', chat.id).executeTakeFirstOrThrow()).title).toBe('Новое');
  });
});
