import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeNext } from '@app/host-pages';
import { call, createTestApp, newAdmin, newUser, type TestApp } from '../support/index.ts';

/** A widgets directory with built manifests for a few widgets, one of them with a hostile version string. */
const widgetsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-test-widgets-'));
const HOSTILE_VERSION = '1</script><script>alert(1)</script>';
for (const name of ['auth', 'password-reset-form', 'email-confirm', 'dashboard']) {
  fs.mkdirSync(path.join(widgetsDir, name, 'dist'), { recursive: true });
  const entry = {
    name,
    entry: `/widgets/${name}/remoteEntry.js?v=abc`,
    remote: `ns_${name.replace(/-/g, '_')}`,
    preload: [`/widgets/${name}/assets/mount-${name}.js`, `/widgets/${name}/assets/shared-map.js`],
    // The dashboard's imports two of the loader's lazy host modules (one twice over, by a name the loader has no chunk for); the others' builds predate the list.
    ...(name === 'dashboard' ? { hostModules: ['@app/kit/dialog', '@app/kit/tabs', '@app/kit/not-a-module'] } : {}),
    version: name === 'dashboard' ? HOSTILE_VERSION : '1.0.0', builtAt: '2026-01-01T00:00:00.000Z' };
  fs.writeFileSync(path.join(widgetsDir, name, 'dist', 'widget.json'), JSON.stringify(entry));
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { WIDGETS_DIR: widgetsDir }, workers: false });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(widgetsDir, { recursive: true, force: true });
});

const page = (url: string, cookie?: string) => call(t.app, { url, ...(cookie ? { cookies: { session: cookie } } : {}) });

const unescapeHtml = (s: string) => s.replace(/&(quot|amp|lt|gt|#39);/g, (_, e: string) => ({ quot: '"', amp: '&', lt: '<', gt: '>', '#39': "'" })[e] ?? '');

/** The props of the mount point of `widget` in a page, as the loader reads them. */
function propsOf(html: string, widget: string): Record<string, unknown> | undefined {
  const match = new RegExp(`data-widget="${widget}" data-props="([^"]*)"`).exec(html);
  return match?.[1] === undefined ? undefined : (JSON.parse(unescapeHtml(match[1])) as Record<string, unknown>);
}

function manifestOf(html: string): Record<string, { version: string }> {
  const match = /<script type="application\/json" id="widget-manifest">([\s\S]*?)<\/script>/.exec(html);
  expect(match).not.toBeNull();
  return JSON.parse(match?.[1] ?? 'null') as Record<string, { version: string }>;
}

describe('access', () => {
  it.each([
    ['/dashboard', '/login?next=%2Fdashboard'],
    ['/dashboard?payments=1', '/login?next=%2Fdashboard%3Fpayments%3D1'],
    ['/dashboard/user/payment', '/login?next=%2Fdashboard%2Fuser%2Fpayment'],
    ['/dashboard/user/orders', '/login?next=%2Fdashboard%2Fuser%2Forders'],
    ['/chat?id=7', '/login?next=%2Fchat%3Fid%3D7'],
    ['/dashboard/balance?page=2', '/login?next=%2Fdashboard%2Fbalance%3Fpage%3D2'],
  ])('a guest asking for %s is sent to %s', async (url, location) => {
    const res = await page(url);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(location);
  });

  it('a signed-in user asking for /login or /register is sent to /dashboard', async () => {
    const user = await newUser(t.db);
    for (const url of ['/login', '/register', '/login?next=%2Fdashboard']) {
      const res = await page(url, user.cookie);
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/dashboard');
    }
  });

  it('/ sends a guest to /login and a signed-in user to /dashboard', async () => {
    const user = await newUser(t.db);
    expect((await page('/')).headers.location).toBe('/login');
    expect((await page('/', user.cookie)).headers.location).toBe('/dashboard');
  });

  it('a blocked user is told so on the page they land on — support and «Выйти» — not sent to sign in; /login still signs in another account', async () => {
    const user = await newUser(t.db, { blocked: true });
    const admin = await newAdmin(t.db, { email: `blocked-admin-${String(Date.now())}@example.ru` });
    await t.db.updateTable('users').set({ blocked_at: new Date() }).where('id', '=', admin.id).execute();
    for (const [url, cookie, email] of [
      ['/dashboard', user.cookie, user.email],
      ['/chat?id=7', user.cookie, user.email],
      ['/admin/users', admin.cookie, admin.email],
    ] as const) {
      const res = await page(url, cookie);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 403 });
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toContain('<h1>Аккаунт заблокирован</h1>');
      expect(res.body).toContain(`Аккаунт <strong class="error-page__account">${email}</strong> заблокирован администратором`);
      expect(res.body).toContain('<a class="btn btn-primary" href="mailto:support@neurostudio.local">Написать в поддержку</a>');
      expect(res.body).toContain('<a class="btn btn-secondary" href="/logout">Выйти</a>');
      // No navigation of a signed-in user, no widget that would call the API.
      expect(res.body).not.toContain('site-nav');
      expect(res.body).not.toContain('data-widget');
    }
    expect((await page('/', user.cookie)).headers.location).toBe('/dashboard');
    expect((await page('/login', user.cookie)).statusCode).toBe(200);
  });

  it('a revoked session counts as a guest', async () => {
    const user = await newUser(t.db);
    await call(t.app, { url: '/api/new/logout', token: user.token });
    expect((await page('/dashboard', user.cookie)).statusCode).toBe(302);
  });
});

describe('page documents', () => {
  it('/login after an account was deleted (?deleted=1) says so above the form, in the page itself; otherwise nothing', async () => {
    const notice = '<div class="alert alert-success page-notice" role="status">Аккаунт удалён</div>';
    const after = await page('/login?deleted=1');
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain(notice);
    expect(after.body.indexOf(notice)).toBeLessThan(after.body.indexOf('data-widget="auth"'));
    for (const url of ['/login', '/login?deleted=0', '/login?deleted=%3Cscript%3E', '/login?deleted=1&deleted=1', '/register?deleted=1']) {
      const res = await page(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('page-notice');
    }
  });

  it('are Russian HTML, described, revalidated (a guest’s) or never stored (a signed-in one’s), with the manifest of the widgets they mount', async () => {
    const res = await page('/login');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    // Nothing of an account on a guest's page: the back/forward cache may keep it.
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.body).toMatch(/<meta name="description" content="[^"]{50,160}">/);
    const user = await newUser(t.db);
    const signedIn = await page('/dashboard', user.cookie);
    expect(signedIn.headers['cache-control']).toBe('no-store');
    expect(signedIn.body).toMatch(/<meta name="description" content="[^"]{50,160}">/);
    expect(res.body).toMatch(/^<!doctype html>\n<html lang="ru">/);
    expect(res.body).toContain('<title>Вход — Нейростудия</title>');
    expect(propsOf(res.body, 'auth')).toEqual({ mode: 'login', redirectTo: '/dashboard' });
    const manifest = manifestOf(res.body);
    expect(Object.keys(manifest)).toEqual(['auth']);
    expect(manifest.auth?.version).toBe('1.0.0');
    // Dialogs add a <style> for their scroll lock: style-src allows it by a nonce, which the page hands to the loader.
    const styleSrc = String(res.headers['content-security-policy']).split(';').map((d) => d.trim()).find((d) => d.startsWith('style-src ')) ?? '';
    const nonce = /<meta name="csp-nonce" content="([^"]+)">/.exec(res.body)?.[1];
    expect(nonce).toBeDefined();
    expect(styleSrc).toBe(`style-src 'self' 'nonce-${nonce ?? ''}'`);
    // One URL for the loader module (served no-cache): its chunks import helpers from it, and another URL would run it twice.
    expect(res.body).toContain('<script type="module" src="/assets/loader.js"></script>');
    // The widget's files load beside the loader, not after it: its entry and what it imports, with the page's nonce.
    const preloads = [...res.body.matchAll(/<link rel="modulepreload" href="([^"]+)" nonce="([^"]+)">/g)].map((m) => [m[1], m[2]]);
    // First the loader's boot chunk (what its build listed in loader.json), then the widget's files,
    // then React's chunk: the largest file, which the boot and the remote need last.
    const loaderFiles = JSON.parse(fs.readFileSync(path.join(t.config.loaderDir, 'loader.json'), 'utf8')) as { preload: string[]; preloadLast: string[] };
    expect(loaderFiles.preload.some((f) => /^\/assets\/host-boot-[\w-]+\.js$/.test(f))).toBe(true);
    expect(loaderFiles.preloadLast.some((f) => /^\/assets\/host-react-[\w-]+\.js$/.test(f))).toBe(true);
    expect(preloads).toEqual([
      ...loaderFiles.preload.map((f) => [f, nonce]),
      ['/widgets/auth/remoteEntry.js?v=abc', nonce],
      ['/widgets/auth/assets/mount-auth.js', nonce],
      ['/widgets/auth/assets/shared-map.js', nonce],
      ...loaderFiles.preloadLast.map((f) => [f, nonce]),
    ]);
  });

  it('link the files of every widget they mount, the overlay’s too, and no other widget’s', async () => {
    const user = await newUser(t.db, { confirmed: false });
    const res = await page('/dashboard', user.cookie);
    const preloaded = [...res.body.matchAll(/<link rel="modulepreload" href="\/widgets\/([a-z-]+)\/remoteEntry\.js/g)].map((m) => m[1]);
    // Of the dashboard's widgets only two have a build in this test's folder.
    expect(preloaded.sort()).toEqual(['dashboard', 'email-confirm']);
  });

  it('link the loader’s chunks of the host modules their widgets import, each file once, and none for widgets that import none', async () => {
    const { preload, preloadLast, lazy } = JSON.parse(fs.readFileSync(path.join(t.config.loaderDir, 'loader.json'), 'utf8')) as { preload: string[]; preloadLast: string[]; lazy: Record<string, string[]> };
    const dialog = lazy['@app/kit/dialog'] ?? [];
    const tabs = lazy['@app/kit/tabs'] ?? [];
    expect(dialog.some((f) => /^\/assets\/host-dialog-[\w-]+\.js$/.test(f))).toBe(true);
    expect(tabs.some((f) => /^\/assets\/host-tabs-[\w-]+\.js$/.test(f))).toBe(true);
    // Both use Radix's base chunk.
    expect(dialog.filter((f) => tabs.includes(f))).not.toEqual([]);
    const preloadsOf = (body: string) => [...body.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1] ?? '');
    const dashboard = preloadsOf((await page('/dashboard', (await newUser(t.db)).cookie)).body);
    const hostChunks = dashboard.filter((f) => f.startsWith('/assets/') && !preload.includes(f) && !preloadLast.includes(f));
    expect([...hostChunks].sort()).toEqual([...new Set([...dialog, ...tabs])].sort());
    expect(new Set(dashboard).size).toBe(dashboard.length);
    // After the widgets' entries and files, which the remotes start with; before React's chunk, the largest, needed last.
    const firstHostChunk = dashboard.indexOf(hostChunks[0] ?? '');
    expect(firstHostChunk).toBeGreaterThan(dashboard.findLastIndex((f) => f.startsWith('/widgets/')));
    expect(dashboard.slice(firstHostChunk + hostChunks.length)).toEqual(preloadLast);
    const login = preloadsOf((await page('/login')).body);
    expect(login.filter((f) => Object.values(lazy).flat().includes(f))).toEqual([]);
  });

  it('link the stylesheet every page has and the style groups of their widgets only (the admin panel shows runs too)', async () => {
    const { styles } = JSON.parse(fs.readFileSync(path.join(t.config.loaderDir, 'loader.json'), 'utf8')) as { styles: string[] };
    expect(styles).toEqual(['chat', 'gen', 'admin']);
    const sheets = (body: string) => [...body.matchAll(/<link rel="stylesheet" href="\/assets\/([\w-]+\.css)\?v=[\w]+">/g)].map((m) => m[1]);
    const user = await newUser(t.db);
    const admin = await newAdmin(t.db);
    expect(sheets((await page('/login')).body)).toEqual(['loader.css']);
    expect(sheets((await page('/dashboard', user.cookie)).body)).toEqual(['loader.css']);
    expect(sheets((await page('/chat', user.cookie)).body)).toEqual(['loader.css', 'loader-chat.css']);
    expect(sheets((await page('/ai-products', user.cookie)).body)).toEqual(['loader.css', 'loader-gen.css']);
    expect(sheets((await page('/ai-history', user.cookie)).body)).toEqual(['loader.css', 'loader-gen.css']);
    expect(sheets((await page('/admin/users', admin.cookie)).body)).toEqual(['loader.css', 'loader-gen.css', 'loader-admin.css']);
    for (const file of ['loader-chat.css', 'loader-gen.css', 'loader-admin.css']) {
      const res = await call(t.app, { url: `/assets/${file}`, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode, file).toBe(200);
      expect(res.headers['content-encoding'], file).toBe('br');
      expect(res.headers['cache-control'], file).toBe('no-cache');
    }
  });

  it('escape the manifest inside its script element', async () => {
    const user = await newUser(t.db);
    const res = await page('/dashboard', user.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<script>alert(1)');
    expect(manifestOf(res.body).dashboard?.version).toBe(HOSTILE_VERSION);
  });

  it('mark the slots of widgets that often draw nothing (welcome notice, conversion stub) as quiet, so they take no space', async () => {
    const user = await newUser(t.db);
    const res = await page('/dashboard', user.cookie);
    const quiet = [...res.body.matchAll(/data-widget="([a-z-]+)"[^>]*data-quiet/g)].map((m) => m[1]);
    expect(quiet).toEqual(['welcome-notice', 'conversion']);
  });

  it('/dashboard/user/payment has no sandbox banner: the tariffs widget says it with the test cards', async () => {
    const user = await newUser(t.db);
    const res = await page('/dashboard/user/payment', user.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('sandbox-banner');
    expect(propsOf(res.body, 'tariffs')).toMatchObject({ sandbox: true, paymentsOff: false });
  });

  it('/dashboard/user/payment says paying is unavailable while an admin has the payment sandbox switched off, and the test cards again once it is on', async () => {
    const user = await newUser(t.db);
    await t.db.insertInto('settings').values({ key: 'sandbox_payments', value: JSON.stringify(false) }).execute();
    await t.ctx.settings.load(t.db);
    try {
      const off = await page('/dashboard/user/payment', user.cookie);
      expect(propsOf(off.body, 'tariffs')).toMatchObject({ sandbox: false, paymentsOff: true });
      expect(off.body).not.toContain('sandbox-banner');
    } finally {
      await t.db.deleteFrom('settings').where('key', '=', 'sandbox_payments').execute();
      await t.ctx.settings.load(t.db);
    }
    const on = await page('/dashboard/user/payment', user.cookie);
    expect(propsOf(on.body, 'tariffs')).toMatchObject({ sandbox: true, paymentsOff: false });
  });

  it('/dashboard/user/payment with real CloudPayments: no sandbox note and paying available, whatever the sandbox switch says', async () => {
    const real = await createTestApp({ workers: false, env: { WIDGETS_DIR: widgetsDir, CLOUDPAYMENTS_PUBLIC_ID: 'pk_test_public', CLOUDPAYMENTS_API_SECRET: 'cp_test_secret', CLOUDPAYMENTS_API_URL: 'http://127.0.0.1:9' } });
    try {
      const user = await newUser(real.db);
      await real.db.insertInto('settings').values({ key: 'sandbox_payments', value: JSON.stringify(false) }).execute();
      await real.ctx.settings.load(real.db);
      const res = await call(real.app, { url: '/dashboard/user/payment', cookies: { session: user.cookie } });
      expect(propsOf(res.body, 'tariffs')).toMatchObject({ sandbox: false, paymentsOff: false, paymentScriptUrl: 'https://widget.cloudpayments.ru/bundles/cloudpayments.js' });
    } finally {
      await real.close();
    }
  });

  it('/dashboard/balance mounts the balance history under «История баланса», «Главная» marked in the navigation', async () => {
    const user = await newUser(t.db);
    const res = await page('/dashboard/balance?page=2', user.cookie);
    expect(res.statusCode).toBe(200);
    expect(propsOf(res.body, 'balance-history')).toEqual({});
    expect(res.body).toContain('<title>История баланса — Нейростудия</title>');
    expect(res.body).toContain('<h1>История баланса</h1>');
    expect(res.body).toContain('<a href="/dashboard" aria-current="page">Главная</a>');
  });

  it('/chat mounts the chat with the plans and packages links, fills the viewport and is «Чат» in the navigation', async () => {
    const user = await newUser(t.db);
    const res = await page('/chat?id=3', user.cookie);
    expect(res.statusCode).toBe(200);
    expect(propsOf(res.body, 'chat')).toEqual({ plansUrl: '/dashboard/user/payment', packagesUrl: '/dashboard/user/payment#packages' });
    expect(res.body).toContain('<title>Чат — Нейростудия</title>');
    expect(res.body).toContain('<body class="layout-app layout-fill">');
    expect(res.body).toContain('<main class="page page--app page--fill">');
    expect(res.body).toContain('<a href="/chat" aria-current="page">Чат</a>');
    const other = await page('/dashboard', user.cookie);
    expect(other.body).toContain('<a href="/chat">Чат</a>');
    expect(other.body).not.toContain('page--fill');
  });

  it('the catalogue’s list and every variant’s screen mount the ai-products widget, «Генерации» in the navigation', async () => {
    const user = await newUser(t.db);
    for (const url of ['/ai-products', '/ai-products?type=video', ...['img', 'img_2', 'img_3', 'img_4', 'mask', 'text_1', 'video'].map((v) => `/ai-products/${v}/12`)]) {
      const res = await page(url, user.cookie);
      expect(res.statusCode, url).toBe(200);
      expect(propsOf(res.body, 'ai-products')).toEqual({ plansUrl: '/dashboard/user/payment', packagesUrl: '/dashboard/user/payment#packages', historyUrl: '/ai-history', videoHistoryUrl: '/ai-history-video' });
      expect(res.body).toContain('<a href="/ai-products" aria-current="page">Генерации</a>');
    }
    expect((await page('/ai-products/img/12')).headers.location).toBe('/login?next=%2Fai-products%2Fimg%2F12');
  });

  it('/ai-history and /ai-history-video mount the history of images and of video, «История» in the navigation', async () => {
    const user = await newUser(t.db);
    for (const [url, type] of [['/ai-history', 'image'], ['/ai-history?type=text', 'image'], ['/ai-history-video', 'video']] as const) {
      const res = await page(url, user.cookie);
      expect(res.statusCode, url).toBe(200);
      expect(propsOf(res.body, 'ai-history')).toEqual({ type, productsUrl: '/ai-products' });
      expect(res.body).toContain('<a href="/ai-history" aria-current="page">История</a>');
    }
    expect((await page('/ai-history-video')).headers.location).toBe('/login?next=%2Fai-history-video');
  });

  it('the admin panel: every /admin path and /dashboard/admin_vue mount the admin widget for admins; users get 403, guests sign in', async () => {
    const admin = await newAdmin(t.db);
    const user = await newUser(t.db);
    for (const url of ['/admin', '/admin/users', '/admin/users/42', '/admin/tariff/3', '/admin/audit?q=user:1', '/dashboard/admin_vue']) {
      const res = await page(url, admin.cookie);
      expect(res.statusCode, url).toBe(200);
      expect(propsOf(res.body, 'admin')).toEqual({});
      expect(res.body).toContain('<a href="/admin" aria-current="page">Админка</a>');
      const refused = await page(url, user.cookie);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.body).toContain('Нет доступа');
      expect(refused.body).not.toContain('data-widget="admin"');
      expect((await page(url)).headers.location).toBe(`/login?next=${encodeURIComponent(url)}`);
    }
    expect((await page('/dashboard', user.cookie)).body).not.toContain('Админка');
    expect((await page('/dashboard', admin.cookie)).body).toContain('<a href="/admin">Админка</a>');
  });

  it('/register mounts the registration form', async () => {
    const res = await page('/register');
    expect(res.statusCode).toBe(200);
    expect(propsOf(res.body, 'auth')).toEqual({ mode: 'register', redirectTo: '/dashboard' });
  });
});

describe('/login?next=', () => {
  it.each([
    ['/dashboard/user/payment', '/dashboard/user/payment'],
    ['/dashboard?payments=1', '/dashboard?payments=1'],
    ['//evil.example', '/dashboard'],
    ['/\\evil.example', '/dashboard'],
    ['https://evil.example/', '/dashboard'],
    ['javascript:alert(1)', '/dashboard'],
    ['/\t/evil.example', '/dashboard'],
    ['/\n/evil.example', '/dashboard'],
    ['/\r\n/evil.example', '/dashboard'],
    ['/\\/evil.example', '/dashboard'],
    ['/x\\..\\\\evil.example', '/dashboard'],
  ])('passes next=%j on as %j', async (next, expected) => {
    expect(safeNext(next)).toBe(expected);
    const res = await page(`/login?next=${encodeURIComponent(next)}`);
    expect(res.statusCode).toBe(200);
    expect(propsOf(res.body, 'auth')).toEqual({ mode: 'login', redirectTo: expected });
  });

  it('survives a repeated next', async () => {
    const res = await page('/login?next=%2Fa&next=%2Fb');
    expect(res.statusCode).toBe(200);
    expect((propsOf(res.body, 'auth') ?? {}).redirectTo).toMatch(/^\//);
  });
});

describe('password reset pages', () => {
  it('/password/reset/:token mounts the form with the token and email, HTML-escaped', async () => {
    const token = `"'><script>alert(1)</script>`;
    const email = `"><img src=x onerror=alert(1)>@example.ru`;
    const res = await page(`/password/reset/${encodeURIComponent(token)}?email=${encodeURIComponent(email)}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>Новый пароль — Нейростудия</title>');
    expect(res.body).not.toContain('<script>alert(1)');
    expect(res.body).not.toContain('<img src=x');
    expect(propsOf(res.body, 'password-reset-form')).toEqual({ token, email });
    expect(Object.keys(manifestOf(res.body))).toEqual(['password-reset-form']);
  });

  it('/password/reset/:token works with the link as mailed', async () => {
    const res = await page('/password/reset/AbC-123_xyz?email=anna%40example.ru');
    expect(propsOf(res.body, 'password-reset-form')).toEqual({ token: 'AbC-123_xyz', email: 'anna@example.ru' });
  });

  it('/password/reset/:token without an email, or with a repeated one, still renders', async () => {
    const none = await page('/password/reset/tok');
    expect(none.statusCode).toBe(200);
    expect(propsOf(none.body, 'password-reset-form')).toEqual({ token: 'tok', email: '' });
    const repeated = await page('/password/reset/tok?email=a%40b.ru&email=c%40d.ru');
    expect(repeated.statusCode).toBe(200);
    expect(propsOf(repeated.body, 'password-reset-form')).toMatchObject({ token: 'tok' });
  });

  it('/password/reset mounts the request form, with the email if given, even when repeated', async () => {
    const res = await page('/password/reset?email=anna%40example.ru');
    expect(res.statusCode).toBe(200);
    expect(propsOf(res.body, 'password-reset-request')).toEqual({ email: 'anna@example.ru' });
    const repeated = await page('/password/reset?email=a%40b.ru&email=c%40d.ru');
    expect(repeated.statusCode).toBe(200);
    expect(propsOf(repeated.body, 'password-reset-request')).toHaveProperty('email');
  });
});

describe('email confirmation overlay', () => {
  it("an unconfirmed user's dashboard mounts it", async () => {
    const user = await newUser(t.db, { confirmed: false });
    const res = await page('/dashboard', user.cookie);
    expect(res.statusCode).toBe(200);
    expect(propsOf(res.body, 'email-confirm')).toEqual({ email: user.email, supportUrl: t.config.supportUrl });
    expect(Object.keys(manifestOf(res.body))).toContain('email-confirm');
  });

  it("a confirmed user's dashboard does not", async () => {
    const user = await newUser(t.db, { confirmed: true });
    const res = await page('/dashboard', user.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('data-widget="email-confirm"');
    expect(Object.keys(manifestOf(res.body))).not.toContain('email-confirm');
  });

  it('shows on every signed-in page until confirmed', async () => {
    const user = await newUser(t.db, { confirmed: false });
    for (const url of ['/dashboard/user/payment', '/dashboard/user/orders']) {
      const res = await page(url, user.cookie);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('data-widget="email-confirm"');
    }
  });

  it('survives a repeated query parameter on the dashboard', async () => {
    const user = await newUser(t.db);
    const res = await page('/dashboard?payments=1&payments=1', user.cookie);
    expect(res.statusCode).toBe(200);
  });
});

describe('/logout', () => {
  it('revokes the session, clears the cookie and redirects to /login', async () => {
    const user = await newUser(t.db);
    const res = await page('/logout', user.cookie);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login');
    const cleared = res.cookies.find((c) => c.name === 'session');
    expect(cleared?.value).toBe('');
    expect(cleared?.expires?.getTime() ?? 0).toBeLessThanOrEqual(Date.now());
    expect((await call(t.app, { url: '/api/new/user', cookies: { session: user.cookie } })).statusCode).toBe(401);
    expect((await call(t.app, { url: '/api/new/user', token: user.token })).statusCode).toBe(401);
    expect((await page('/dashboard', user.cookie)).statusCode).toBe(302);
  });

  it("a guest is just redirected, and another user's session stays live", async () => {
    const other = await newUser(t.db);
    const res = await page('/logout');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login');
    expect((await call(t.app, { url: '/api/new/user', cookies: { session: other.cookie } })).statusCode).toBe(200);
  });
});

describe('a pending setup step', () => {
  it('its page offers no navigation (every link would lead back), only the account and «Выйти»', async () => {
    const admin = await newAdmin(t.db, { email: `setup-step-${String(Date.now())}@example.ru` });
    await t.db.updateTable('users').set({ setup_steps: ['password'], password_temporary: true }).where('id', '=', admin.id).execute();
    const res = await page('/password/change?next=%2Fadmin', admin.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('site-nav');
    expect(res.body).not.toContain('href="/dashboard"');
    expect(res.body).toContain(`<span class="site-user__email">${admin.email}</span>`);
    expect(res.body).toContain('<a class="site-user__logout" href="/logout">Выйти</a>');
  });
});

describe('error pages', () => {
  it('a signed-in user’s 404 keeps the signed-in header, navigation and footer', async () => {
    const user = await newUser(t.db);
    for (const url of ['/ai-products/nope/1', '/ai-history/1', '/no/such/page?x=<b>']) {
      const res = await page(url, user.cookie);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('Страница не найдена');
      expect(res.body).toContain('class="site-nav"');
      expect(res.body).toContain(user.email);
      expect(res.body).toContain('href="/logout"');
      expect(res.body).toContain('class="site-footer"');
      expect(res.body).not.toContain('<b>');
    }
  });

  it('a guest’s 404 has the guest header and no navigation', async () => {
    const res = await page('/ai-products/nope/1');
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('site-header--guest');
    expect(res.body).not.toContain('class="site-nav"');
  });
});
