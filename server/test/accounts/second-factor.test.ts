import type { Kysely } from 'kysely';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as m0080 from '../../src/db/migrations/0080_staff_second_factor.ts';
import { createAdmin } from '../../src/features/accounts/admin-create.ts';
import { SECOND_FACTOR_LIMITS, resetSecondFactor } from '../../src/features/accounts/second-factor.service.ts';
import { call, createTestApp, newAdmin, newUser, nextWindowStart, testClock, type TestApp, type TestUser } from '../support/index.ts';

/*
 * Staff's second factor: enrolment is the setup step after the password (QR code, secret, first
 * code, ten recovery codes shown once), then every sign-in asks for the app's code (one step either
 * side, never the same step twice) or a recovery code (once each); failures are limited per
 * account and per address; enrolment, recovery codes and resets are in the audit log.
 */

const clock = testClock(nextWindowStart(900));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ workers: false, clock });
});
afterAll(() => t.close());

const STEP_MS = 30_000;
const totp = (secret: string, atMs = clock()) => generateSync({ secret, epoch: Math.floor(atMs / 1000) });

/** An admin whose pending step is the enrolment (the password step done), signed in. */
async function staffToEnrol(): Promise<TestUser> {
  const admin = await newAdmin(t.db);
  await t.db.updateTable('users').set({ setup_steps: ['second_factor'] }).where('id', '=', admin.id).execute();
  return admin;
}

const setup = (token: string) => call(t.app, { method: 'POST', url: '/api/new/second-factor/setup', token });
const enable = (token: string, code: unknown) => call(t.app, { method: 'POST', url: '/api/new/second-factor/enable', token, payload: { code } });
const login = (user: Pick<TestUser, 'email' | 'password'>, code?: string, remoteAddress?: string) =>
  call(t.app, { method: 'POST', url: '/api/new/login', payload: { email: user.email, password: user.password, ...(code === undefined ? {} : { code }) }, csrf: true, ...(remoteAddress ? { remoteAddress } : {}) });

/** Enrols `admin` through the API: its secret and recovery codes. */
async function enrol(admin: TestUser): Promise<{ secret: string; recovery: string[] }> {
  const started = await setup(admin.token);
  expect(started.statusCode).toBe(200);
  const { secret } = started.data.json as { secret: string };
  const done = await enable(admin.token, totp(secret));
  expect(done.statusCode).toBe(200);
  clock.advance(STEP_MS);
  return { secret, recovery: (done.data.json as { recovery_codes: string[] }).recovery_codes };
}

const auditOf = (userId: number) => t.db.selectFrom('audit_log').select(['action', 'actor_id', 'before', 'after']).where('entity', '=', 'user').where('entity_id', '=', String(userId)).orderBy('id').execute();

describe('enrolment', () => {
  it('new staff: the temporary password first, then the second factor, then the panel', async () => {
    const created = await createAdmin(t.db, `cli-2fa-${String(Date.now())}@example.ru`);
    if (created.outcome !== 'created') throw new Error('not created');
    const signedIn = await login({ email: created.email, password: created.password });
    const token = (signedIn.data.json as { token: string }).token;
    expect((await call(t.app, { url: '/api/admin/users', token })).data.code).toBe('PASSWORD_CHANGE_REQUIRED');
    // The enrolment waits for the password.
    expect((await setup(token)).data.code).toBe('PASSWORD_CHANGE_REQUIRED');
    const changed = await call(t.app, { method: 'POST', url: '/api/new/password/change', token, payload: { current_password: created.password, password: 'own-password-1', password_confirmation: 'own-password-1' } });
    expect(changed.statusCode).toBe(200);
    const refused = await call(t.app, { url: '/api/admin/users', token });
    expect({ status: refused.statusCode, code: refused.data.code, text: refused.data.text }).toEqual({ status: 403, code: 'SECOND_FACTOR_SETUP_REQUIRED', text: 'Сначала подключите вход с кодом из приложения: без него админка не откроется' });
    expect((await call(t.app, { url: '/api/new/user', token })).data.code).toBe('SECOND_FACTOR_SETUP_REQUIRED');
    // Every page of the account leads to the enrolment, then back.
    const cookie = signedIn.cookies.find((c) => c.name === 'session')?.value ?? '';
    const page = await call(t.app, { url: '/admin/users', cookies: { session: cookie } });
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe('/admin/second-factor?next=%2Fadmin%2Fusers');
    expect((await call(t.app, { url: '/admin/second-factor', cookies: { session: cookie } })).statusCode).toBe(200);

    const started = (await setup(token)).data.json as { secret: string; otpauth_url: string; qr: { size: number; path: string } };
    expect(started.otpauth_url).toBe(`otpauth://totp/%D0%9D%D0%B5%D0%B9%D1%80%D0%BE%D1%81%D1%82%D1%83%D0%B4%D0%B8%D1%8F:${encodeURIComponent(created.email)}?secret=${started.secret}&period=30&issuer=%D0%9D%D0%B5%D0%B9%D1%80%D0%BE%D1%81%D1%82%D1%83%D0%B4%D0%B8%D1%8F`.replace('&period=30', started.otpauth_url.includes('period=') ? '&period=30' : ''));
    expect(started.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.qr.size).toBeGreaterThan(20);
    expect(started.qr.path).toMatch(/^(M\d+ \d+h1v1h-1z)+$/);
    // Asked again before it is confirmed, the same secret (a reloaded page shows what the app scanned).
    expect(((await setup(token)).data.json as { secret: string }).secret).toBe(started.secret);
    // The secret is kept encrypted, not as text.
    const stored = await t.db.selectFrom('second_factors').select('secret').where('user_id', '=', (signedIn.data.json as { user: { id: number } }).user.id).executeTakeFirstOrThrow();
    expect(stored.secret).not.toContain(started.secret);

    const done = await enable(token, totp(started.secret));
    expect(done.statusCode).toBe(200);
    const codes = (done.data.json as { recovery_codes: string[] }).recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const kept = await t.db.selectFrom('recovery_codes').select('code_hash').where('user_id', '=', (signedIn.data.json as { user: { id: number } }).user.id).execute();
    expect(kept).toHaveLength(10);
    expect(kept.map((k) => k.code_hash)).not.toContain(codes[0]);
    expect((await call(t.app, { url: '/api/admin/users', token })).statusCode).toBe(200);
    // Done once: again is refused.
    expect((await setup(token)).data.code).toBe('SECOND_FACTOR_ALREADY');
    clock.advance(STEP_MS);
  });

  it('a first code without a started enrolment (a page older than a reset) is told to start again', async () => {
    const admin = await staffToEnrol();
    const res = await enable(admin.token, '123456');
    expect({ status: res.statusCode, text: res.data.text }).toEqual({ status: 400, text: 'Откройте страницу подключения заново: QR-код устарел' });
  });

  it('a wrong, malformed or missing first code is refused in Russian and enrols nothing', async () => {
    const admin = await staffToEnrol();
    const { secret } = (await setup(admin.token)).data.json as { secret: string };
    const wrong = await enable(admin.token, totp(secret, clock() + 10 * STEP_MS));
    expect({ status: wrong.statusCode, code: wrong.data.code, text: wrong.data.text }).toEqual({ status: 422, code: 'SECOND_FACTOR_INVALID', text: { code: ['Неверный код'] } });
    for (const [code, message] of [
      ['12345', 'Код состоит из 6 цифр'],
      ['12345a', 'Код состоит из 6 цифр'],
      ['', 'Введите код из приложения'],
      [undefined, 'Введите код из приложения'],
      [123456, 'Введите код из приложения'],
    ] as const) {
      const res = await enable(admin.token, code);
      expect({ code, status: res.statusCode, text: res.data.text }).toEqual({ code, status: 400, text: { code: [message] } });
    }
    expect((await call(t.app, { url: '/api/admin/users', token: admin.token })).data.code).toBe('SECOND_FACTOR_SETUP_REQUIRED');
    expect(await auditOf(admin.id)).toEqual([]);
  });

  it('a guest gets 401; a user, and staff already enrolled, cannot enrol', async () => {
    expect((await setup('')).statusCode).toBe(401);
    expect((await call(t.app, { method: 'POST', url: '/api/new/second-factor/enable', payload: { code: '123456' }, csrf: true })).statusCode).toBe(401);
    const user = await newUser(t.db);
    const res = await setup(user.token);
    expect({ status: res.statusCode, code: res.data.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
    expect((await enable(user.token, '123456')).data.code).toBe('FORBIDDEN');
    expect(await t.db.selectFrom('second_factors').select('user_id').where('user_id', '=', user.id).executeTakeFirst()).toBeUndefined();
    // The enrolment's page is staff's: a user is refused, a guest sent to sign in.
    expect((await call(t.app, { url: '/admin/second-factor', cookies: { session: user.cookie } })).statusCode).toBe(403);
    expect((await call(t.app, { url: '/admin/second-factor' })).headers.location).toBe('/login?next=%2Fadmin%2Fsecond-factor');
  });

  it('ends the other sessions, keeps this one, and is in the audit log', async () => {
    const admin = await staffToEnrol();
    const other = await login(admin);
    const otherToken = (other.data.json as { token: string }).token;
    await enrol(admin);
    expect((await call(t.app, { url: '/api/new/user', token: otherToken })).statusCode).toBe(401);
    expect((await call(t.app, { url: '/api/new/user', token: admin.token })).statusCode).toBe(200);
    expect(await auditOf(admin.id)).toEqual([{ action: 'user.second_factor_enrol', actor_id: admin.id, before: { second_factor: false }, after: { second_factor: true } }]);
  });

  it('the same first code sent twice at once enrols once', async () => {
    const admin = await staffToEnrol();
    const { secret } = (await setup(admin.token)).data.json as { secret: string };
    const code = totp(secret);
    const results = await Promise.all([enable(admin.token, code), enable(admin.token, code)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.statusCode === 409)?.data.code).toBe('SECOND_FACTOR_ALREADY');
    expect((await auditOf(admin.id)).length).toBe(1);
    clock.advance(STEP_MS);
  });
});

describe('sign-in with the second factor', () => {
  it('asks for the code after the password, before any session exists', async () => {
    const admin = await staffToEnrol();
    const { secret } = await enrol(admin);
    const sessionsBefore = await t.db.selectFrom('sessions').select('id').where('user_id', '=', admin.id).execute();
    const asked = await login(admin);
    expect({ status: asked.statusCode, code: asked.data.code, text: asked.data.text }).toEqual({ status: 401, code: 'SECOND_FACTOR_REQUIRED', text: 'Введите код из приложения-аутентификатора' });
    expect(asked.cookies.find((c) => c.name === 'session')).toBeUndefined();
    expect(await t.db.selectFrom('sessions').select('id').where('user_id', '=', admin.id).execute()).toHaveLength(sessionsBefore.length);
    // A wrong password is still a wrong password, code or not.
    expect((await login({ email: admin.email, password: 'wrong-password' }, totp(secret))).data.code).toBe('INVALID_CREDENTIALS');
    const ok = await login(admin, totp(secret));
    expect(ok.statusCode).toBe(200);
    expect((await call(t.app, { url: '/api/admin/users', token: (ok.data.json as { token: string }).token })).statusCode).toBe(200);
  });

  it('takes the code of the step before and after now, not two steps away', async () => {
    const admin = await staffToEnrol();
    const { secret } = await enrol(admin);
    // Past the enrolment's step, which is taken.
    clock.advance(2 * STEP_MS);
    expect((await login(admin, totp(secret, clock() - 2 * STEP_MS))).data.code).toBe('SECOND_FACTOR_INVALID');
    expect((await login(admin, totp(secret, clock() + 2 * STEP_MS))).data.code).toBe('SECOND_FACTOR_INVALID');
    expect((await login(admin, totp(secret, clock() - STEP_MS))).statusCode).toBe(200);
    expect((await login(admin, totp(secret, clock()))).statusCode).toBe(200);
    expect((await login(admin, totp(secret, clock() + STEP_MS))).statusCode).toBe(200);
  });

  it('never takes a code twice, nor an earlier step after a later one', async () => {
    const admin = await staffToEnrol();
    const { secret } = await enrol(admin);
    const code = totp(secret);
    expect((await login(admin, code)).statusCode).toBe(200);
    const again = await login(admin, code);
    expect({ status: again.statusCode, code: again.data.code, text: again.data.text }).toEqual({ status: 422, code: 'SECOND_FACTOR_REUSED', text: { code: ['Этот код уже использован. Дождитесь следующего кода в приложении'] } });
    expect((await login(admin, totp(secret, clock() - STEP_MS))).data.code).toBe('SECOND_FACTOR_REUSED');
    // Nor after the clock moves on: a step once taken stays taken.
    clock.advance(STEP_MS);
    expect((await login(admin, code)).data.code).toBe('SECOND_FACTOR_REUSED');
    expect((await login(admin, totp(secret))).statusCode).toBe(200);
  });

  it('the same code sent twice at once signs in once', async () => {
    const admin = await staffToEnrol();
    const { secret } = await enrol(admin);
    const code = totp(secret);
    const results = await Promise.all(Array.from({ length: 4 }, () => login(admin, code)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 422, 422, 422]);
    expect(results.filter((r) => r.statusCode === 422).map((r) => r.data.code)).toEqual(['SECOND_FACTOR_REUSED', 'SECOND_FACTOR_REUSED', 'SECOND_FACTOR_REUSED']);
  });

  it('a malformed code is refused by field, in Russian', async () => {
    const admin = await staffToEnrol();
    await enrol(admin);
    for (const [code, message] of [
      ['', 'Введите код'],
      ['12 34;56', 'Введите 6 цифр из приложения или резервный код'],
      ['x'.repeat(41), 'Введите 6 цифр из приложения или резервный код'],
    ] as const) {
      const res = await login(admin, code);
      expect({ code, status: res.statusCode, text: res.data.text }).toEqual({ code, status: 400, text: { code: [message] } });
    }
    // Well formed but neither a 6-digit code nor a recovery code: wrong.
    expect((await login(admin, '1234567')).data.code).toBe('SECOND_FACTOR_INVALID');
  });

  it('a recovery code signs in once, whatever its case and spacing, and is in the audit log', async () => {
    const admin = await staffToEnrol();
    const { recovery } = await enrol(admin);
    const [first = '', second = ''] = recovery;
    expect((await login(admin, first)).statusCode).toBe(200);
    expect((await login(admin, first)).data.code).toBe('SECOND_FACTOR_INVALID');
    expect((await login(admin, ` ${second.toUpperCase().replace('-', ' ')} `)).statusCode).toBe(200);
    const recoveryUses = (await auditOf(admin.id)).filter((a) => a.action === 'user.recovery_code');
    expect(recoveryUses).toEqual([
      { action: 'user.recovery_code', actor_id: admin.id, before: null, after: null },
      { action: 'user.recovery_code', actor_id: admin.id, before: null, after: null },
    ]);
    // Two at once: one signs in.
    const third = recovery[2] ?? '';
    const both = await Promise.all([login(admin, third), login(admin, third)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 422]);
  });

  it('limits wrong codes per account (from any address) and per address (across accounts), in Russian', async () => {
    clock.set(nextWindowStart(900) + 3_600_000);
    const admin = await staffToEnrol();
    const { secret } = await enrol(admin);
    const wrong = () => totp(secret, clock() + 10 * STEP_MS);
    for (let i = 0; i < SECOND_FACTOR_LIMITS.perUser.max; i++) expect((await login(admin, wrong(), `10.9.0.${String(i)}`)).data.code).toBe('SECOND_FACTOR_INVALID');
    const limited = await login(admin, totp(secret), '10.9.1.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.data.text).toMatch(/^Слишком много неверных кодов\. Попробуйте через \d+ минут/);
    // The window over, the right code works again.
    clock.advance(SECOND_FACTOR_LIMITS.perUser.windowSeconds * 1000);
    expect((await login(admin, totp(secret), '10.9.1.1')).statusCode).toBe(200);

    // One address trying codes of many accounts.
    const ip = '10.9.2.2';
    let tried = 0;
    while (tried < SECOND_FACTOR_LIMITS.perIp.max) {
      const other = await staffToEnrol();
      const theirs = await enrol(other);
      for (let i = 0; i < 5 && tried < SECOND_FACTOR_LIMITS.perIp.max; i++, tried++) expect((await login(other, totp(theirs.secret, clock() + 10 * STEP_MS), ip)).data.code).toBe('SECOND_FACTOR_INVALID');
    }
    const fresh = await staffToEnrol();
    const freshFactor = await enrol(fresh);
    expect((await login(fresh, totp(freshFactor.secret), ip)).statusCode).toBe(429);
    expect((await login(fresh, totp(freshFactor.secret), '10.9.2.3')).statusCode).toBe(200);
  });

  it('an account without a second factor signs in with its password alone', async () => {
    const user = await newUser(t.db);
    expect((await login(user)).statusCode).toBe(200);
  });
});

describe('reset (a lost phone) and role changes', () => {
  it('admin:reset-2fa removes the factor, ends every session, asks to enrol again, and is in the audit log', async () => {
    const admin = await staffToEnrol();
    const { secret } = await enrol(admin);
    const result = await resetSecondFactor(t.db, admin.email.toUpperCase());
    expect(result).toEqual({ email: admin.email, hadFactor: true, sessionsEnded: 1, staff: true });
    expect((await call(t.app, { url: '/api/new/user', token: admin.token })).statusCode).toBe(401);
    const signedIn = await login(admin);
    expect(signedIn.statusCode).toBe(200);
    const token = (signedIn.data.json as { token: string }).token;
    expect((await call(t.app, { url: '/api/admin/users', token })).data.code).toBe('SECOND_FACTOR_SETUP_REQUIRED');
    const again = (await setup(token)).data.json as { secret: string };
    expect(again.secret).not.toBe(secret);
    expect((await auditOf(admin.id)).map((a) => [a.action, a.actor_id])).toEqual([
      ['user.second_factor_enrol', admin.id],
      ['user.second_factor_reset', null],
    ]);
    await expect(resetSecondFactor(t.db, 'nobody@example.ru')).rejects.toThrow('Пользователь nobody@example.ru не найден');
    await expect(resetSecondFactor(t.db, 'not-an-email')).rejects.toThrow('Некорректный email: not-an-email');
  });

  it('a change of role ends the sessions; new staff enrol first; a demoted account is not asked to', async () => {
    const actor = await newAdmin(t.db);
    const user = await newUser(t.db);
    const patch = (role: 'user' | 'admin') => call(t.app, { method: 'PATCH', url: `/api/admin/users/${String(user.id)}`, token: actor.token, payload: { role } });
    expect((await patch('admin')).statusCode).toBe(200);
    expect((await call(t.app, { url: '/api/new/user', token: user.token })).statusCode).toBe(401);
    const signedIn = await login(user);
    const token = (signedIn.data.json as { token: string }).token;
    expect((await call(t.app, { url: '/api/admin/users', token })).data.code).toBe('SECOND_FACTOR_SETUP_REQUIRED');
    expect((await patch('user')).statusCode).toBe(200);
    expect((await call(t.app, { url: '/api/new/user', token })).statusCode).toBe(401);
    const back = await login(user);
    expect((await call(t.app, { url: '/api/new/user', token: (back.data.json as { token: string }).token })).statusCode).toBe(200);
  });

  it('a staff session idle for 12 hours ends; a user’s does not', async () => {
    const admin = await newAdmin(t.db);
    const user = await newUser(t.db);
    const longAgo = new Date(Date.now() - 12 * 3_600_000 - 60_000);
    await t.db.updateTable('sessions').set({ last_seen_at: longAgo }).where('user_id', 'in', [admin.id, user.id]).execute();
    t.ctx.viewers.clear();
    expect((await call(t.app, { url: '/api/admin/users', token: admin.token })).statusCode).toBe(401);
    expect((await call(t.app, { url: '/api/new/user', token: user.token })).statusCode).toBe(200);
    const revoked = await t.db.selectFrom('sessions').select('revoked_at').where('user_id', '=', admin.id).executeTakeFirstOrThrow();
    expect(revoked.revoked_at).not.toBeNull();
  });
});

describe('the migration', () => {
  // Last in the file: it takes the tables down and up again.
  it('gives every admin there was the enrolment step, after a pending password; users none', async () => {
    const admin = await newAdmin(t.db);
    const fresh = await newAdmin(t.db);
    const user = await newUser(t.db);
    const raw = t.db as unknown as Kysely<unknown>;
    await m0080.down(raw);
    await t.db.updateTable('users').set({ setup_steps: ['password'] }).where('id', '=', fresh.id).execute();
    await m0080.up(raw);
    const steps = async (id: number) => (await t.db.selectFrom('users').select('setup_steps').where('id', '=', id).executeTakeFirstOrThrow()).setup_steps;
    expect(await steps(admin.id)).toEqual(['second_factor']);
    expect(await steps(fresh.id)).toEqual(['password', 'second_factor']);
    expect(await steps(user.id)).toEqual([]);
  });
});
