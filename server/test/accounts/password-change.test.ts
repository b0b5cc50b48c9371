import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../../src/features/accounts/admin-create.ts';
import { call, createTestApp, newUser, type TestApp } from '../support/index.ts';

/*
 * A temporary password (the one `npm run admin:create` prints) is changed before anything else:
 * it signs in, but every call other than the change and sign-out is refused in Russian and every
 * page leads to the change form; the change needs the current password and a different new one,
 * ends the account's other sessions and lets everything else work.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
});
afterAll(() => t.close());

let counter = 0;
/** A new admin as the CLI makes one, signed in twice (two devices): its email, password and both sessions. */
async function cliAdmin() {
  counter += 1;
  const created = await createAdmin(t.db, `first-admin-${String(counter)}-${String(Date.now())}@example.ru`);
  const { email } = created;
  const password = created.outcome === 'created' ? created.password : '';
  const signIn = async () => {
    const res = await call(t.app, { method: 'POST', url: '/api/new/login', payload: { email, password }, csrf: true });
    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.find((c) => c.name === 'session')?.value ?? '';
    return { token: (res.data.json as { token: string }).token, cookie };
  };
  return { email, password, first: await signIn(), second: await signIn() };
}

const change = (token: string, payload: Record<string, unknown>) => call(t.app, { method: 'POST', url: '/api/new/password/change', token, payload });
const page = (url: string, cookie: string) => call(t.app, { url, cookies: { session: cookie } });
const temporary = async (email: string) => (await t.db.selectFrom('users').select('password_temporary').where('email', '=', email).executeTakeFirstOrThrow()).password_temporary;

describe('a temporary password', () => {
  it('the CLI marks it temporary; promoting an existing user does not (its own password is to be replaced)', async () => {
    const { email } = await cliAdmin();
    expect(await temporary(email)).toBe(true);
    const user = await newUser(t.db);
    await createAdmin(t.db, user.email);
    expect(await temporary(user.email)).toBe(false);
  });

  it('signs in, but every call other than the change and sign-out is refused in Russian', async () => {
    const { first } = await cliAdmin();
    for (const url of ['/api/new/user', '/api/admin/users', '/api/new/chat?page=1', '/api/admin/audit']) {
      const res = await call(t.app, { url, token: first.token });
      expect({ url, status: res.statusCode, code: res.data.code, text: res.data.text }).toEqual({ url, status: 403, code: 'PASSWORD_CHANGE_REQUIRED', text: 'Сначала смените временный пароль на свой' });
    }
    const adjust = await call(t.app, { method: 'PATCH', url: '/api/admin/users/1', token: first.token, payload: { blocked: true } });
    expect(adjust.data.code).toBe('PASSWORD_CHANGE_REQUIRED');
    expect((await call(t.app, { url: '/api/new/logout', token: first.token })).statusCode).toBe(200);
  });

  it('every page of the account leads to the change form, then back where it was going', async () => {
    const { email, first } = await cliAdmin();
    for (const [url, next] of [
      ['/admin', '%2Fadmin'],
      ['/admin/users/5?q=a', '%2Fadmin%2Fusers%2F5%3Fq%3Da'],
      ['/dashboard', '%2Fdashboard'],
      ['/chat', '%2Fchat'],
    ] as const) {
      const res = await page(url, first.cookie);
      expect({ url, status: res.statusCode, location: res.headers.location }).toEqual({ url, status: 302, location: `/password/change?next=${next}` });
    }
    const form = await page('/password/change?next=%2Fadmin', first.cookie);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('data-widget="password-reset-form"');
    expect(form.body).toContain(`data-props="{&quot;mode&quot;:&quot;change&quot;,&quot;email&quot;:&quot;${email}&quot;,&quot;temporary&quot;:true,&quot;staff&quot;:false,&quot;next&quot;:&quot;/admin&quot;}"`);
    // Only a path of this site is a place to go back to.
    expect((await page('/password/change?next=%2F%2Fevil.example', first.cookie)).body).toContain('&quot;next&quot;:&quot;/dashboard&quot;');
  });

  it('is changed with the current password and a different new one; bad input changes nothing', async () => {
    const { email, password, first } = await cliAdmin();
    const cases: [Record<string, unknown>, number, Record<string, string[]>][] = [
      [{ current_password: 'not-it-at-all', password: 'my-own-password', password_confirmation: 'my-own-password' }, 422, { current_password: ['Неверный текущий пароль'] }],
      [{ current_password: password, password: password, password_confirmation: password }, 400, { password: ['Новый пароль должен отличаться от текущего'] }],
      [{ current_password: password, password: 'my-own-password', password_confirmation: 'my-own-passwort' }, 400, { password_confirmation: ['Пароли не совпадают'] }],
      [{ current_password: password, password: 'short', password_confirmation: 'short' }, 400, { password: ['Пароль должен быть не короче 8 символов'] }],
      [{}, 400, { current_password: ['Введите текущий пароль'], password: ['Введите пароль'], password_confirmation: ['Повторите пароль'] }],
    ];
    for (const [payload, status, text] of cases) {
      const res = await change(first.token, payload);
      expect({ status: res.statusCode, text: res.data.text }).toEqual({ status, text });
    }
    expect(await temporary(email)).toBe(true);
  });

  it('once changed: the flag is gone, the second factor comes next, other sessions end, only the new password signs in', async () => {
    const { email, password, first, second } = await cliAdmin();
    const res = await change(first.token, { current_password: password, password: 'my-own-password', password_confirmation: 'my-own-password' });
    expect(res.statusCode).toBe(200);
    expect(await temporary(email)).toBe(false);
    // Staff enrol the second factor next: the account's calls wait for it, its pages lead there.
    expect((await call(t.app, { url: '/api/admin/users', token: first.token })).data.code).toBe('SECOND_FACTOR_SETUP_REQUIRED');
    const panel = await page('/admin', first.cookie);
    expect({ status: panel.statusCode, location: panel.headers.location }).toEqual({ status: 302, location: '/admin/second-factor?next=%2Fadmin' });
    expect((await page('/admin/second-factor?next=%2Fadmin', first.cookie)).statusCode).toBe(200);
    expect((await call(t.app, { url: '/api/new/user', token: second.token })).statusCode).toBe(401);
    const login = (p: string) => call(t.app, { method: 'POST', url: '/api/new/login', payload: { email, password: p }, csrf: true });
    expect((await login(password)).statusCode).toBe(422);
    expect((await login('my-own-password')).statusCode).toBe(200);
  });

  it('a cookie session must echo the CSRF token; wrong guesses are limited per account', async () => {
    const { password, first } = await cliAdmin();
    const body = { current_password: 'wrong-guess-000', password: 'my-own-password', password_confirmation: 'my-own-password' };
    const noCsrf = await call(t.app, { method: 'POST', url: '/api/new/password/change', cookies: { session: first.cookie }, payload: { ...body, current_password: password } });
    expect(noCsrf.statusCode).toBe(419);
    for (let i = 0; i < 10; i++) expect((await change(first.token, body)).statusCode).toBe(422);
    const limited = await change(first.token, { ...body, current_password: password });
    expect({ status: limited.statusCode, code: limited.data.code }).toEqual({ status: 429, code: 'RATE_LIMITED' });
  });
});
