import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitedText, signInLimitedText, waitText, type SignInChallenge } from '@app/contracts';
import { AUTH_LIMITS, signInCheckLevel } from '../../src/features/accounts/accounts.service.ts';
import { call, createTestApp, newUser, nextWindowStart, testClock, type TestApp } from '../support/index.ts';

/*
 * The sign-in limits count on the app's own clock (`ctx.clock`): each test sets it to the start of
 * a fresh window and moves it by hand, so no test waits for a window to pass, and every wait the
 * server states is exact.
 */

const WINDOW_MS = AUTH_LIMITS.loginPerIp.windowSeconds * 1000;
const clock = testClock(nextWindowStart(AUTH_LIMITS.loginPerIp.windowSeconds));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ workers: false, clock });
});
afterAll(() => t.close());

/** Starts a window no earlier test counted in: the next one on the test clock. */
const freshWindow = () => clock.set((Math.floor(clock() / WINDOW_MS) + 1) * WINDOW_MS);

const login = (email: string, password: string, ip = '10.9.0.1', check?: string) =>
  call(t.app, { method: 'POST', url: '/api/new/login', payload: { email, password, ...(check === undefined ? {} : { check }) }, csrf: true, remoteAddress: ip });

/** Fails to sign in to `email` `n` times from each of `addresses` addresses `10.<a>.<b>.x`. */
async function failFrom(email: string, addresses: number, n: number, prefix: string): Promise<void> {
  for (let a = 0; a < addresses; a++) {
    for (let i = 0; i < n; i++) expect((await login(email, 'wrong-password', `${prefix}.${String(a)}`)).statusCode).toBe(422);
  }
}

/** What the sign-in form does when asked for the check: gets a challenge for the email, solves it, and sends it back with the sign-in. */
async function solvedCheck(email: string): Promise<string> {
  const res = await call(t.app, { method: 'POST', url: '/api/new/login/check', payload: { email }, csrf: true });
  expect(res.statusCode).toBe(200);
  const challenge = (res.data.json as { challenge: SignInChallenge }).challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64url');
}

describe('how long to wait, in Russian', () => {
  it.each<[number, string]>([
    [0, '1 секунду'],
    [1, '1 секунду'],
    [2, '2 секунды'],
    [5, '5 секунд'],
    [11, '11 секунд'],
    [21, '21 секунду'],
    [34, '34 секунды'],
    [59.2, '1 минуту'],
    [60, '1 минуту'],
    [61, '2 минуты'],
    [300, '5 минут'],
    [660, '11 минут'],
    [1260, '21 минуту'],
    [1320, '22 минуты'],
    [3540, '59 минут'],
    [3541, '1 час'],
    [3600, '1 час'],
    [7200, '2 часа'],
  ])('%d s → «через %s»', (seconds, words) => {
    expect(waitText(seconds)).toBe(words);
  });

  it('makes the whole message', () => {
    expect(rateLimitedText(840)).toBe('Слишком много попыток. Попробуйте через 14 минут');
  });
});

describe('the sign-in limits', () => {
  it('counts only failed attempts: successful sign-ins never use them up', async () => {
    freshWindow();
    const user = await newUser(t.db);
    // More successful sign-ins from one address than any limit allows failures.
    for (let i = 0; i < AUTH_LIMITS.loginPerIpAndEmail.max + 5; i++) expect((await login(user.email, user.password, '10.9.1.1')).statusCode).toBe(200);
    const ipRows = await t.db.selectFrom('rate_limits').select('hits').where('key', '=', 'login:ip:10.9.1.1').execute();
    expect(ipRows.every((r) => r.hits === 0)).toBe(true);
    const accountRows = await t.db.selectFrom('rate_limits').select('hits').where('key', '=', `login:email:${user.email}`).execute();
    expect(accountRows.every((r) => r.hits === 0)).toBe(true);
  });

  it('a stranger’s wrong passwords never lock the owner out: they stop that address, with that account, only', async () => {
    freshWindow();
    const victim = await newUser(t.db);
    const max = AUTH_LIMITS.loginPerIpAndEmail.max;
    for (let i = 0; i < max; i++) expect((await login(victim.email, 'wrong-password', '10.9.2.1')).statusCode).toBe(422);
    const limited = await login(victim.email, 'wrong-password', '10.9.2.1');
    expect({ status: limited.statusCode, code: limited.data.code }).toEqual({ status: 429, code: 'RATE_LIMITED' });
    expect(limited.data.text).toBe(signInLimitedText('account', Number(limited.headers['retry-after'])));
    // The owner, from their own address, with the right password.
    expect((await login(victim.email, victim.password, '10.9.3.1')).statusCode).toBe(200);
    // The stranger's address may still sign in to its own account.
    const own = await newUser(t.db);
    expect((await login(own.email, own.password, '10.9.2.1')).statusCode).toBe(200);
  });

  it('says exactly how long to wait, in the message and in Retry-After, and the address is let in when the window ends', async () => {
    freshWindow();
    const user = await newUser(t.db);
    for (let i = 0; i < AUTH_LIMITS.loginPerIpAndEmail.max; i++) expect((await login(user.email, 'wrong-password', '10.9.6.1')).statusCode).toBe(422);
    clock.advance(60_000);
    const limited = await login(user.email, user.password, '10.9.6.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe(String(WINDOW_MS / 1000 - 60));
    expect(limited.data.text).toBe('Слишком много неудачных попыток войти в этот аккаунт с вашего адреса. Попробуйте через 14 минут или восстановите пароль');
    clock.advance(WINDOW_MS - 60_000);
    expect((await login(user.email, user.password, '10.9.6.1')).statusCode).toBe(200);
  });

  it('keeps credential stuffing from one address limited: the 31st failure across emails is refused, a success gives its own attempt back', async () => {
    freshWindow();
    const user = await newUser(t.db);
    const ip = '10.9.8.1';
    for (let i = 0; i < AUTH_LIMITS.loginPerIp.max - 1; i++) expect((await login(`nobody-${String(i)}@example.ru`, 'wrong-password', ip)).statusCode).toBe(422);
    expect((await login(user.email, user.password, ip)).statusCode).toBe(200);
    expect((await login('nobody-last@example.ru', 'wrong-password', ip)).statusCode).toBe(422);
    const limited = await login('nobody-more@example.ru', 'wrong-password', ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.data.text).toBe(signInLimitedText('address', Number(limited.headers['retry-after'])));
    expect((await login(user.email, user.password, '10.9.8.2')).statusCode).toBe(200);
  });
});

describe('an account tried from many addresses', () => {
  it('is never locked: its sign-ins must pass the check, which its owner’s browser solves', async () => {
    freshWindow();
    const victim = await newUser(t.db);
    await failFrom(victim.email, 2, AUTH_LIMITS.loginPerIpAndEmail.max, '10.9.20');
    expect(await signInCheckLevel(t.ctx, victim.email)).toBe(1);

    const unchecked = await login(victim.email, victim.password, '10.9.21.1');
    expect({ status: unchecked.statusCode, code: unchecked.data.code, text: unchecked.data.text }).toEqual({
      status: 429,
      code: 'SIGN_IN_CHECK_REQUIRED',
      text: 'В этот аккаунт много раз пытались войти с неверным паролем, поэтому вход замедлен: браузер решает проверочную задачу, это займёт несколько секунд',
    });
    expect(unchecked.headers['retry-after']).toBeUndefined();
    const check = await solvedCheck(victim.email);
    expect((await login(victim.email, victim.password, '10.9.21.1', check)).statusCode).toBe(200);
    // A check is taken once.
    expect((await login(victim.email, victim.password, '10.9.21.1', check)).data.code).toBe('SIGN_IN_CHECK_REQUIRED');
    // A wrong password with a solved check is an ordinary failure.
    expect((await login(victim.email, 'wrong-password', '10.9.21.2', await solvedCheck(victim.email))).statusCode).toBe(422);
  }, 60_000);

  it('refuses a check made for another email, a forged or expired one; the check grows harder with failures', async () => {
    freshWindow();
    const victim = await newUser(t.db);
    await failFrom(victim.email, 2, AUTH_LIMITS.loginPerIpAndEmail.max, '10.9.30');
    const other = await solvedCheck('someone-else@example.ru');
    expect((await login(victim.email, victim.password, '10.9.31.1', other)).data.code).toBe('SIGN_IN_CHECK_REQUIRED');
    for (const forged of ['', 'not-base64-json', Buffer.from('{"challenge":{},"solution":{}}').toString('base64url'), 'x'.repeat(4000)]) {
      expect((await login(victim.email, victim.password, '10.9.31.2', forged)).data.code, forged.slice(0, 20)).toBe('SIGN_IN_CHECK_REQUIRED');
    }
    const tampered = JSON.parse(Buffer.from(await solvedCheck(victim.email), 'base64url').toString()) as { challenge: SignInChallenge };
    tampered.challenge.parameters.cost = 1;
    expect((await login(victim.email, victim.password, '10.9.31.3', Buffer.from(JSON.stringify(tampered)).toString('base64url'))).data.code).toBe('SIGN_IN_CHECK_REQUIRED');
    const late = await solvedCheck(victim.email);
    clock.advance(6 * 60_000);
    expect((await login(victim.email, victim.password, '10.9.31.4', late)).data.code).toBe('SIGN_IN_CHECK_REQUIRED');
    expect((await login(victim.email, 'x'.repeat(300), '10.9.31.5')).statusCode).toBe(400);

    // Twice the failures (more addresses, each solving its check): a level harder.
    await t.db.updateTable('rate_limits').set({ hits: 2 * AUTH_LIMITS.loginCheckAfter.max }).where('key', '=', `login:email:${victim.email}`).execute();
    expect(await signInCheckLevel(t.ctx, victim.email)).toBe(2);
    // Once the window passes, nothing is asked any more.
    freshWindow();
    expect(await signInCheckLevel(t.ctx, victim.email)).toBe(0);
    expect((await login(victim.email, victim.password, '10.9.33.1')).statusCode).toBe(200);
  }, 60_000);
});
