import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import pino from 'pino';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../server/src/config.ts';
import { seed } from '../server/src/db/seed.ts';
import { credit } from '../server/src/features/wallet/wallet.queries.ts';
import { call, createTestApp, multipart, newAdmin, newUser, seedCatalog, startPayment, type TestUser } from '@app/server/testing';
import { REPO_ROOT, buildDevLoader, freePort, startWidgetDevServer, widgetNames, type WidgetDevServer } from '../scripts/dev-widgets.ts';
import { openPage, pageManifest, setupE2E } from './support/index.ts';

/*
 * `npm run dev -- <every widget>` in one file: the app with the development loader and
 * WIDGET_DEV_SERVERS naming every widget, each served by `vite dev` of a scratch copy of it (so
 * edits never touch the repository). Every widget is opened on its page and one edit of its
 * sources must show there in place: no reload, the page's own state kept.
 */
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-e2e-dev-'));
const devLoaderDir = path.join(scratch, 'dev-loader');
const WIDGETS = widgetNames();
const copyOf = (name: string) => path.join(scratch, 'widgets', name);
// Packages resolve from the scratch copies through the repository's node_modules.
fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(scratch, 'node_modules'), 'dir');
for (const name of WIDGETS) {
  fs.cpSync(path.join(REPO_ROOT, 'widgets', name), copyOf(name), { recursive: true, filter: (src) => !/[/\\](node_modules|dist)$/.test(src) });
}

// The federation plugin turns itself off under a test runner; these dev servers are the real thing.
process.env.MFE_VITE_NO_TEST_ENV_CHECK = 'true';

const devServers = new Map<string, WidgetDevServer>();
const ports = new Map<string, number>();
const env: Record<string, string> = { LOADER_DIR: devLoaderDir, DEMO_WORD_DELAY_MS: '0' };

/** `vite dev` of a widget's scratch copy on its port (the same port when started again). */
async function startDevServer(name: string): Promise<WidgetDevServer> {
  const dev = await startWidgetDevServer({
    name,
    dir: copyOf(name),
    host: '127.0.0.1',
    port: ports.get(name),
    overrides: { logLevel: 'silent', cacheDir: path.join(scratch, '.vite', name), server: { fs: { allow: [scratch, REPO_ROOT] } } },
  });
  devServers.set(name, dev);
  return dev;
}

beforeAll(async () => {
  let next = 20_000 + Math.floor(Math.random() * 20_000);
  for (const name of WIDGETS) {
    const port = await freePort(next, '127.0.0.1');
    ports.set(name, port);
    next = port + 1;
  }
  await Promise.all([buildDevLoader(devLoaderDir), ...WIDGETS.map(startDevServer)]);
  // Read by setupE2E's beforeAll, which runs after this one.
  env.WIDGET_DEV_SERVERS = WIDGETS.map((name) => `${name}=${devOrigin(name)}`).join(',');
}, 120_000);
const e2e = setupE2E({ env });
afterAll(async () => {
  await Promise.all([...devServers.values()].map((dev) => dev.server.close()));
  fs.rmSync(scratch, { recursive: true, force: true });
});

const devOrigin = (name: string) => `http://127.0.0.1:${String(ports.get(name))}`;

let user: TestUser;
let unconfirmed: TestUser;
let admin: TestUser;
/** Staff whose next step is enrolling a second factor. */
let enrolling: TestUser;
const ids = { chat: 0, pendingPayment: 0 };

beforeAll(async () => {
  const { t } = e2e;
  const catalog = await seedCatalog(t.db);
  // Plans, cards and the catalogue (no example pictures: drawing them is not what is tested here).
  await seed(t.db, pino({ level: 'silent' }));
  [user, unconfirmed, admin, enrolling] = await Promise.all([newUser(t.db), newUser(t.db, { confirmed: false }), newAdmin(t.db), newAdmin(t.db)]);
  await t.db.updateTable('users').set({ setup_steps: ['second_factor'] }).where('id', '=', enrolling.id).execute();
  await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `dev-words-${String(user.id)}` }, 100_000));
  ids.pendingPayment = (await startPayment(t.app, user, catalog.monthly)).payment_id;
  // A chat with an answer, drawn by the Markdown renderer.
  const model = await t.db.selectFrom('ai_models').select('id').where('kind', '=', 'chat').orderBy('sort').executeTakeFirstOrThrow();
  const body = multipart([
    { name: 'ai_models_id', value: String(model.id) },
    { name: 'message', value: 'Привет!' },
  ]);
  const res = await call(t.app, { method: 'POST', url: '/api/new/chat', token: user.token, payload: body.payload, headers: body.headers });
  expect(res.statusCode, res.body).toBe(200);
  ids.chat = (res.data.json as { chat_id: number }).chat_id;
}, 120_000);

interface DevWindow {
  __vite_plugin_react_preamble_installed__?: boolean;
  __beforeEdit?: boolean;
}

function parseCsp(header: unknown): Map<string, string[]> {
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name = '', ...values]) => [name, values]),
  );
}

/** The widget's sources an edit may touch: its own modules, tests and stories aside; components first. */
function sourcesOf(name: string): string[] {
  const dir = path.join(copyOf(name), 'src');
  const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f) && !/\.(test|stories)\.tsx?$/.test(f) && !f.endsWith('mount.tsx'));
  return files.sort((a, b) => Number(b.endsWith('.tsx')) - Number(a.endsWith('.tsx'))).map((f) => path.join(dir, f));
}

/** An edit of a widget: a text its sources hold once, and what the page must show after it. */
interface Edit {
  file: string;
  from: string;
  to: string;
  shows: string;
}

/**
 * Widgets that show no text of their own sources (the conversion goal renders nothing, the history
 * button's label is a prop): their edit adds one.
 */
const SPECIAL_EDITS: Record<string, Edit> = {
  conversion: { file: 'Conversion.tsx', from: 'return null;', to: 'return <p>правка на лету</p>;', shows: 'правка на лету' },
  'history-button': { file: 'HistoryButton.tsx', from: '{label}', to: '{label} (правка на лету)', shows: '(правка на лету)' },
};

/** The texts of a source file's string literals and JSX texts (never its comments), with where each is. */
function literalsOf(file: string): { file: string; text: string; start: number; end: number }[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: { file: string; text: string; start: number; end: number }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isJsxText(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      found.push({ file, text: node.text, start: node.getStart(source), end: node.getEnd() });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The first text the widget shows (in its mount point, or in a dialog it opened over the page) that
 * is one string literal or JSX text of its sources: the edit appends to it there.
 */
async function editFor(page: Page, name: string): Promise<Edit> {
  const special = SPECIAL_EDITS[name];
  if (special) return { ...special, file: path.join(copyOf(name), 'src', special.file) };
  // A widget mounts before its data arrives (its skeleton, or its tabs alone, show no text of its
  // own): look again until one is there.
  const last: { found: Edit | string } = { found: '' };
  await expect
    .poll(async () => {
      last.found = await shownEdit(page, name);
      return last.found;
    }, { timeout: 15_000 })
    .toHaveProperty('shows');
  if (typeof last.found === 'string') throw new Error(last.found);
  return last.found;
}

/** The edit of {@link editFor}, or why there is none yet. */
async function shownEdit(page: Page, name: string): Promise<Edit | string> {
  // (A string, as the e2e code is typed for Node: the page runs it.)
  const shown = await page.evaluate<string[]>(`(() => {
    const texts = [];
    const roots = [...document.querySelectorAll('[data-widget=${JSON.stringify(name)}]'), ...[...document.querySelectorAll('[role="dialog"]')].filter((d) => !d.closest('[data-widget]'))];
    for (const root of roots) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = (node.textContent ?? '').trim();
        if (text.length >= 4 && /\\p{L}{3}/u.test(text) && node.parentElement?.checkVisibility()) texts.push(text);
      }
    }
    return texts;
  })()`);
  const literals = sourcesOf(name).flatMap(literalsOf);
  const words = (text: string) => text.replace(/\s+/g, ' ').trim();
  for (const text of shown) {
    const holders = literals.filter((l) => words(l.text) === words(text));
    const [holder] = holders;
    if (holders.length !== 1 || !holder) continue;
    const source = fs.readFileSync(holder.file, 'utf8');
    const literal = source.slice(holder.start, holder.end);
    if (!literal.includes(text)) continue;
    const changed = `${text} (правка на лету)`;
    return { file: holder.file, from: literal, to: literal.replace(text, changed), shows: changed };
  }
  return `${name}: no text it shows is a literal of its sources (${shown.slice(0, 10).join(' | ')})`;
}

function applyEdit(edit: Edit): void {
  const source = fs.readFileSync(edit.file, 'utf8');
  if (!source.includes(edit.from)) throw new Error(`${edit.file} does not contain "${edit.from}"`);
  fs.writeFileSync(edit.file, source.replace(edit.from, edit.to));
}

/** Which page shows which widgets, and as whom. */
const VISITS: { widgets: string[]; as: 'guest' | 'user' | 'unconfirmed' | 'admin' | 'enrolling'; url: () => string }[] = [
  { widgets: ['auth'], as: 'guest', url: () => '/login' },
  { widgets: ['password-reset-request'], as: 'guest', url: () => '/password/reset' },
  { widgets: ['password-reset-form'], as: 'guest', url: () => '/password/reset/a-token-from-the-mail?email=user%40example.ru' },
  { widgets: ['welcome-notice', 'dashboard', 'history-button', 'conversion'], as: 'user', url: () => '/dashboard' },
  { widgets: ['tariffs'], as: 'user', url: () => '/dashboard/user/payment' },
  { widgets: ['order-history'], as: 'user', url: () => '/dashboard/user/orders' },
  { widgets: ['balance-history'], as: 'user', url: () => '/dashboard/balance' },
  { widgets: ['chat'], as: 'user', url: () => `/chat?id=${String(ids.chat)}` },
  { widgets: ['ai-products'], as: 'user', url: () => '/ai-products' },
  { widgets: ['ai-history'], as: 'user', url: () => '/ai-history' },
  { widgets: ['sandbox-checkout'], as: 'user', url: () => `/sandbox/checkout?payment_id=${String(ids.pendingPayment)}` },
  { widgets: ['email-confirm'], as: 'unconfirmed', url: () => '/dashboard/balance' },
  { widgets: ['admin'], as: 'admin', url: () => '/admin' },
  { widgets: ['account-settings'], as: 'user', url: () => '/settings' },
  { widgets: ['second-factor'], as: 'enrolling', url: () => '/admin/second-factor' },
];

type Who = (typeof VISITS)[number]['as'];
/**
 * One page for each of them, kept from visit to visit (each visit navigates it): the browser's
 * caches then hold the development loader, as a developer's do. What it logs as errors is
 * collected (a CSP violation is one).
 */
const rolePages = new Map<Who, { page: Page; errors: string[] }>();
async function pageAs(who: Who): Promise<{ page: Page; errors: string[] }> {
  const known = rolePages.get(who);
  if (known) {
    known.errors.length = 0;
    return known;
  }
  const context = await e2e.browser.newContext({ locale: 'ru-RU', timezoneId: 'Europe/Moscow', viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(15_000);
  if (who !== 'guest') {
    const { cookie, token } = { user, unconfirmed, admin, enrolling }[who];
    await context.addCookies([{ name: 'session', value: cookie, url: e2e.url('/') }]);
    await context.addInitScript({ content: `window.localStorage.setItem('auth_token', ${JSON.stringify(token)});` });
  }
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  rolePages.set(who, { page, errors });
  return { page, errors };
}
afterAll(async () => {
  await Promise.all([...rolePages.values()].map(({ page }) => page.context().close()));
});

describe('development mode (WIDGET_DEV_SERVERS)', () => {
  it('covers every widget', () => {
    expect(VISITS.flatMap((v) => v.widgets).sort()).toEqual(WIDGETS);
  });

  it.each(VISITS.map((v) => [v.widgets.join(', '), v] as const))('%s: loads from vite dev and updates in place after an edit', async (_label, visit) => {
    const { page, errors } = await pageAs(visit.as);
    const { mounted } = await openPage(page, e2e.url(visit.url()));
    expect(mounted).toEqual(expect.arrayContaining(visit.widgets));
    const manifest = await pageManifest(page);
    for (const name of visit.widgets) expect(manifest[name]?.entry).toBe(`${devOrigin(name)}/widgets/${name}/remoteEntry.js`);
    if (visit.widgets.includes('chat')) await page.getByRole('article', { name: 'Демо-ассистент' }).locator('p').first().waitFor();

    let navigations = 0;
    const navigated = (frame: Frame) => {
      if (frame === page.mainFrame()) navigations++;
    };
    page.on('framenavigated', navigated);
    await page.evaluate(() => Object.assign(globalThis, { __beforeEdit: true }));
    const edits = await Promise.all(visit.widgets.map(async (name) => ({ name, edit: await editFor(page, name) })));
    for (const { edit } of edits) applyEdit(edit);
    // Vite pushes each change over its socket; React re-renders the components in place.
    for (const { name, edit } of edits) {
      await expect.poll(() => page.locator('body').textContent(), { timeout: 20_000, message: `${name} shows «${edit.shows}»` }).toContain(edit.shows);
    }
    expect(await page.evaluate(() => (globalThis as DevWindow).__beforeEdit)).toBe(true);
    expect(navigations).toBe(0);
    expect(errors).toEqual([]);
    page.off('framenavigated', navigated);
  });

  it('serves the preamble before the loader and a CSP allowing exactly the dev servers, and keeps typed values through an edit', async () => {
    const page = await e2e.newPage();
    const response = await page.goto(e2e.url('/login'));
    const csp = parseCsp(response?.headers()['content-security-policy']);
    const origins = WIDGETS.map(devOrigin);
    expect(csp.get('script-src')).toEqual(["'self'", ...origins]);
    expect(csp.get('connect-src')).toEqual(["'self'", ...origins, ...origins.map((o) => o.replace('http://', 'ws://'))]);
    expect(csp.get('style-src')).toEqual(["'self'", expect.stringMatching(/^'nonce-[\w+/=]+'$/)]);
    // vite's client watches for its server's restart from a shared worker it makes from a blob.
    expect(csp.get('worker-src')).toEqual(["'self'", 'blob:']);

    expect((await openPage(page, e2e.url('/login'))).mounted).toEqual(['auth']);
    // The preamble is a module script of ours (no inline script), before the loader.
    const scripts = await Promise.all((await page.locator('script[src]').all()).map((el) => el.getAttribute('src')));
    expect(scripts[0]).toBe('/dev/react-refresh.js?widgets=auth');
    expect(scripts[1]).toMatch(/^\/assets\/loader\.js/);
    expect(await page.evaluate(() => (globalThis as DevWindow).__vite_plugin_react_preamble_installed__)).toBe(true);

    const email = page.getByLabel('Email');
    await email.fill('dev.mode@example.ru');
    const subtitle = page.locator('.card__subtitle').first();
    const before = (await subtitle.textContent())?.trim() ?? '';
    const edit = { file: sourcesOf('auth').find((f) => fs.readFileSync(f, 'utf8').includes(before)) ?? '', from: before, to: `${before}!` };
    applyEdit({ ...edit, shows: edit.to });
    await expect.poll(async () => (await subtitle.textContent())?.trim(), { timeout: 15_000 }).toBe(edit.to);
    expect(await email.inputValue()).toBe('dev.mode@example.ru');
  });

  it('reloads the page by itself when a widget’s dev server comes back after a restart', async () => {
    const page = await e2e.newPage();
    await openPage(page, e2e.url('/login'));
    const lost = page.waitForEvent('console', { predicate: (msg) => msg.text().includes('server connection lost'), timeout: 15_000 });
    await devServers.get('auth')?.server.close();
    await lost;
    const reloaded = page.waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout: 20_000 });
    await startDevServer('auth');
    await reloaded;
    expect((await openPage(page, page.url())).mounted).toEqual(['auth']);
  });
});

describe('without WIDGET_DEV_SERVERS', () => {
  it('keeps the CSP, the manifest and the routes of production', async () => {
    const t = await createTestApp({ workers: false });
    try {
      expect(t.config.widgetDevServers).toEqual({});
      const res = await t.app.inject({ url: '/login' });
      const csp = parseCsp(res.headers['content-security-policy']);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('connect-src')).toEqual(["'self'"]);
      expect(csp.has('worker-src')).toBe(false);
      expect(res.body).not.toContain('/dev/react-refresh.js');
      expect(res.body).toMatch(/"entry":"\/widgets\/auth\/remoteEntry\.js\?v=/);
      expect((await t.app.inject({ url: '/dev/react-refresh.js' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('is parsed as <widget>=<origin> pairs and refused in production', () => {
    expect(loadConfig({ WIDGET_DEV_SERVERS: 'auth=http://localhost:5101, tariffs=http://127.0.0.1:5110/' }).widgetDevServers).toEqual({
      auth: 'http://localhost:5101',
      tariffs: 'http://127.0.0.1:5110',
    });
    const refused = (value: string, nodeEnv = 'development') => {
      try {
        loadConfig({ NODE_ENV: nodeEnv, APP_SECRET: 'x'.repeat(32), WIDGET_DEV_SERVERS: value });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      throw new Error(`accepted WIDGET_DEV_SERVERS=${value}`);
    };
    expect(refused('auth=http://localhost:5101', 'production')).toContain('WIDGET_DEV_SERVERS: is for development only');
    for (const bad of ['auth', 'auth=localhost:5101', 'Auth=http://localhost:5101', 'auth=http://localhost:5101/widgets/auth/', 'auth=ftp://localhost', 'auth=http://a:1,auth=http://b:2']) {
      expect(refused(bad)).toContain('WIDGET_DEV_SERVERS');
    }
  });
});
