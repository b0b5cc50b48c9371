import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { rateLimitedText } from '@app/contracts';
import { call, createTestApp, csrfPair, newUser, type CallOptions, type TestApp, type TestUser } from '../support/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let ipCounter = 0;
/** A fresh client address, so the per-IP limits of one test do not spill into the next. */
const nextIp = () => {
  ipCounter += 1;
  return `10.30.${String(ipCounter >> 8)}.${String(ipCounter & 255)}`;
};

const URL_PATH = '/api/new/reset_password';
const INVALID_LINK = 'Ссылка для сброса пароля недействительна или устарела';

const post = (payload: unknown, opts: Partial<CallOptions> = {}) =>
  call(t.app, { method: 'POST', url: URL_PATH, payload: payload as Record<string, unknown>, csrf: true, remoteAddress: nextIp(), ...opts });

const requestReset = (email: unknown, opts: Partial<CallOptions> = {}) => post({ email }, opts);

/** The seed's call: POST {password, password_confirmation, token, email, _method: 'PATCH'}. */
const setPassword = (fields: Record<string, unknown>, opts: Partial<CallOptions> = {}) => post({ ...fields, _method: 'PATCH' }, opts);

/** A live reset token of `user`, stored as the service stores it. */
async function newResetToken(user: Pick<TestUser, 'id'>, expiresInMinutes = 60): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  await t.db
    .insertInto('password_resets')
    .values({ user_id: user.id, token_hash: crypto.createHash('sha256').update(token).digest(), expires_at: new Date(Date.now() + expiresInMinutes * 60_000) })
    .execute();
  return token;
}

const login = (email: string, password: string) => call(t.app, { method: 'POST', url: '/api/new/login', payload: { email, password }, csrf: true, remoteAddress: nextIp() });

const resetMails = (email: string) => t.smtp.messages.filter((m) => m.to.includes(email) && /сброс пароля/i.test(m.subject));

/** Waits until every reset request for `email` so far has been worked through (its job done): only then does "no mail" mean anything. */
async function resetRequestsDone(email: string, count = 1): Promise<void> {
  await vi.waitFor(
    async () => {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pgboss.job where name = 'accounts.password-reset' and data->>'email' = ${email} and state = 'completed'`.execute(t.db);
      expect(rows[0]?.n).toBe(count);
    },
    { timeout: 15_000, interval: 100 },
  );
}

/** Queued mail jobs to `email` (delivered or not): the proof that nothing was sent. */
async function mailJobsTo(email: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from pgboss.job where name = 'mail.send' and data->>'to' = ${email}`.execute(t.db);
  return rows[0]?.n ?? 0;
}

const passwordHash = async (userId: number) => (await t.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow()).password_hash;

describe('POST /api/new/reset_password {email}', () => {
  it('mails a single link /password/reset/{token}?email=...', async () => {
    const user = await newUser(t.db);
    const res = await requestReset(user.email.toUpperCase());
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ status: 'success', json: { ok: true } });
    const link = new URL(await t.smtp.resetLink(user.email));
    expect(`${link.protocol}//${link.host}`).toBe(t.config.publicUrl);
    const match = /^\/password\/reset\/([A-Za-z0-9_-]{32,})$/.exec(link.pathname);
    expect(match).not.toBeNull();
    expect(link.searchParams.get('email')).toBe(user.email);
    const rows = await t.db.selectFrom('password_resets').selectAll().where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(1);
    // Stored only as a hash.
    expect(rows[0]?.token_hash.equals(crypto.createHash('sha256').update(match?.[1] ?? '').digest())).toBe(true);
    const ttl = (rows[0]?.expires_at.getTime() ?? 0) - Date.now();
    expect(ttl).toBeGreaterThan(59 * 60_000);
    expect(ttl).toBeLessThanOrEqual(60 * 60_000);
  });

  it('answers the same for an unknown email and mails nothing', async () => {
    const user = await newUser(t.db);
    const known = await requestReset(user.email);
    const unknown = await requestReset('nobody-here@example.ru');
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    await t.smtp.resetLink(user.email);
    await resetRequestsDone('nobody-here@example.ru');
    expect(await mailJobsTo('nobody-here@example.ru')).toBe(0);
    expect(await mailJobsTo(user.email)).toBe(1);
  });

  it('runs the same statements for an account, an unknown email and a blocked account, so its time tells nothing', async () => {
    // An app of its own without workers: every statement on its database is the request's.
    const quiet = await createTestApp({ workers: false });
    try {
      const database = new URL(quiet.databaseUrl).pathname.slice(1);
      const known = await newUser(quiet.db);
      const blocked = await newUser(quiet.db, { blocked: true });
      /** The SQL sent to that database while the request ran, on any connection, its values left out. */
      const statementsOf = async (email: string): Promise<string[]> => {
        const spy = vi.spyOn(pg.Client.prototype, 'query');
        try {
          expect((await call(quiet.app, { method: 'POST', url: URL_PATH, payload: { email }, csrf: true, remoteAddress: nextIp() })).statusCode).toBe(200);
          return spy.mock.calls.flatMap(([first], i) => {
            if ((spy.mock.contexts[i] as pg.Client).database !== database) return [];
            const query = first as string | { text?: string; name?: string };
            return [typeof query === 'string' ? query : (query.text ?? query.name ?? '?')];
          });
        } finally {
          spy.mockRestore();
        }
      };
      await statementsOf('warm-up@example.ru');
      const ofKnown = await statementsOf(known.email);
      expect(ofKnown.length).toBeGreaterThan(0);
      expect(await statementsOf('nobody-timed@example.ru')).toEqual(ofKnown);
      expect(await statementsOf(blocked.email)).toEqual(ofKnown);
      expect(await statementsOf(known.email.toUpperCase())).toEqual(ofKnown);
    } finally {
      await quiet.close();
    }
  });

  it('answers the same for a blocked account and mails nothing', async () => {
    const user = await newUser(t.db, { blocked: true });
    const res = await requestReset(user.email);
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ status: 'success', json: { ok: true } });
    await resetRequestsDone(user.email);
    expect(await mailJobsTo(user.email)).toBe(0);
  });

  it('needs the CSRF echo (419) and then mails nothing', async () => {
    const user = await newUser(t.db);
    const bare = await requestReset(user.email, { csrf: false });
    expect(bare.statusCode).toBe(419);
    expect(bare.data).toMatchObject({ status: 'error', code: 'CSRF_MISMATCH', text: 'Сессия устарела. Обновите страницу и попробуйте снова' });
    const pair = await csrfPair(t.app);
    const other = await csrfPair(t.app);
    const mismatched = await requestReset(user.email, { csrf: false, cookies: { 'XSRF-TOKEN': pair.cookie }, headers: { 'x-xsrf-token': other.header } });
    expect(mismatched.statusCode).toBe(419);
    const unsigned = await requestReset(user.email, { csrf: false, cookies: { 'XSRF-TOKEN': 'abc.def' }, headers: { 'x-xsrf-token': 'abc.def' } });
    expect(unsigned.statusCode).toBe(419);
    expect(await mailJobsTo(user.email)).toBe(0);
  });

  it('a stranger’s requests never hold back the owner’s: the owner always holds a working link, and at most three are mailed at once', async () => {
    const user = await newUser(t.db);
    const stranger = nextIp();
    for (let i = 0; i < 8; i++) expect((await requestReset(user.email, { remoteAddress: stranger })).statusCode).toBe(200);
    const owner = await requestReset(user.email);
    expect(owner.statusCode).toBe(200);
    await resetRequestsDone(user.email, 9);
    await vi.waitFor(() => expect(resetMails(user.email)).toHaveLength(3), { timeout: 15_000, interval: 100 });
    expect(await mailJobsTo(user.email)).toBe(3);
    // The newest link in the owner's mailbox sets the password.
    const token = new URL(await t.smtp.resetLink(user.email)).pathname.split('/').pop() ?? '';
    expect((await setPassword({ token, email: user.email, password: 'owner-new-pass-1', password_confirmation: 'owner-new-pass-1' })).statusCode).toBe(200);
    // Links used up, a new request mails a new one.
    expect((await requestReset(user.email)).statusCode).toBe(200);
    await vi.waitFor(() => expect(resetMails(user.email)).toHaveLength(4), { timeout: 15_000, interval: 100 });
  });

  it('only an address is limited: 20 requests an hour, whichever emails they name', async () => {
    const ip = nextIp();
    for (let i = 0; i < 20; i++) expect((await requestReset(`many-${String(i)}@example.ru`, { remoteAddress: ip })).statusCode).toBe(200);
    const limited = await requestReset('one-more@example.ru', { remoteAddress: ip });
    expect(limited.statusCode).toBe(429);
    expect(limited.data).toMatchObject({ status: 'error', code: 'RATE_LIMITED', text: rateLimitedText(Number(limited.headers['retry-after'])) });
    expect((await requestReset('one-more@example.ru')).statusCode).toBe(200);
  });

  it.each<[string, unknown, string]>([
    ['a missing email', undefined, 'Введите email'],
    ['an empty email', '', 'Введите email'],
    ['not an email', 'not-an-email', 'Введите корректный email'],
    ['an array', ['a@b.ru'], 'Введите email'],
    ['an operator object', { $ne: null }, 'Введите email'],
    ['a huge string', `${'a'.repeat(100_000)}@b.ru`, 'Слишком длинный email'],
    ['header injection', 'a@b.ru\r\nBcc: victim@example.ru', 'Введите корректный email'],
  ])('answers 400 with a Russian field error for %s', async (_label, email, message) => {
    const res = await requestReset(email);
    expect(res.statusCode).toBe(400);
    expect(res.data).toEqual({ status: 'error', code: 'VALIDATION', text: { email: [message] } });
  });

  it('accepts a form-encoded body', async () => {
    const user = await newUser(t.db);
    const res = await requestReset(undefined, {
      payload: `email=${encodeURIComponent(user.email)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(200);
    await t.smtp.resetLink(user.email);
  });
});

describe('POST /api/new/reset_password {password, password_confirmation, token, email, _method: PATCH}', () => {
  it('sets the new password from the mailed link, ends every session, and only the new password signs in', async () => {
    const user = await newUser(t.db);
    const second = await login(user.email, user.password);
    const secondToken = (second.data.json as { token: string }).token;
    expect((await requestReset(user.email)).statusCode).toBe(200);
    const link = new URL(await t.smtp.resetLink(user.email));
    const token = link.pathname.split('/').pop() ?? '';
    const email = link.searchParams.get('email') ?? '';

    const res = await setPassword({ password: 'brand-new-secret', password_confirmation: 'brand-new-secret', token, email });
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ status: 'success', json: { ok: true } });

    expect((await call(t.app, { url: '/api/new/user', token: user.token })).statusCode).toBe(401);
    expect((await call(t.app, { url: '/api/new/user', token: secondToken })).statusCode).toBe(401);
    expect((await call(t.app, { url: '/api/new/user', cookies: { session: user.cookie } })).statusCode).toBe(401);
    const live = await t.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).where('revoked_at', 'is', null).execute();
    expect(live).toHaveLength(0);

    const oldLogin = await login(user.email, user.password);
    expect(oldLogin.statusCode).toBe(422);
    expect(oldLogin.data.code).toBe('INVALID_CREDENTIALS');
    const newLogin = await login(user.email, 'brand-new-secret');
    expect(newLogin.statusCode).toBe(200);
  });

  it('works with a real PATCH too', async () => {
    const user = await newUser(t.db);
    const token = await newResetToken(user);
    const res = await call(t.app, {
      method: 'PATCH',
      url: URL_PATH,
      payload: { password: 'patched-secret', password_confirmation: 'patched-secret', token, email: user.email },
      csrf: true,
      remoteAddress: nextIp(),
    });
    expect(res.statusCode).toBe(200);
    expect((await login(user.email, 'patched-secret')).statusCode).toBe(200);
  });

  it('works with a form-encoded body carrying _method=PATCH, the method name in any case', async () => {
    const user = await newUser(t.db);
    const token = await newResetToken(user);
    const form = new URLSearchParams({ password: 'form-sent-secret', password_confirmation: 'form-sent-secret', token, email: user.email, _method: 'patch' });
    const res = await post(undefined, { payload: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ status: 'success', json: { ok: true } });
    expect((await login(user.email, 'form-sent-secret')).statusCode).toBe(200);
  });

  it('needs the CSRF echo, spoofed or real', async () => {
    const user = await newUser(t.db);
    const token = await newResetToken(user);
    const fields = { password: 'csrf-less-secret', password_confirmation: 'csrf-less-secret', token, email: user.email };
    const spoofed = await setPassword(fields, { csrf: false });
    expect(spoofed.statusCode).toBe(419);
    expect(spoofed.data.code).toBe('CSRF_MISMATCH');
    const real = await call(t.app, { method: 'PATCH', url: URL_PATH, payload: fields, remoteAddress: nextIp() });
    expect(real.statusCode).toBe(419);
    expect((await login(user.email, user.password)).statusCode).toBe(200);
    expect((await setPassword(fields)).statusCode).toBe(200);
  });

  it('refuses a confirmation that does not match, and the link still works afterwards', async () => {
    const user = await newUser(t.db);
    const token = await newResetToken(user);
    const res = await setPassword({ password: 'first-secret-1', password_confirmation: 'first-secret-2', token, email: user.email });
    expect(res.statusCode).toBe(400);
    expect(res.data).toEqual({ status: 'error', code: 'VALIDATION', text: { password_confirmation: ['Пароли не совпадают'] } });
    expect((await setPassword({ password: 'first-secret-1', password_confirmation: 'first-secret-1', token, email: user.email })).statusCode).toBe(200);
  });

  it('refuses a short password, and the link still works afterwards', async () => {
    const user = await newUser(t.db);
    const token = await newResetToken(user);
    const res = await setPassword({ password: 'short', password_confirmation: 'short', token, email: user.email });
    expect(res.statusCode).toBe(400);
    expect(res.data).toEqual({ status: 'error', code: 'VALIDATION', text: { password: ['Пароль должен быть не короче 8 символов'] } });
    expect((await setPassword({ password: 'long-enough', password_confirmation: 'long-enough', token, email: user.email })).statusCode).toBe(200);
  });

  it('refuses a wrong token and changes nothing', async () => {
    const user = await newUser(t.db);
    await newResetToken(user);
    const before = await passwordHash(user.id);
    const res = await setPassword({ password: 'guessed-secret', password_confirmation: 'guessed-secret', token: crypto.randomBytes(32).toString('base64url'), email: user.email });
    expect(res.statusCode).toBe(422);
    expect(res.data).toEqual({ status: 'error', code: 'RESET_TOKEN_INVALID', text: INVALID_LINK });
    expect(await passwordHash(user.id)).toBe(before);
    expect((await call(t.app, { url: '/api/new/user', token: user.token })).statusCode).toBe(200);
  });

  it("refuses a token sent with another account's email and changes neither password", async () => {
    const owner = await newUser(t.db);
    const victim = await newUser(t.db);
    const token = await newResetToken(owner);
    const [ownerBefore, victimBefore] = [await passwordHash(owner.id), await passwordHash(victim.id)];
    const res = await setPassword({ password: 'takeover-secret', password_confirmation: 'takeover-secret', token, email: victim.email });
    expect(res.statusCode).toBe(422);
    expect(res.data.code).toBe('RESET_TOKEN_INVALID');
    expect(await passwordHash(owner.id)).toBe(ownerBefore);
    expect(await passwordHash(victim.id)).toBe(victimBefore);
  });

  it('refuses an expired token', async () => {
    const user = await newUser(t.db);
    const token = await newResetToken(user, -1);
    const res = await setPassword({ password: 'too-late-secret', password_confirmation: 'too-late-secret', token, email: user.email });
    expect(res.statusCode).toBe(422);
    expect(res.data).toMatchObject({ code: 'RESET_TOKEN_INVALID', text: INVALID_LINK });
    expect((await login(user.email, 'too-late-secret')).statusCode).toBe(422);
  });

  it('is single use, and using one link ends the other links of the account', async () => {
    const user = await newUser(t.db);
    const first = await newResetToken(user);
    const second = await newResetToken(user);
    expect((await setPassword({ password: 'once-only-secret', password_confirmation: 'once-only-secret', token: first, email: user.email })).statusCode).toBe(200);
    const again = await setPassword({ password: 'twice-secret-1', password_confirmation: 'twice-secret-1', token: first, email: user.email });
    expect(again.statusCode).toBe(422);
    expect(again.data.code).toBe('RESET_TOKEN_INVALID');
    const other = await setPassword({ password: 'twice-secret-2', password_confirmation: 'twice-secret-2', token: second, email: user.email });
    expect(other.statusCode).toBe(422);
    expect((await login(user.email, 'once-only-secret')).statusCode).toBe(200);
  });

  it('confirms the email of an unconfirmed account: the link proves the address', async () => {
    const user = await newUser(t.db, { confirmed: false });
    const token = await newResetToken(user);
    expect((await setPassword({ password: 'confirmed-by-link', password_confirmation: 'confirmed-by-link', token, email: user.email })).statusCode).toBe(200);
    const row = await t.db.selectFrom('users').select('email_confirmed_at').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.email_confirmed_at).not.toBeNull();
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['nothing', {}, ['email', 'password', 'password_confirmation', 'token']],
    ['a token array', { token: ['abc'] }, ['token']],
    ['a huge token', { token: 'a'.repeat(10_000) }, ['token']],
    ['an empty token', { token: '' }, ['token']],
    ['a password object', { password: { length: 20 }, password_confirmation: { length: 20 } }, ['password', 'password_confirmation']],
    ['a huge password', { password: 'p'.repeat(300), password_confirmation: 'p'.repeat(300) }, ['password', 'password_confirmation']],
    ['a bad email', { email: 'nope' }, ['email']],
  ])('answers 400 with Russian field errors for %s', async (_label, override, fields) => {
    const user = await newUser(t.db);
    const base = { password: 'valid-secret', password_confirmation: 'valid-secret', token: 'x'.repeat(43), email: user.email };
    const payload = Object.keys(override).length ? { ...base, ...override } : {};
    const res = await setPassword(payload);
    expect(res.statusCode).toBe(400);
    expect(res.data.status).toBe('error');
    expect(Object.keys(res.data.text as object).sort()).toEqual([...fields].sort());
    for (const messages of Object.values(res.data.text as Record<string, string[]>)) {
      for (const m of messages) expect(m).toMatch(/[а-яё]/i);
    }
  });

  it('routes only PATCH, PUT and DELETE by _method: other values stay a POST', async () => {
    const user = await newUser(t.db);
    const res = await post({ email: user.email, _method: 'GET' });
    expect(res.statusCode).toBe(200);
    await vi.waitFor(() => expect(resetMails(user.email)).toHaveLength(1), { timeout: 15_000, interval: 100 });
    const unknown = await post({ email: user.email, _method: 'DELETE' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.data).toMatchObject({ status: 'error', code: 'NOT_FOUND', text: 'Не найдено' });
  });
});

describe('GET /api/new/reset_password/check?token=&email=', () => {
  const checkLink = (query: string) => call(t.app, { url: `${URL_PATH}/check${query}` });

  it('says whether the mailed link can still set a password: yes until used, then no', async () => {
    const user = await newUser(t.db);
    expect((await requestReset(user.email)).statusCode).toBe(200);
    const link = new URL(await t.smtp.resetLink(user.email));
    const token = link.pathname.split('/').pop() ?? '';
    const query = `?token=${token}&email=${encodeURIComponent(user.email)}`;
    expect((await checkLink(query)).data).toEqual({ status: 'success', json: { valid: true } });
    // Checking does not use the link up.
    expect((await checkLink(query)).data.json).toEqual({ valid: true });
    // Another account's email with this token is not valid.
    const other = await newUser(t.db);
    expect((await checkLink(`?token=${token}&email=${encodeURIComponent(other.email)}`)).data.json).toEqual({ valid: false });
    expect((await setPassword({ password: 'brand-new-secret', password_confirmation: 'brand-new-secret', token, email: user.email })).statusCode).toBe(200);
    expect((await checkLink(query)).data.json).toEqual({ valid: false });
  });

  it('an expired link is not valid', async () => {
    const user = await newUser(t.db);
    expect((await requestReset(user.email)).statusCode).toBe(200);
    const token = new URL(await t.smtp.resetLink(user.email)).pathname.split('/').pop() ?? '';
    await t.db.updateTable('password_resets').set({ expires_at: new Date(Date.now() - 1000) }).where('user_id', '=', user.id).execute();
    expect((await checkLink(`?token=${token}&email=${encodeURIComponent(user.email)}`)).data.json).toEqual({ valid: false });
  });

  it('answers not valid to missing or made-up parameters, and 400 to hostile ones, changing nothing', async () => {
    for (const query of ['', '?token=', '?email=a@b.ru', '?token=abc&email=a@b.ru', `?token=${'x'.repeat(150)}&email=${encodeURIComponent("' or 1=1 --")}`]) {
      const res = await checkLink(query);
      expect(res.statusCode).toBe(200);
      expect(res.data.json).toEqual({ valid: false });
    }
    const huge = await checkLink(`?token=${'x'.repeat(500)}&email=a@b.ru`);
    expect(huge.statusCode).toBe(400);
    expect(huge.data.status).toBe('error');
    const repeated = await checkLink('?token=a&token=b&email=a@b.ru');
    expect(repeated.statusCode).toBe(400);
  });
});
