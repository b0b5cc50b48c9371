import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_LIMITS } from '../../src/features/accounts/accounts.service.ts';
import { call, createTestApp, newUser, nextWindowStart, testClock, type TestApp } from '../support/index.ts';

let t: TestApp;
// The sign-in limits count in fixed windows on the app's clock: this one stands still, inside one.
const clock = testClock(nextWindowStart(AUTH_LIMITS.loginPerIp.windowSeconds));
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

/** Registers with the consent box ticked unless the payload says otherwise. */
const register = (payload: Record<string, unknown>, csrf = true) => call(t.app, { method: 'POST', url: '/api/new/register', payload: { consent: true, ...payload }, csrf });

describe('POST /api/new/register', () => {
  it('creates the account, signs in with a bearer token and a session cookie, and mails a code', async () => {
    const res = await register({ email: 'Anna@Example.ru', password: 'long-enough-1', password_confirmation: 'long-enough-1' });
    expect(res.statusCode).toBe(200);
    const json = res.data.json as { token: string; user: { email: string; email_confirmed: boolean; role: string; balances: unknown } };
    expect(json.user).toMatchObject({ email: 'anna@example.ru', email_confirmed: false, role: 'user', balances: { words: 0, media: 0 } });
    expect(json.token).toMatch(/^ns_/);
    expect(res.cookies.find((c) => c.name === 'session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    const me = await call(t.app, { url: '/api/new/user', token: json.token });
    expect(me.data.json).toMatchObject({ email: 'anna@example.ru' });
    const code = await t.smtp.confirmationCode('anna@example.ru');
    expect(code).toMatch(/^\d{6}$/);
  });

  it('refuses a taken email with a field error and creates nothing', async () => {
    const existing = await newUser(t.db);
    const before = await t.db.selectFrom('users').select(t.db.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const res = await register({ email: existing.email.toUpperCase(), password: 'long-enough-1', password_confirmation: 'long-enough-1' });
    expect(res.statusCode).toBe(422);
    expect(res.data).toMatchObject({ status: 'error', code: 'EMAIL_TAKEN', text: { email: ['Этот email уже зарегистрирован'] } });
    const after = await t.db.selectFrom('users').select(t.db.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it.each([
    [{}, ['email', 'password', 'password_confirmation']],
    [{ email: 'not-an-email', password: 'long-enough-1', password_confirmation: 'long-enough-1' }, ['email']],
    [{ email: 'a@b.ru', password: 'short', password_confirmation: 'short' }, ['password']],
    [{ email: ['a@b.ru'], password: 12345678, password_confirmation: null }, ['email', 'password', 'password_confirmation']],
    [{ email: `${'a'.repeat(300)}@b.ru`, password: 'long-enough-1', password_confirmation: 'long-enough-1' }, ['email']],
  ])('answers 400 with Russian field errors for %j', async (payload, fields) => {
    const res = await register(payload);
    expect(res.statusCode).toBe(400);
    expect(res.data.status).toBe('error');
    expect(Object.keys(res.data.text as object).sort()).toEqual([...fields].sort());
    for (const messages of Object.values(res.data.text as Record<string, string[]>)) {
      for (const m of messages) expect(m).toMatch(/[а-яё]/i);
    }
  });

  it('stores the consent to the processing of personal data: time, policy version and address', async () => {
    const started = Date.now();
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/new/register',
      payload: { email: 'consent@example.ru', password: 'long-enough-1', password_confirmation: 'long-enough-1', consent: true },
      csrf: true,
      remoteAddress: '203.0.113.7',
    });
    expect(res.statusCode).toBe(200);
    const row = await t.db.selectFrom('users').select(['consent_at', 'consent_version', 'consent_ip']).where('email', '=', 'consent@example.ru').executeTakeFirstOrThrow();
    const policy = await t.db.selectFrom('legal_documents').select((eb) => eb.fn.max('version').as('v')).where('kind', '=', 'privacy').executeTakeFirstOrThrow();
    expect(row.consent_version).toBe(policy.v);
    expect(row.consent_ip).toBe('203.0.113.7');
    expect(row.consent_at?.getTime()).toBeGreaterThanOrEqual(started - 1000);
  });

  it.each([
    ['no consent', { consent: undefined }],
    ['an unticked box', { consent: false }],
    ['a string', { consent: 'yes' }],
    ['an object', { consent: { value: true } }],
  ])('refuses %s with the consent field error and creates nothing', async (_name, extra) => {
    const email = `no-consent-${String(Math.random()).slice(2)}@example.ru`;
    const res = await register({ email, password: 'long-enough-1', password_confirmation: 'long-enough-1', ...extra });
    expect(res.statusCode).toBe(400);
    expect(res.data.text).toEqual({ consent: ['Подтвердите согласие на обработку персональных данных'] });
    expect(await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
  });

  it('refuses different passwords on the server', async () => {
    const res = await register({ email: 'mismatch@example.ru', password: 'long-enough-1', password_confirmation: 'long-enough-2' });
    expect(res.statusCode).toBe(400);
    expect(res.data.text).toEqual({ password_confirmation: ['Пароли не совпадают'] });
  });

  it('answers 419 without the CSRF cookie echo', async () => {
    const res = await register({ email: 'csrf@example.ru', password: 'long-enough-1', password_confirmation: 'long-enough-1' }, false);
    expect(res.statusCode).toBe(419);
    expect(res.data.code).toBe('CSRF_MISMATCH');
    const forged = await call(t.app, {
      method: 'POST',
      url: '/api/new/register',
      payload: { email: 'csrf@example.ru', password: 'long-enough-1', password_confirmation: 'long-enough-1' },
      cookies: { 'XSRF-TOKEN': 'forged.value' },
      headers: { 'x-xsrf-token': 'forged.value' },
    });
    expect(forged.statusCode).toBe(419);
  });

  it('answers 400 for malformed JSON and 415 for an unknown content type', async () => {
    const bad = await call(t.app, { method: 'POST', url: '/api/new/register', payload: '{"email":', headers: { 'content-type': 'application/json' }, csrf: true });
    expect(bad.statusCode).toBe(400);
    expect(bad.data.status).toBe('error');
    const xml = await call(t.app, { method: 'POST', url: '/api/new/register', payload: '<x/>', headers: { 'content-type': 'application/xml' }, csrf: true });
    expect(xml.statusCode).toBe(415);
  });
});

describe('POST /api/new/login', () => {
  it('signs in with the right password', async () => {
    const user = await newUser(t.db);
    const res = await call(t.app, { method: 'POST', url: '/api/new/login', payload: { email: user.email, password: user.password }, csrf: true });
    expect(res.statusCode).toBe(200);
    expect((res.data.json as { token: string }).token).toMatch(/^ns_/);
  });

  it('answers the same for a wrong password and an unknown email', async () => {
    const user = await newUser(t.db);
    const wrong = await call(t.app, { method: 'POST', url: '/api/new/login', payload: { email: user.email, password: 'nope-nope-nope' }, csrf: true });
    const unknown = await call(t.app, { method: 'POST', url: '/api/new/login', payload: { email: 'ghost@example.ru', password: 'nope-nope-nope' }, csrf: true });
    expect(wrong.statusCode).toBe(422);
    expect(unknown.statusCode).toBe(422);
    expect(wrong.data.text).toBe('Неверный email или пароль');
    expect(unknown.data).toEqual(wrong.data);
  });

  it('refuses a blocked account', async () => {
    const user = await newUser(t.db, { blocked: true });
    const res = await call(t.app, { method: 'POST', url: '/api/new/login', payload: { email: user.email, password: user.password }, csrf: true });
    expect(res.statusCode).toBe(403);
    expect(res.data.code).toBe('ACCOUNT_BLOCKED');
  });

  it('limits the failures of one address with one account, and never the account’s owner elsewhere', async () => {
    const user = await newUser(t.db);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await call(t.app, { method: 'POST', url: '/api/new/login', payload: { email: user.email, password: 'wrong-password' }, csrf: true, remoteAddress: '10.0.0.1' });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(422), 429]);
    const right = await call(t.app, { method: 'POST', url: '/api/new/login', payload: { email: user.email, password: user.password }, csrf: true, remoteAddress: '10.0.1.1' });
    expect(right.statusCode).toBe(200);
  });
});

describe('sessions', () => {
  it('GET /api/new/user needs a live token', async () => {
    expect((await call(t.app, { url: '/api/new/user' })).statusCode).toBe(401);
    expect((await call(t.app, { url: '/api/new/user', token: 'ns_forged_token_value' })).statusCode).toBe(401);
    expect((await call(t.app, { url: '/api/new/user', headers: { authorization: 'Basic abc' } })).statusCode).toBe(401);
  });

  it('accepts the session cookie as well as the bearer token', async () => {
    const user = await newUser(t.db);
    const res = await call(t.app, { url: '/api/new/user', cookies: { session: user.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.data.json).toMatchObject({ email: user.email });
  });

  it('GET /api/new/logout revokes the token and clears the cookie', async () => {
    const user = await newUser(t.db);
    const res = await call(t.app, { url: '/api/new/logout', token: user.token });
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ status: 'success', json: { ok: true } });
    expect((await call(t.app, { url: '/api/new/user', token: user.token })).statusCode).toBe(401);
    expect((await call(t.app, { url: '/api/new/user', cookies: { session: user.cookie } })).statusCode).toBe(401);
    const guest = await call(t.app, { url: '/api/new/logout' });
    expect(guest.statusCode).toBe(200);
  });

  it('a blocked user with a live session is refused', async () => {
    const user = await newUser(t.db, { blocked: true });
    const res = await call(t.app, { url: '/api/new/user', token: user.token });
    expect(res.statusCode).toBe(403);
  });
});
