import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { AUTH_LIMITS } from '../../src/features/accounts/accounts.service.ts';
import { call, createTestApp, newUser, type TestApp, type TestUser } from '../support/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let ipCounter = 0;
/** A fresh client address, so the per-IP limits of one test do not spill into the next. */
const nextIp = () => {
  ipCounter += 1;
  return `10.20.${String(ipCounter >> 8)}.${String(ipCounter & 255)}`;
};

const CODE_SUBJECT = /код подтверждения/i;
const codeMails = (email: string) => t.smtp.messages.filter((m) => m.to.includes(email) && CODE_SUBJECT.test(m.subject));

/** The code of the `nth` (1-based) confirmation mail to `email`, waiting for it to arrive. */
async function mailedCode(email: string, nth: number): Promise<string> {
  await vi.waitFor(() => expect(codeMails(email).length).toBeGreaterThanOrEqual(nth), { timeout: 15_000, interval: 100 });
  const subject = codeMails(email)[nth - 1]?.subject ?? '';
  const code = /(\d{6})/.exec(subject)?.[1];
  if (!code) throw new Error(`no code in "${subject}"`);
  return code;
}

const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

const confirm = (user: Pick<TestUser, 'token'>, code: unknown) =>
  call(t.app, { method: 'POST', url: '/api/confirm_email', payload: { code }, token: user.token, remoteAddress: nextIp() });

const resend = (user: Pick<TestUser, 'token'>) => call(t.app, { method: 'POST', url: '/api/new/confirm_email/resend', token: user.token, remoteAddress: nextIp() });

/** Lets the next resend through without waiting a minute. */
const ageCodes = (userId: number) => sql`update email_codes set created_at = created_at - interval '2 minutes' where user_id = ${userId}`.execute(t.db);

const isConfirmed = async (userId: number) =>
  (await t.db.selectFrom('users').select('email_confirmed_at').where('id', '=', userId).executeTakeFirstOrThrow()).email_confirmed_at !== null;

const currentCodeRow = (userId: number) =>
  t.db.selectFrom('email_codes').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();

/** An unconfirmed user who has been mailed a code. */
async function userWithCode(): Promise<{ user: TestUser; code: string }> {
  const user = await newUser(t.db, { confirmed: false });
  expect((await resend(user)).statusCode).toBe(200);
  return { user, code: await mailedCode(user.email, 1) };
}

describe('POST /api/confirm_email', () => {
  it('confirms the email with the mailed code', async () => {
    const { user, code } = await userWithCode();
    const res = await confirm(user, code);
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ status: 'success', json: { email_confirmed: true } });
    const me = await call(t.app, { url: '/api/new/user', token: user.token });
    expect(me.data.json).toMatchObject({ email: user.email, email_confirmed: true });
    expect((await currentCodeRow(user.id)).used_at).not.toBeNull();
  });

  it('refuses a wrong code with a field error and counts the attempt', async () => {
    const { user, code } = await userWithCode();
    const res = await confirm(user, otherCode(code));
    expect(res.statusCode).toBe(422);
    expect(res.data).toEqual({ status: 'error', code: 'CODE_INVALID', text: { code: ['Неверный код'] } });
    expect((await currentCodeRow(user.id)).attempts).toBe(1);
    expect(await isConfirmed(user.id)).toBe(false);
  });

  it('after 5 wrong attempts refuses even the right code until a new one is requested', async () => {
    const { user, code } = await userWithCode();
    const wrong = otherCode(code);
    for (let i = 1; i <= 4; i++) {
      const res = await confirm(user, wrong);
      expect(res.statusCode).toBe(422);
      expect(res.data.code).toBe('CODE_INVALID');
    }
    const fifth = await confirm(user, wrong);
    expect(fifth.statusCode).toBe(422);
    expect(fifth.data).toMatchObject({ code: 'CODE_ATTEMPTS_EXCEEDED', text: { code: ['Слишком много неверных попыток. Запросите новый код'] } });

    const right = await confirm(user, code);
    expect(right.statusCode).toBe(422);
    expect(right.data.code).toBe('CODE_ATTEMPTS_EXCEEDED');
    expect(await isConfirmed(user.id)).toBe(false);
    expect((await currentCodeRow(user.id)).attempts).toBe(5);

    await ageCodes(user.id);
    expect((await resend(user)).statusCode).toBe(200);
    const fresh = await mailedCode(user.email, 2);
    expect((await confirm(user, fresh)).statusCode).toBe(200);
    expect(await isConfirmed(user.id)).toBe(true);
  });

  it('refuses an expired code', async () => {
    const { user, code } = await userWithCode();
    await t.db.updateTable('email_codes').set({ expires_at: new Date(Date.now() - 1000) }).where('user_id', '=', user.id).execute();
    const res = await confirm(user, code);
    expect(res.statusCode).toBe(422);
    expect(res.data).toMatchObject({ code: 'CODE_EXPIRED', text: { code: ['Срок действия кода истёк. Запросите новый код'] } });
    expect(await isConfirmed(user.id)).toBe(false);
  });

  it('accepts a code until it expires: 30 minutes', async () => {
    const { user, code } = await userWithCode();
    const row = await currentCodeRow(user.id);
    const ttl = row.expires_at.getTime() - row.created_at.getTime();
    expect(ttl).toBeGreaterThan(29 * 60_000);
    expect(ttl).toBeLessThanOrEqual(30 * 60_000 + 5_000);
    expect((await confirm(user, code)).statusCode).toBe(200);
  });

  it('answers 422 when the email is already confirmed', async () => {
    const user = await newUser(t.db, { confirmed: true });
    const res = await confirm(user, '123456');
    expect(res.statusCode).toBe(422);
    expect(res.data).toMatchObject({ status: 'error', code: 'EMAIL_ALREADY_CONFIRMED', text: 'Почта уже подтверждена' });
  });

  it('answers 401 to a guest, with or without the CSRF echo, and to a revoked token', async () => {
    for (const csrf of [false, true]) {
      const res = await call(t.app, { method: 'POST', url: '/api/confirm_email', payload: { code: '123456' }, csrf });
      expect(res.statusCode).toBe(401);
      expect(res.data).toMatchObject({ status: 'error', code: 'UNAUTHENTICATED', text: 'Войдите в аккаунт, чтобы продолжить' });
    }
    const user = await newUser(t.db, { confirmed: false });
    await call(t.app, { url: '/api/new/logout', token: user.token });
    const revoked = await confirm(user, '123456');
    expect(revoked.statusCode).toBe(401);
    expect(revoked.data.code).toBe('UNAUTHENTICATED');
  });

  it('answers 403 to a blocked user', async () => {
    const user = await newUser(t.db, { confirmed: false, blocked: true });
    const res = await confirm(user, '123456');
    expect(res.statusCode).toBe(403);
    expect(res.data.code).toBe('ACCOUNT_BLOCKED');
  });

  it.each<[string, unknown, string]>([
    ['letters', 'abcdef', 'Код состоит из 6 цифр'],
    ['a letter among digits', '12345a', 'Код состоит из 6 цифр'],
    ['7 digits', '1234567', 'Код состоит из 6 цифр'],
    ['5 digits', '12345', 'Код состоит из 6 цифр'],
    ['non-ASCII digits', '١٢٣٤٥٦', 'Код состоит из 6 цифр'],
    ['a huge string', '1'.repeat(200_000), 'Код состоит из 6 цифр'],
    ['SQL', "123456' OR '1'='1", 'Код состоит из 6 цифр'],
    ['an empty string', '', 'Введите код из письма'],
    ['blanks', '      ', 'Введите код из письма'],
    ['an array', ['123456'], 'Введите код из письма'],
    ['an object', { $gt: '' }, 'Введите код из письма'],
    ['a number', 123456, 'Введите код из письма'],
    ['null', null, 'Введите код из письма'],
    ['a missing code', undefined, 'Введите код из письма'],
  ])('answers 400 with a Russian field error for %s, and counts no attempt', async (_label, code, message) => {
    const { user } = await userWithCode();
    const res = await confirm(user, code);
    expect(res.statusCode).toBe(400);
    expect(res.data).toEqual({ status: 'error', code: 'VALIDATION', text: { code: [message] } });
    expect((await currentCodeRow(user.id)).attempts).toBe(0);
  });

  it.each<[string, string]>([
    ['no body', ''],
    ['a JSON array', '["123456"]'],
    ['JSON null', 'null'],
    ['broken JSON', '{"code":'],
  ])('answers 400 in the envelope for %s', async (_label, payload) => {
    const user = await newUser(t.db, { confirmed: false });
    const res = await call(t.app, { method: 'POST', url: '/api/confirm_email', payload, headers: payload ? { 'content-type': 'application/json' } : {}, token: user.token });
    expect(res.statusCode).toBe(400);
    expect(res.data.status).toBe('error');
    expect(JSON.stringify(res.data.text)).toMatch(/[а-яё]/i);
  });

  it("does not confirm a user with another user's code", async () => {
    const a = await userWithCode();
    const b = await userWithCode();
    if (a.code === b.code) return; // one chance in a million: nothing to tell apart
    const res = await confirm(b.user, a.code);
    expect(res.statusCode).toBe(422);
    expect(res.data.code).toBe('CODE_INVALID');
    expect(await isConfirmed(b.user.id)).toBe(false);
    expect(await isConfirmed(a.user.id)).toBe(false);
    expect((await currentCodeRow(a.user.id)).attempts).toBe(0);
    expect((await confirm(a.user, a.code)).statusCode).toBe(200);
    expect(await isConfirmed(b.user.id)).toBe(false);
  });

  it('needs the CSRF echo when signed in by the session cookie', async () => {
    const { user, code } = await userWithCode();
    const bare = await call(t.app, { method: 'POST', url: '/api/confirm_email', payload: { code }, cookies: { session: user.cookie } });
    expect(bare.statusCode).toBe(419);
    expect(bare.data.code).toBe('CSRF_MISMATCH');
    expect((await currentCodeRow(user.id)).attempts).toBe(0);
    const res = await call(t.app, { method: 'POST', url: '/api/confirm_email', payload: { code }, cookies: { session: user.cookie }, csrf: true });
    expect(res.statusCode).toBe(200);
  });

  it('limits code attempts per user across addresses', async () => {
    const window = () => Math.floor(Date.now() / (AUTH_LIMITS.codePerUser.windowSeconds * 1000));
    let statuses: number[] = [];
    let user: TestUser | undefined;
    let wrong = '';
    // The limiter counts in fixed windows: a run that straddles a window boundary is repeated.
    for (let run = 0; run < 2; run++) {
      const started = window();
      const fresh = await userWithCode();
      user = fresh.user;
      wrong = otherCode(fresh.code);
      statuses = [];
      for (let i = 0; i < 21; i++) statuses.push((await confirm(user, wrong)).statusCode);
      if (window() === started) break;
    }
    if (!user) throw new Error('unreachable');
    expect(statuses.slice(0, 20).every((s) => s === 422)).toBe(true);
    expect(statuses[20]).toBe(429);
    const limited = await confirm(user, wrong);
    expect(limited.data).toMatchObject({ status: 'error', code: 'RATE_LIMITED' });
    expect(limited.data.text).toMatch(/[а-яё]/i);
  });
});

describe('POST /api/new/confirm_email/resend', () => {
  it('mails a new code and the old one stops working', async () => {
    const { user, code: first } = await userWithCode();
    await ageCodes(user.id);
    const res = await resend(user);
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ status: 'success', json: { resend_in: 60 } });
    const second = await mailedCode(user.email, 2);
    expect(codeMails(user.email)).toHaveLength(2);
    if (second === first) return; // one chance in a million
    const old = await confirm(user, first);
    expect(old.statusCode).toBe(422);
    expect(old.data.code).toBe('CODE_INVALID');
    expect((await confirm(user, second)).statusCode).toBe(200);
  });

  it('answers 429 with a Russian text to a second resend within a minute, and mails nothing', async () => {
    const { user } = await userWithCode();
    const res = await resend(user);
    expect(res.statusCode).toBe(429);
    expect(res.data).toEqual({ status: 'error', code: 'RESEND_TOO_SOON', text: 'Новый код можно запросить через минуту' });
    const codes = await t.db.selectFrom('email_codes').select('id').where('user_id', '=', user.id).execute();
    expect(codes).toHaveLength(1);
  });

  it('answers 401 to a guest', async () => {
    for (const csrf of [false, true]) {
      const res = await call(t.app, { method: 'POST', url: '/api/new/confirm_email/resend', csrf });
      expect(res.statusCode).toBe(401);
      expect(res.data.code).toBe('UNAUTHENTICATED');
    }
  });

  it('refuses a confirmed user and mails nothing', async () => {
    const user = await newUser(t.db, { confirmed: true });
    const res = await resend(user);
    expect(res.statusCode).toBe(422);
    expect(res.data).toMatchObject({ code: 'EMAIL_ALREADY_CONFIRMED', text: 'Почта уже подтверждена' });
    const codes = await t.db.selectFrom('email_codes').select('id').where('user_id', '=', user.id).execute();
    expect(codes).toHaveLength(0);
  });

  it('mails only the signed-in user, whatever the body names', async () => {
    const user = await newUser(t.db, { confirmed: false });
    const victim = await newUser(t.db, { confirmed: false });
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/new/confirm_email/resend',
      payload: { email: victim.email, user_id: victim.id },
      token: user.token,
      remoteAddress: nextIp(),
    });
    expect(res.statusCode).toBe(200);
    await mailedCode(user.email, 1);
    const victimCodes = await t.db.selectFrom('email_codes').select('id').where('user_id', '=', victim.id).execute();
    expect(victimCodes).toHaveLength(0);
    expect(codeMails(victim.email)).toHaveLength(0);
  });
});

describe('GET /api/new/user: when a new code may be requested', () => {
  const resendIn = async (user: Pick<TestUser, 'token'>) => ((await call(t.app, { url: '/api/new/user', token: user.token })).data.json as { resend_in: number }).resend_in;

  it('right after registration the resend waits its minute, as the server would refuse it', async () => {
    const email = `fresh-${String(Date.now())}@example.ru`;
    const reg = await call(t.app, { method: 'POST', url: '/api/new/register', payload: { email, password: 'correct-horse-battery', password_confirmation: 'correct-horse-battery', consent: true }, csrf: true, remoteAddress: nextIp() });
    expect(reg.statusCode).toBe(200);
    const token = (reg.data.json as { token: string; user: { resend_in: number } }).token;
    expect((reg.data.json as { user: { resend_in: number } }).user.resend_in).toBeGreaterThan(55);
    const wait = await resendIn({ token });
    expect(wait).toBeGreaterThan(55);
    expect(wait).toBeLessThanOrEqual(60);
    expect((await resend({ token })).statusCode).toBe(429);
  });

  it('is 0 once the minute has passed (and the resend then works), and 0 for a confirmed email', async () => {
    const user = await newUser(t.db, { confirmed: false });
    expect(await resendIn(user)).toBe(0);
    expect((await resend(user)).statusCode).toBe(200);
    expect(await resendIn(user)).toBeGreaterThan(55);
    await ageCodes(user.id);
    expect(await resendIn(user)).toBe(0);
    const confirmed = await newUser(t.db);
    expect(await resendIn(confirmed)).toBe(0);
  });
});
