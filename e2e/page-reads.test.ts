import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { newUser } from '@app/server/testing';
import pino from 'pino';
import { seed } from '../server/src/db/seed.ts';
import { credit } from '../server/src/features/wallet/wallet.queries.ts';
import { launchBrowser, setupE2E, widgetsReady } from './support/index.ts';

/*
 * A signed-in page reads what its widgets ask first as it renders and hands it over in its HTML
 * (`<script id="page-data">`): the widgets draw their data as they mount, and the browser makes
 * none of those reads itself (a round trip saved, ≈150 ms and more on a phone's network).
 */

const e2e = setupE2E();

beforeAll(() => seed(e2e.t.db, pino({ level: 'silent' })));

/** Opens `path`, waits until every widget has drawn its data, and answers the API paths the page asked for. */
async function apiCallsOf(page: Page, path: string): Promise<string[]> {
  const calls: string[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.pathname.startsWith('/api/')) calls.push(`${url.pathname}${url.search}`);
  });
  await page.goto(e2e.url(path));
  expect((await widgetsReady(page)).failed).toEqual([]);
  await page.waitForFunction((settled) => !(globalThis as unknown as { document: { querySelector: (s: string) => unknown } }).document.querySelector(settled), '[data-holding], .widget-skeleton, [data-widget] [aria-busy="true"]:not(button)', { timeout: 20_000 });
  return calls;
}

describe('pages hand their widgets the data they read first', () => {
  it('/dashboard/user/payment draws the plans without asking for them or for the subscription', async () => {
    const user = await newUser(e2e.t.db);
    const page = await e2e.signedInPage(user);
    const calls = await apiCallsOf(page, '/dashboard/user/payment');
    expect(calls.filter((c) => c.startsWith('/api/new/tariff') || c.startsWith('/api/new/subscribe/check'))).toEqual([]);
    const [first] = await e2e.t.db.selectFrom('tariffs').select('name').where('subscriptions_type', '=', 1).orderBy('id').limit(1).execute();
    await page.getByRole('heading', { name: first?.name ?? '', exact: true }).first().waitFor();
  });

  it.each(['/dashboard', '/ai-products', '/chat'])('%s asks for nothing as it loads (so the back/forward cache keeps it)', async (path) => {
    const user = await newUser(e2e.t.db);
    const page = await e2e.signedInPage(user);
    expect(await apiCallsOf(page, path)).toEqual([]);
  });

  it.each([
    ['/dashboard/user/orders', ['/api/new/subscribe?']],
    ['/dashboard/balance', ['/api/new/user', '/api/new/referral', '/api/new/balance/history']],
    ['/ai-history', ['/api/new/generations']],
    ['/chat', ['/api/new/chat_models', '/api/new/user']],
    ['/ai-products?type=image', ['/api/new/ai-products']],
  ])('%s asks for none of what the page read', async (path, reads) => {
    const user = await newUser(e2e.t.db);
    const page = await e2e.signedInPage(user);
    const calls = await apiCallsOf(page, path);
    expect(calls.filter((c) => reads.some((r) => c.startsWith(r)))).toEqual([]);
  });
});

describe('the back/forward cache keeps a signed-in page that fetched nothing as it loaded', () => {
  // Playwright turns the cache off in the Chromium it starts; this file's second browser has it on.
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ ignoreDefaultArgs: ['--disable-back-forward-cache'] });
  });
  afterAll(() => browser.close());

  /** A new user's page at `path` in a context of its own (closed with the test), its widgets mounted; `pageshow` noted in `__restored`. */
  async function openSignedIn(path: string) {
    const user = await newUser(e2e.t.db);
    const context = await browser.newContext({ locale: 'ru-RU' });
    onTestFinished(() => context.close());
    await context.addCookies([{ name: 'session', value: user.cookie, url: e2e.url('/') }]);
    await context.addInitScript({ content: `window.localStorage.setItem('auth_token', ${JSON.stringify(user.token)}); addEventListener('pageshow', (e) => { window.__restored = e.persisted; });` });
    const page = await context.newPage();
    await page.goto(e2e.url(path));
    expect((await widgetsReady(page)).failed).toEqual([]);
    return { user, page };
  }

  /** «Back» to a page the cache holds: a restored page fires no `load`, so the navigation's commit, then `pageshow`; answers whether it was restored. */
  async function back(page: Page): Promise<boolean> {
    await page.evaluate(() => {
      delete (globalThis as unknown as { __restored?: boolean }).__restored;
    });
    await page.goBack({ waitUntil: 'commit' });
    await page.waitForFunction(() => (globalThis as unknown as { __restored?: boolean }).__restored !== undefined);
    return page.evaluate(() => (globalThis as unknown as { __restored: boolean }).__restored);
  }

  it.each(['/dashboard', '/dashboard/user/payment', '/dashboard/user/orders', '/dashboard/balance', '/chat', '/ai-products', '/ai-history'])('«Back» to %s shows the page as it was, without loading it again', async (path) => {
    const { page } = await openSignedIn(path);
    await page.evaluate(() => {
      (globalThis as unknown as { __mark: string }).__mark = 'this load';
    });
    await page.goto(e2e.url('/settings'));
    await widgetsReady(page);
    // Restored from the cache: the same document (its script state kept), not a new load.
    expect(await back(page)).toBe(true);
    expect(await page.evaluate(() => (globalThis as unknown as { __mark?: string }).__mark)).toBe('this load');
  });

  it('a page «Back» restores reads its data again: the balance spent or bought meanwhile shows', async () => {
    const { user, page } = await openSignedIn('/dashboard');
    const words = page.locator('[data-widget="dashboard"] .balances__value').first();
    await expect.poll(() => words.textContent()).toBe('0');
    await page.goto(e2e.url('/settings'));
    await widgetsReady(page);
    await e2e.t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `bfcache-${String(user.id)}` }, 321));
    expect(await back(page)).toBe(true);
    await expect.poll(() => words.textContent(), { timeout: 15_000 }).toBe('321');
  });

  it('after «Выйти», «Back» does not show the account’s page from the cache', async () => {
    const { user, page } = await openSignedIn('/dashboard');
    await page.getByRole('link', { name: 'Выйти' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    // The session cookie changed while the page was in the cache: /dashboard is asked for again (not
    // restored), and the server sends a guest to sign in.
    const asked = page.waitForRequest((req) => new URL(req.url()).pathname === '/dashboard');
    await page.goBack({ waitUntil: 'commit' });
    await asked;
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('button', { name: 'Войти' }).waitFor();
    expect(await page.content()).not.toContain(user.email);
  });
});
