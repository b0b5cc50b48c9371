import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { poolOf } from '../../src/db/database.ts';
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
      // The counts go out with the refusal, not on every reply.
      expect(res.headers).not.toHaveProperty('x-ratelimit-remaining');
    }
    const limited = await call(t.app, { url: '/api/new/user', token: user.token, remoteAddress: ip });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['content-type']).toMatch(/application\/json/);
    expect(limited.data).toEqual({ status: 'error', code: 'RATE_LIMITED', text: 'Слишком много попыток. Попробуйте позже' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['x-ratelimit-limit']).toBe(String(LIMIT));
  });

  it('counts per address, and never limits the health checks', async () => {
    const ip = '10.40.0.2';
    for (let i = 0; i < LIMIT; i++) await call(t.app, { url: '/api/new/user', remoteAddress: ip });
    expect((await call(t.app, { url: '/api/new/user', remoteAddress: ip })).statusCode).toBe(429);
    for (const url of ['/healthz', '/readyz']) expect((await call(t.app, { url, remoteAddress: ip })).statusCode).toBe(200);
    expect((await call(t.app, { url: '/api/new/user', remoteAddress: '10.40.0.3' })).statusCode).toBe(401);
  });

  it('never limits static files (the loader, widget chunks, the icon), and serves them without the database', async () => {
    const user = await newUser(t.db);
    const ip = '10.40.0.5';
    // Every statement goes through the pool: kysely's queries check out a connection, prepared ones query it.
    const pool = poolOf(t.db);
    if (!pool) throw new Error('no pool');
    const connect = vi.spyOn(pool, 'connect');
    const query = vi.spyOn(pool, 'query');
    const queries = () => connect.mock.calls.length + query.mock.calls.length;
    const before = queries();
    for (let i = 0; i < LIMIT * 4; i++) {
      for (const url of ['/assets/favicon-32.png', '/assets/loader.js', '/widgets/auth/remoteEntry.js', '/widgets/auth/widget.json']) {
        const res = await call(t.app, { url, remoteAddress: ip, cookies: { session: user.cookie }, token: user.token });
        expect(res.statusCode).not.toBe(429);
      }
    }
    expect(queries()).toBe(before);
    // An API call of the same address is still counted (and looks the session up).
    await call(t.app, { url: '/api/new/user', token: user.token, remoteAddress: ip });
    expect(queries()).toBeGreaterThan(before);
    connect.mockRestore();
    query.mockRestore();
  });

  it('limits page requests too', async () => {
    const ip = '10.40.0.4';
    for (let i = 0; i < LIMIT; i++) expect((await call(t.app, { url: '/login', remoteAddress: ip })).statusCode).toBe(200);
    const limited = await call(t.app, { url: '/login', remoteAddress: ip });
    expect(limited.statusCode).toBe(429);
    expect(limited.data).toMatchObject({ status: 'error', code: 'RATE_LIMITED' });
  });
});
