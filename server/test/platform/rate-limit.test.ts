import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, newUser, type TestApp } from '../support/index.ts';

const LIMIT = 5;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) }, workers: false });
});
afterAll(() => t.close());

describe('global rate limit (RATE_LIMIT_PER_MINUTE)', () => {
  it('answers 429 in the envelope, in Russian, once an address spends its allowance', async () => {
    const user = await newUser(t.db);
    const ip = '10.40.0.1';
    for (let i = 0; i < LIMIT; i++) {
      const res = await call(t.app, { url: '/api/new/user', token: user.token, remoteAddress: ip });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe(String(LIMIT));
    }
    const limited = await call(t.app, { url: '/api/new/user', token: user.token, remoteAddress: ip });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['content-type']).toMatch(/application\/json/);
    expect(limited.data).toEqual({ status: 'error', code: 'RATE_LIMITED', text: 'Слишком много попыток. Попробуйте позже' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('counts per address, and never limits the health checks', async () => {
    const ip = '10.40.0.2';
    for (let i = 0; i < LIMIT; i++) await call(t.app, { url: '/api/new/user', remoteAddress: ip });
    expect((await call(t.app, { url: '/api/new/user', remoteAddress: ip })).statusCode).toBe(429);
    for (const url of ['/healthz', '/readyz']) expect((await call(t.app, { url, remoteAddress: ip })).statusCode).toBe(200);
    expect((await call(t.app, { url: '/api/new/user', remoteAddress: '10.40.0.3' })).statusCode).toBe(401);
  });

  it('limits page requests too', async () => {
    const ip = '10.40.0.4';
    for (let i = 0; i < LIMIT; i++) expect((await call(t.app, { url: '/login', remoteAddress: ip })).statusCode).toBe(200);
    const limited = await call(t.app, { url: '/login', remoteAddress: ip });
    expect(limited.statusCode).toBe(429);
    expect(limited.data).toMatchObject({ status: 'error', code: 'RATE_LIMITED' });
  });
});
