import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/config.ts';
import { createAdmin } from '../../src/features/accounts/admin-create.ts';
import { call, createTestApp, newUser, type TestApp } from '../support/index.ts';

/*
 * `npm run admin:create -- <email>` never makes an existing account staff on its word alone: an
 * account whose owner never proved the address (anyone could have registered it first) is refused;
 * a confirmed one loses every session and must set a new password before its first admin call.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
});
afterAll(() => t.close());

const login = (email: string, password: string) => call(t.app, { method: 'POST', url: '/api/new/login', payload: { email, password }, csrf: true });
const tokenOf = (res: Awaited<ReturnType<typeof login>>) => (res.data.json as { token: string }).token;
const row = async (email: string) => t.db.selectFrom('users').select(['role', 'setup_steps', 'password_temporary']).where('email', '=', email).executeTakeFirstOrThrow();
const liveSessions = async (email: string) =>
  (await t.db.selectFrom('sessions').innerJoin('users', 'users.id', 'sessions.user_id').select('sessions.id').where('users.email', '=', email).where('sessions.revoked_at', 'is', null).execute()).length;

describe('admin:create on an existing account', () => {
  it('refuses an account whose email was never confirmed: the squatter’s token and password stay a user’s', async () => {
    const email = `staff-${String(Date.now())}@example.ru`;
    const registered = await call(t.app, { method: 'POST', url: '/api/new/register', payload: { email, password: 'squatter-pass-1', password_confirmation: 'squatter-pass-1', consent: true }, csrf: true });
    expect(registered.statusCode).toBe(200);
    const squatter = tokenOf(registered);

    await expect(createAdmin(t.db, email)).rejects.toThrow(/не подтвердил почту: назначить его администратором нельзя/);
    expect(await row(email)).toEqual({ role: 'user', setup_steps: [], password_temporary: false });
    const admin = await call(t.app, { url: '/api/admin/users', token: squatter });
    expect({ status: admin.statusCode, code: admin.data.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
    const signedIn = await login(email, 'squatter-pass-1');
    expect(signedIn.data.json).toMatchObject({ user: { role: 'user' } });
    expect((await call(t.app, { url: '/api/admin/users', token: tokenOf(signedIn) })).statusCode).toBe(403);
  });

  it('refuses a blocked account and changes nothing', async () => {
    const user = await newUser(t.db, { blocked: true });
    await expect(createAdmin(t.db, user.email)).rejects.toThrow(/заблокирован/);
    expect((await row(user.email)).role).toBe('user');
  });

  it('a confirmed account: every session ends, and a new password comes before the first admin call', async () => {
    const user = await newUser(t.db);
    const other = tokenOf(await login(user.email, user.password));
    expect(await liveSessions(user.email)).toBe(2);

    expect(await createAdmin(t.db, user.email)).toEqual({ outcome: 'promoted', email: user.email, sessionsEnded: 2 });
    expect(await row(user.email)).toEqual({ role: 'admin', setup_steps: ['password', 'second_factor'], password_temporary: false });
    for (const token of [user.token, other]) expect((await call(t.app, { url: '/api/admin/users', token })).statusCode).toBe(401);
    expect((await call(t.app, { url: '/api/admin/users', cookies: { session: user.cookie } })).statusCode).toBe(401);

    // The old password still signs in, but only to set a new one.
    const again = await login(user.email, user.password);
    expect(again.statusCode).toBe(200);
    const token = tokenOf(again);
    for (const url of ['/api/admin/users', '/api/admin/audit', '/api/new/user']) {
      const res = await call(t.app, { url, token });
      expect({ url, status: res.statusCode, code: res.data.code, text: res.data.text }).toEqual({
        url,
        status: 403,
        code: 'PASSWORD_CHANGE_REQUIRED',
        text: 'Сначала задайте новый пароль: вас назначили администратором',
      });
    }
    const cookie = again.cookies.find((c) => c.name === 'session')?.value ?? '';
    const panel = await call(t.app, { url: '/admin/users', cookies: { session: cookie } });
    expect({ status: panel.statusCode, location: panel.headers.location }).toEqual({ status: 302, location: '/password/change?next=%2Fadmin%2Fusers' });
    const form = await call(t.app, { url: '/password/change?next=%2Fadmin', cookies: { session: cookie } });
    expect(form.body).toContain('&quot;temporary&quot;:false,&quot;staff&quot;:true');

    const same = await call(t.app, { method: 'POST', url: '/api/new/password/change', token, payload: { current_password: user.password, password: user.password, password_confirmation: user.password } });
    expect(same.statusCode).toBe(400);
    const changed = await call(t.app, { method: 'POST', url: '/api/new/password/change', token, payload: { current_password: user.password, password: 'staff-own-pass-2', password_confirmation: 'staff-own-pass-2' } });
    expect(changed.statusCode).toBe(200);
    // Then the second factor: the panel still waits for it.
    expect(await row(user.email)).toEqual({ role: 'admin', setup_steps: ['second_factor'], password_temporary: false });
    expect((await call(t.app, { url: '/api/admin/users', token })).data.code).toBe('SECOND_FACTOR_SETUP_REQUIRED');
    expect((await login(user.email, user.password)).statusCode).toBe(422);
  });

  it('a second run on an admin changes nothing and ends no session', async () => {
    const admin = await newUser(t.db, { role: 'admin' });
    expect(await createAdmin(t.db, admin.email)).toEqual({ outcome: 'already', email: admin.email });
    expect((await call(t.app, { url: '/api/admin/users', token: admin.token })).statusCode).toBe(200);
  });

  it('the CLI says what it did and what comes next, and fails with the reason on a refusal', async () => {
    const run = promisify(execFile);
    const env = { PATH: process.env.PATH ?? '', DATABASE_URL: t.config.databaseUrl ?? '', DATA_DIR: t.config.dataDir, APP_SECRET: 'test-secret-test-secret-test-secret-0123', LOG_LEVEL: 'silent' };
    // The CLI `npm run admin:create` runs, built (the tests' global setup builds server/dist): a plain
    // Node start, seconds sooner than through tsx.
    const script = path.join(REPO_ROOT, 'server/dist/cli/admin-create.js');
    const confirmed = await newUser(t.db);
    const unconfirmed = await newUser(t.db, { confirmed: false });
    const ok = await run(process.execPath, [script, confirmed.email], { env, cwd: REPO_ROOT });
    expect(ok.stdout.trim()).toBe(
      `Пользователь ${confirmed.email} назначен администратором. Все его сеансы завершены (1); войдя снова, он сначала задаст новый пароль, затем подключит второй фактор (код из приложения-аутентификатора), если его ещё нет, — до этого ни админка, ни остальное не откроются.`,
    );
    const refused = await run(process.execPath, [script, unconfirmed.email], { env, cwd: REPO_ROOT }).catch((err: unknown) => err as { code: number; stderr: string });
    expect(refused).toMatchObject({ code: 1 });
    expect((refused as { stderr: string }).stderr).toContain(`Пользователь ${unconfirmed.email} не подтвердил почту`);
    expect((await row(unconfirmed.email)).role).toBe('user');
  }, 60_000);

  it('admin:reset-2fa: says what it did, ends the sessions, staff enrol again; an unknown email fails with the reason', async () => {
    const run = promisify(execFile);
    const env = { PATH: process.env.PATH ?? '', DATABASE_URL: t.config.databaseUrl ?? '', DATA_DIR: t.config.dataDir, APP_SECRET: 'test-secret-test-secret-test-secret-0123', LOG_LEVEL: 'silent' };
    const script = path.join(REPO_ROOT, 'server/src/cli/admin-reset-2fa.ts');
    const admin = await newUser(t.db, { role: 'admin' });
    await t.db.insertInto('second_factors').values({ user_id: admin.id, secret: 'v1.sealed', enrolled_at: new Date() }).execute();
    await t.db.insertInto('recovery_codes').values({ user_id: admin.id, code_hash: 'h' }).execute();
    const ok = await run(process.execPath, ['--import', 'tsx', script, admin.email], { env, cwd: REPO_ROOT });
    expect(ok.stdout.trim()).toBe(
      `Второй фактор сброшен у ${admin.email}. Все его сеансы завершены (1); при следующем входе он заново подключит приложение-аутентификатор — до этого админка не откроется.`,
    );
    expect(await row(admin.email)).toEqual({ role: 'admin', setup_steps: ['second_factor'], password_temporary: false });
    expect(await t.db.selectFrom('second_factors').select('user_id').where('user_id', '=', admin.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('recovery_codes').select('id').where('user_id', '=', admin.id).execute()).toEqual([]);
    expect((await call(t.app, { url: '/api/admin/users', token: admin.token })).statusCode).toBe(401);
    const audit = await t.db.selectFrom('audit_log').select(['action', 'actor_id']).where('entity_id', '=', String(admin.id)).execute();
    expect(audit).toEqual([{ action: 'user.second_factor_reset', actor_id: null }]);

    const unknown = await run(process.execPath, ['--import', 'tsx', script, 'nobody-2fa@example.ru'], { env, cwd: REPO_ROOT }).catch((err: unknown) => err as { code: number; stderr: string });
    expect(unknown).toMatchObject({ code: 1 });
    expect((unknown as { stderr: string }).stderr.trim()).toBe('Пользователь nobody-2fa@example.ru не найден');
    const usage = await run(process.execPath, ['--import', 'tsx', script], { env, cwd: REPO_ROOT }).catch((err: unknown) => err as { code: number; stderr: string });
    expect(usage).toMatchObject({ code: 2 });
    expect((usage as { stderr: string }).stderr.trim()).toBe('Usage: npm run admin:reset-2fa -- <email>');
  }, 60_000);
});
