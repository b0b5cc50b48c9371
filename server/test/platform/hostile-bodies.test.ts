import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, newUser, type TestApp } from '../support/index.ts';

/** Bodies built to break the parser or what runs after it: 4xx with the envelope, never a 500. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
});
afterAll(() => t.close());

const nested = (depth: number, inner = '1') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('hostile JSON bodies', () => {
  const cases: [string, string][] = [
    ['a deeply nested array beside _method (no login needed)', `{"_method":"PATCH","password":${nested(100_000)}}`],
    ['deeply nested objects beside _method', `{"_method":"PATCH","email":${nestedObjects(50_000)}}`],
    ['a deeply nested array on a plain POST', `{"email":${nested(100_000)}}`],
    ['nesting deeper than any contract needs', `{"email":${nested(65)}}`],
  ];
  for (const [name, payload] of cases) {
    it(`answers 400 to ${name}`, async () => {
      const res = await call(t.app, { method: 'POST', url: '/api/new/reset_password', payload, headers: { 'content-type': 'application/json' }, csrf: true });
      expect(res.statusCode).toBe(400);
      expect(res.data).toEqual({ status: 'error', code: 'BAD_REQUEST', text: 'Некорректный запрос' });
    });
  }

  it('without the CSRF echo the same body is refused (419) before it is parsed', async () => {
    const res = await call(t.app, { method: 'POST', url: '/api/new/reset_password', payload: `{"_method":"PATCH","password":${nested(100_000)}}`, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(419);
    expect(res.data.code).toBe('CSRF_MISMATCH');
  });

  it('checks a body sent as application/json with a charset too', async () => {
    const res = await call(t.app, { method: 'POST', url: '/api/new/reset_password', payload: `{"_method":"PATCH","password":${nested(100_000)}}`, headers: { 'content-type': 'application/json; charset=utf-8' }, csrf: true });
    expect(res.statusCode).toBe(400);
  });

  it('counts brackets inside strings as text, not nesting', async () => {
    const res = await call(t.app, { method: 'POST', url: '/api/new/reset_password', payload: JSON.stringify({ email: `${'['.repeat(5000)}@x.ru` }), headers: { 'content-type': 'application/json' }, csrf: true });
    expect(res.statusCode).toBe(400);
    expect(res.data.code).toBe('VALIDATION');
  });

  it('a signed-in user gets the same 400, and nothing is spoofed through', async () => {
    const user = await newUser(t.db);
    const res = await call(t.app, { method: 'POST', url: '/api/new/reset_password', token: user.token, payload: `{"_method":"PATCH","token":${nested(10_000)}}`, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
  });

  it('rejects __proto__ keys as the default parser did', async () => {
    const res = await call(t.app, { method: 'POST', url: '/api/new/reset_password', payload: '{"__proto__":{"admin":true},"email":"a@b.ru"}', headers: { 'content-type': 'application/json' }, csrf: true });
    expect(res.statusCode).toBe(400);
  });

  it('an empty JSON body is a 400, not a 500', async () => {
    const res = await call(t.app, { method: 'POST', url: '/api/new/reset_password', payload: '', headers: { 'content-type': 'application/json' }, csrf: true });
    expect(res.statusCode).toBe(400);
  });
});
