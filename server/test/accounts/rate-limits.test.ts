import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitedText, waitText } from '@app/contracts';
import { AUTH_LIMITS } from '../../src/features/accounts/accounts.service.ts';
import { call, createTestApp, newUser, type TestApp } from '../support/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
});
afterAll(() => t.close());

const login = (email: string, password: string, ip = '10.9.0.1') => call(t.app, { method: 'POST', url: '/api/new/login', payload: { email, password }, csrf: true, remoteAddress: ip });

/** The limiter counts in fixed 15-minute windows: start well inside one, so a test's attempts share it. */
async function insideOneWindow(): Promise<void> {
  const windowMs = AUTH_LIMITS.loginPerEmail.windowSeconds * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left < 15_000) await new Promise((r) => setTimeout(r, left + 100));
}

/** Seconds until the current window of `windowSeconds` ends, as the server would count them now. */
const toWindowEnd = (windowSeconds: number) => Math.ceil((windowSeconds * 1000 - (Date.now() % (windowSeconds * 1000))) / 1000);

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

describe('the sign-in limit', () => {
  it('counts only failed attempts: successful sign-ins never use it up', async () => {
    await insideOneWindow();
    const user = await newUser(t.db);
    // More successful sign-ins from one address than either limit allows failures.
    for (let i = 0; i < AUTH_LIMITS.loginPerEmail.max + 5; i++) expect((await login(user.email, user.password, '10.9.1.1')).statusCode).toBe(200);
    const ipRows = await t.db.selectFrom('rate_limits').select('hits').where('key', '=', 'login:ip:10.9.1.1').execute();
    expect(ipRows.every((r) => r.hits === 0)).toBe(true);
    expect(await t.db.selectFrom('rate_limits').select('hits').where('key', '=', `login:email:${user.email}`).execute()).toEqual([]);
  });

  it('starts the count of an email’s failures again after a successful sign-in', async () => {
    await insideOneWindow();
    const user = await newUser(t.db);
    const max = AUTH_LIMITS.loginPerEmail.max;
    for (let i = 0; i < max - 1; i++) expect((await login(user.email, 'wrong-password', `10.9.2.${String(i)}`)).statusCode).toBe(422);
    expect((await login(user.email, user.password, '10.9.3.1')).statusCode).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < max; i++) statuses.push((await login(user.email, 'wrong-password', `10.9.4.${String(i)}`)).statusCode);
    expect(statuses).toEqual(Array.from({ length: max }, () => 422));
    expect((await login(user.email, 'wrong-password', '10.9.5.1')).statusCode).toBe(429);
  });

  it('says how long to wait, in the message and in Retry-After, and keeps refusing the right password until then', async () => {
    await insideOneWindow();
    const user = await newUser(t.db);
    for (let i = 0; i < AUTH_LIMITS.loginPerEmail.max; i++) expect((await login(user.email, 'wrong-password', `10.9.6.${String(i)}`)).statusCode).toBe(422);
    const before = toWindowEnd(AUTH_LIMITS.loginPerEmail.windowSeconds);
    const limited = await login(user.email, user.password, '10.9.7.1');
    const after = toWindowEnd(AUTH_LIMITS.loginPerEmail.windowSeconds);
    expect(limited.statusCode).toBe(429);
    expect(limited.data.code).toBe('RATE_LIMITED');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(after);
    expect(retryAfter).toBeLessThanOrEqual(before);
    expect(limited.data.text).toBe(rateLimitedText(retryAfter));
    expect(limited.data.text).toMatch(/^Слишком много попыток\. Попробуйте через \d+ (минуту|минуты|минут|секунду|секунды|секунд)$/);
  });

  it('limits failures per address across emails, and a success there gives its own attempt back', async () => {
    await insideOneWindow();
    const user = await newUser(t.db);
    const ip = '10.9.8.1';
    for (let i = 0; i < AUTH_LIMITS.loginPerIp.max - 1; i++) expect((await login(`nobody-${String(i)}@example.ru`, 'wrong-password', ip)).statusCode).toBe(422);
    expect((await login(user.email, user.password, ip)).statusCode).toBe(200);
    expect((await login('nobody-last@example.ru', 'wrong-password', ip)).statusCode).toBe(422);
    const limited = await login('nobody-more@example.ru', 'wrong-password', ip);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
