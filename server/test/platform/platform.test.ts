import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteContract } from '@app/contracts';
import { ALL_CONTRACTS } from '../../src/app.ts';
import { createDb } from '../../src/db/database.ts';
import healthRoutes from '../../src/features/health/health.routes.ts';
import { call, createTestApp, csrfPair, newUser, type TestApp } from '../support/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const resend = (opts: { token?: string; cookies?: Record<string, string>; headers?: Record<string, string>; csrf?: boolean }) =>
  call(t.app, { method: 'POST', url: '/api/new/confirm_email/resend', ...opts });

/** `default-src 'self'; script-src ...` as a map of directive → sources. */
function parseCsp(header: unknown): Map<string, string[]> {
  expect(typeof header).toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

describe('GET /sanctum/csrf-cookie', () => {
  it('answers 204 with a readable XSRF-TOKEN cookie, new on every call', async () => {
    const res = await call(t.app, { url: '/sanctum/csrf-cookie' });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const cookie = res.cookies.find((c) => c.name === 'XSRF-TOKEN');
    expect(cookie).toBeDefined();
    expect(cookie?.httpOnly).toBeFalsy();
    expect(cookie).toMatchObject({ path: '/', sameSite: 'Lax' });
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(res.cookies.map((c) => c.name)).toEqual(['XSRF-TOKEN']);
    const again = await call(t.app, { url: '/sanctum/csrf-cookie' });
    expect(again.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value).not.toBe(cookie?.value);
  });
});

describe('CSRF rules', () => {
  it('a bearer-authenticated POST needs no XSRF echo', async () => {
    const user = await newUser(t.db, { confirmed: false });
    const res = await resend({ token: user.token });
    expect(res.statusCode).toBe(200);
  });

  it('a cookie-authenticated POST needs the echo: 419 without it', async () => {
    const user = await newUser(t.db, { confirmed: false });
    const pair = await csrfPair(t.app);
    const other = await csrfPair(t.app);
    const cases: { cookies: Record<string, string>; headers: Record<string, string> }[] = [
      { cookies: { session: user.cookie }, headers: {} },
      { cookies: { session: user.cookie, 'XSRF-TOKEN': pair.cookie }, headers: {} },
      { cookies: { session: user.cookie }, headers: { 'x-xsrf-token': pair.header } },
      { cookies: { session: user.cookie, 'XSRF-TOKEN': pair.cookie }, headers: { 'x-xsrf-token': other.header } },
      { cookies: { session: user.cookie, 'XSRF-TOKEN': 'made.up' }, headers: { 'x-xsrf-token': 'made.up' } },
    ];
    for (const c of cases) {
      const res = await resend(c);
      expect(res.statusCode).toBe(419);
      expect(res.data).toEqual({ status: 'error', code: 'CSRF_MISMATCH', text: 'Сессия устарела. Обновите страницу и попробуйте снова' });
    }
    expect(await t.db.selectFrom('email_codes').select('id').where('user_id', '=', user.id).execute()).toHaveLength(0);
    const ok = await resend({ cookies: { session: user.cookie, 'XSRF-TOKEN': pair.cookie }, headers: { 'x-xsrf-token': encodeURIComponent(pair.header) } });
    expect(ok.statusCode).toBe(200);
  });

  it('a cookie-authenticated GET needs no echo', async () => {
    const user = await newUser(t.db);
    expect((await call(t.app, { url: '/api/new/user', cookies: { session: user.cookie } })).statusCode).toBe(200);
  });

  it('a POST with a dead bearer token answers 401, not 419', async () => {
    const user = await newUser(t.db, { confirmed: false });
    await call(t.app, { url: '/api/new/logout', token: user.token });
    const res = await resend({ token: user.token });
    expect(res.statusCode).toBe(401);
    expect(res.data).toMatchObject({ code: 'UNAUTHENTICATED', text: 'Войдите в аккаунт, чтобы продолжить' });
  });

  it('a guest POST to a guest form still needs the echo', async () => {
    const res = await call(t.app, { method: 'POST', url: '/api/new/login', payload: { email: 'a@b.ru', password: 'whatever-1' } });
    expect(res.statusCode).toBe(419);
  });
});

describe('health', () => {
  it('/healthz and /readyz answer ok', async () => {
    for (const url of ['/healthz', '/readyz']) {
      const res = await call(t.app, { url });
      expect(res.statusCode).toBe(200);
      expect(res.data).toEqual({ status: 'ok' });
    }
  });

  it('/readyz answers 503 when the database does not', async () => {
    const app = Fastify();
    const db = createDb('postgres://nobody@127.0.0.1:1/none', 1);
    app.decorate('db', db);
    await app.register(healthRoutes);
    try {
      const res = await app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable' });
      expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await db.destroy();
    }
  });
});

describe('/api/docs', () => {
  it('serves Swagger UI', async () => {
    const res = await call(t.app, { url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toMatch(/swagger-ui/i);
  });

  it('/api/docs/json documents every contract route of every mounted feature, and nothing else', async () => {
    const res = await call(t.app, { url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = JSON.parse(res.body) as { openapi: string; info: { title: string }; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('Нейростудия API');

    const groupOf = new Map<RouteContract, string>();
    for (const [group, contracts] of Object.entries(routes)) for (const c of Object.values(contracts) as RouteContract[]) groupOf.set(c, group);
    expect(ALL_CONTRACTS).toHaveLength(groupOf.size);

    // The router ignores trailing slashes (`/api/new/subscribe/` is stored without it).
    const registered = (c: RouteContract) => t.app.hasRoute({ method: c.method, url: c.path }) || t.app.hasRoute({ method: c.method, url: c.path.replace(/(.)\/+$/, '$1') });
    // A feature is mounted once any of its routes is; from then on it must serve all of them.
    const mounted = new Set(ALL_CONTRACTS.filter(registered).map((c) => groupOf.get(c)));
    expect(mounted).toContain('accounts');

    const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const problems: string[] = [];
    const documented = new Set<string>();
    for (const c of ALL_CONTRACTS) {
      const group = groupOf.get(c);
      if (!mounted.has(group)) continue;
      const name = `${c.method} ${c.path} (${String(group)})`;
      if (!registered(c)) problems.push(`${name} is not registered`);
      if (!doc.paths[openApiPath(c.path)]?.[c.method.toLowerCase()]) problems.push(`${name} is missing from /api/docs/json`);
      documented.add(`${c.method.toLowerCase()} ${openApiPath(c.path)}`);
    }
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods)) {
        if (!documented.has(`${method} ${path}`)) problems.push(`${method.toUpperCase()} ${path} is documented but is no contract route`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('security headers', () => {
  it('pages carry a strict CSP and the usual headers', async () => {
    const res = await call(t.app, { url: '/login' });
    const csp = parseCsp(res.headers['content-security-policy']);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    const scriptSrc = csp.get('script-src') ?? [];
    expect(scriptSrc).toContain("'self'");
    for (const unsafe of ["'unsafe-inline'", "'unsafe-eval'", '*', 'data:', 'http:', 'https:']) expect(scriptSrc).not.toContain(unsafe);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'self'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-powered-by']).toBeUndefined();
    // HSTS only where the public address is https (below).
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('API replies, successful or not, may load and frame nothing, and are not sniffed', async () => {
    const user = await newUser(t.db);
    for (const res of [await call(t.app, { url: '/api/new/user', token: user.token }), await call(t.app, { url: '/api/new/user' }), await call(t.app, { url: '/api/new/nothing-here' })]) {
      expect(parseCsp(res.headers['content-security-policy'])).toEqual(
        new Map([
          ['default-src', ["'none'"]],
          ['frame-ancestors', ["'none'"]],
        ]),
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('API replies are never cached', async () => {
    const user = await newUser(t.db);
    expect((await call(t.app, { url: '/api/new/user', token: user.token })).headers['cache-control']).toBe('no-store');
    expect((await call(t.app, { url: '/api/new/user' })).headers['cache-control']).toBe('no-store');
  });

  describe('behind an https public address', () => {
    let https: TestApp;
    beforeAll(async () => {
      https = await createTestApp({ env: { PUBLIC_URL: 'https://neurostudio.example' }, workers: false });
    });
    afterAll(() => https.close());

    it('sends HSTS and marks the cookies Secure', async () => {
      const page = await call(https.app, { url: '/login' });
      expect(page.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      const csrf = await call(https.app, { url: '/sanctum/csrf-cookie' });
      expect(csrf.cookies.find((c) => c.name === 'XSRF-TOKEN')?.secure).toBe(true);
      const user = await newUser(https.db);
      const login = await call(https.app, { method: 'POST', url: '/api/new/login', payload: { email: user.email, password: user.password }, csrf: true });
      expect(login.statusCode).toBe(200);
      expect(login.cookies.find((c) => c.name === 'session')).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax' });
    });
  });
});

describe('unknown addresses and bad requests', () => {
  it.each([
    ['GET', '/api/nothing-here'],
    ['POST', '/api/new/nothing'],
    ['DELETE', '/api/new/user'],
    ['GET', '/sanctum/nothing'],
  ] as const)('%s %s answers the 404 envelope in Russian', async (method, url) => {
    const res = await call(t.app, { method, url });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.data).toEqual({ status: 'error', code: 'NOT_FOUND', text: 'Не найдено' });
  });

  it('an unknown page answers the HTML 404 page, without echoing the address', async () => {
    const res = await call(t.app, { url: '/no-such-page/%3Cscript%3Ealert(1)%3C%2Fscript%3E' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('<html lang="ru">');
    expect(res.body).toContain('Страница не найдена');
    expect(res.body).not.toContain('<script>');
    // Dressed like the other pages: the site's icon and the brand leading home.
    expect(res.body).toContain('<link rel="icon" href="/assets/favicon-32.png" type="image/png" sizes="32x32"><link rel="apple-touch-icon" href="/assets/apple-touch-icon.png">');
    expect(res.body).toMatch(/<a class="brand" href="\/">/);
  });

  it('a huge body answers 413 in the envelope', async () => {
    const json = await call(t.app, { method: 'POST', url: '/api/new/login', payload: { email: 'a@b.ru', password: 'x'.repeat(2 * 1024 * 1024) }, csrf: true });
    expect(json.statusCode).toBe(413);
    expect(json.data).toEqual({ status: 'error', code: 'PAYLOAD_TOO_LARGE', text: 'Слишком большой запрос' });
    const form = await call(t.app, {
      method: 'POST',
      url: '/api/new/login',
      payload: `email=a%40b.ru&password=${'x'.repeat(100 * 1024)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      csrf: true,
    });
    expect(form.statusCode).toBe(413);
    expect(form.data.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('broken JSON answers 400 and an unknown content type 415, both in the envelope', async () => {
    const broken = await call(t.app, { method: 'POST', url: '/api/new/login', payload: '{"email": "a@b.ru",', headers: { 'content-type': 'application/json' }, csrf: true });
    expect(broken.statusCode).toBe(400);
    expect(broken.data).toEqual({ status: 'error', code: 'BAD_REQUEST', text: 'Некорректный запрос' });
    const xml = await call(t.app, { method: 'POST', url: '/api/new/login', payload: '<login/>', headers: { 'content-type': 'text/xml' }, csrf: true });
    expect(xml.statusCode).toBe(415);
    expect(xml.data).toEqual({ status: 'error', code: 'UNSUPPORTED_MEDIA_TYPE', text: 'Неподдерживаемый формат запроса' });
  });
});

describe('prototype pollution', () => {
  const register = (payload: string, contentType = 'application/json') =>
    call(t.app, { method: 'POST', url: '/api/new/register', payload, headers: { 'content-type': contentType }, csrf: true });
  const userRow = (email: string) => t.db.selectFrom('users').select(['role', 'email_confirmed_at']).where('email', '=', email).executeTakeFirst();

  it.each([
    ['__proto__', '{"email":"proto1@example.ru","password":"long-enough-1","password_confirmation":"long-enough-1","consent":true,"__proto__":{"role":"admin","polluted":true}}'],
    ['constructor.prototype', '{"email":"proto2@example.ru","password":"long-enough-1","password_confirmation":"long-enough-1","consent":true,"constructor":{"prototype":{"role":"admin","polluted":true}}}'],
    ['a nested __proto__', '{"email":{"__proto__":{"polluted":true}},"password":"long-enough-1","password_confirmation":"long-enough-1"}'],
  ])('JSON with %s is refused and changes nothing', async (_label, payload) => {
    const res = await register(payload);
    expect(res.statusCode).toBe(400);
    expect(res.data.status).toBe('error');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).role).toBeUndefined();
    expect(await userRow('proto1@example.ru')).toBeUndefined();
    expect(await userRow('proto2@example.ru')).toBeUndefined();
  });

  it('form fields named __proto__ and constructor change nothing', async () => {
    const res = await register(
      '__proto__%5Brole%5D=admin&__proto__=x&__proto__=y&constructor%5Bprototype%5D%5Bpolluted%5D=1&role=admin&email_confirmed=1&email=proto3%40example.ru&password=long-enough-1&password_confirmation=long-enough-1&consent=on',
      'application/x-www-form-urlencoded',
    );
    expect(res.statusCode).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).role).toBeUndefined();
    expect(await userRow('proto3@example.ru')).toMatchObject({ role: 'user', email_confirmed_at: null });
  });

  it('extra fields of a JSON body are ignored: no self-made admins', async () => {
    const res = await register('{"email":"proto4@example.ru","password":"long-enough-1","password_confirmation":"long-enough-1","consent":true,"role":"admin","email_confirmed":true,"id":1}');
    expect(res.statusCode).toBe(200);
    expect(res.data.json).toMatchObject({ user: { role: 'user', email_confirmed: false } });
    expect(await userRow('proto4@example.ru')).toMatchObject({ role: 'user', email_confirmed_at: null });
  });
});
