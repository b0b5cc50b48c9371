import fs from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_VARIANTS, type Generation } from '@app/contracts';
import { call, finishedRun, multipart, newAdmin, newUser, notify, payFields, seedCatalog, startPayment, startRun, subscribe, type Catalog, type TestUser } from '@app/server/testing';
import { seed } from '../server/src/db/seed.ts';
import { credit } from '../server/src/features/wallet/wallet.queries.ts';
import { openPage, seriousViolations, setupE2E } from './support/index.ts';

/*
 * Every server-rendered page, as a guest, a user and an admin sees it, at 1280 px and at 390 px,
 * checked by axe-core in Chromium: no serious or critical violation. The pages show real content
 * (a plan and a package bought, a chat with answers, finished runs of each kind), not only their
 * empty states. axe's script is injected into the page; the context bypasses the page's CSP for
 * that (the CSP refuses inline scripts, and axe's is one).
 */

const e2e = setupE2E({ env: { DEMO_WORD_DELAY_MS: '0', DEMO_STEP_DELAY_MS: '0' } });
const SHOTS_DIR = process.env.E2E_SCREENSHOTS_DIR;
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

let catalog: Catalog;
let user: TestUser;
let unconfirmed: TestUser;
let admin: TestUser;
const ids = { chat: 0, payment: 0, pendingPayment: 0, product: {} as Record<string, number>, category: 0, model: 0, provider: 0, card: 0 };

beforeAll(async () => {
  const { t } = e2e;
  catalog = await seedCatalog(t.db);
  await seed(t.db, pino({ level: 'silent' }), t.ctx.storage);
  user = await newUser(t.db);
  unconfirmed = await newUser(t.db, { confirmed: false });
  admin = await newAdmin(t.db);
  await t.db.transaction().execute(async (tx) => {
    await credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `a11y-words-${String(user.id)}` }, 100_000);
    await credit(tx, { userId: user.id, kind: 'media', reason: 'admin_adjustment', idempotencyKey: `a11y-media-${String(user.id)}` }, 1_000);
  });
  // A plan and a package bought (the orders page and the admin's payments list have lines).
  const { invoice } = await subscribe(t.app, user, catalog.monthly);
  ids.payment = invoice.payment_id;
  const pack = await startPayment(t.app, user, catalog.wordsPack);
  await notify(t.app, 'pay', payFields(pack, user));
  ids.pendingPayment = (await startPayment(t.app, user, catalog.mediaPack)).payment_id;
  // A chat with three exchanges, the last answer with code (highlighted).
  const model = await t.db.selectFrom('ai_models').select('id').where('kind', '=', 'chat').orderBy('sort').executeTakeFirstOrThrow();
  for (const message of ['Привет! Расскажи про фотосинтез.', 'А коротко, в двух строках?', 'Покажи пример кода на Python']) {
    const body = multipart([
      { name: 'ai_models_id', value: String(model.id) },
      { name: 'message', value: message },
      ...(ids.chat ? [{ name: 'chat_id', value: String(ids.chat) }] : []),
    ]);
    const res = await call(t.app, { method: 'POST', url: '/api/new/chat', token: user.token, payload: body.payload, headers: body.headers });
    expect(res.statusCode, res.body).toBe(200);
    ids.chat = (res.data.json as { chat_id: number }).chat_id;
  }
  // A product of every variant, and a finished run of each kind (pictures, a clip, a text).
  for (const variant of PRODUCT_VARIANTS) {
    const row = await t.db.selectFrom('ai_products').select('id').where('variant', '=', variant).where('active', '=', true).orderBy('id').executeTakeFirstOrThrow();
    ids.product[variant] = row.id;
  }
  const runs: Generation[] = [];
  for (const [variant, fields] of [
    ['img', { prompt: 'Кот в сапогах на лугу' }],
    ['video', { prompt: 'Волны у берега на закате' }],
  ] as const) {
    const res = await startRun(t.app, user, { product_id: ids.product[variant] ?? 0, ...fields });
    expect(res.statusCode, res.body).toBe(200);
    runs.push(res.data.json as Generation);
  }
  for (const run of runs) await finishedRun(t.app, user, run.id);
  ids.category = (await t.db.selectFrom('ai_categories').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  ids.model = model.id;
  ids.provider = (await t.db.selectFrom('provider_connections').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  ids.card = (await t.db.selectFrom('dashboard_cards').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
}, 120_000);

/** Counts the page's requests started and not yet finished (a redirect finishes its first hop). */
function requestsInFlight(page: Page): () => number {
  let open = 0;
  page.on('request', () => open++);
  page.on('requestfinished', () => open--);
  page.on('requestfailed', () => open--);
  return () => open;
}

/**
 * The page once its widgets are in and their data has come: nothing loading, no request in flight.
 * (Conditions, not Playwright's `networkidle`, which waits a fixed 500 ms of quiet on every page.)
 */
async function settled(page: Page, inFlight: () => number, url: string, widgets: boolean): Promise<void> {
  if (widgets) await openPage(page, url);
  else await page.goto(url);
  await page.waitForFunction(`document.querySelectorAll('[data-loading], [aria-busy="true"]').length === 0`, undefined, { timeout: 15_000 });
  await expect.poll(inFlight, { timeout: 15_000, message: `requests still in flight on ${url}` }).toBe(0);
}

/** Opens each page in turn at the viewport and collects what axe finds. */
async function audit(page: Page, viewport: (typeof VIEWPORTS)[number], pages: readonly (readonly [path: string, widgets: boolean])[]): Promise<string[]> {
  await page.setViewportSize({ width: viewport.width, height: viewport.height });
  if (SHOTS_DIR) fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const found: string[] = [];
  const inFlight = requestsInFlight(page);
  for (const [path, widgets] of pages) {
    await settled(page, inFlight, e2e.url(path), widgets);
    if (SHOTS_DIR) await page.screenshot({ path: join(SHOTS_DIR, `a11y-${String(viewport.width)}${path.replace(/[^\w-]+/g, '_')}.png`), fullPage: true });
    found.push(...(await seriousViolations(page, `${path} at ${String(viewport.width)} px`)));
  }
  return found;
}

const GUEST_PAGES = [
  ['/login', true],
  ['/register', true],
  ['/password/reset', true],
  ['/password/reset/a-token-from-the-mail?email=user%40example.ru', true],
  ['/no-such-page', false],
] as const;

const userPages = () =>
  [
    ['/dashboard', true],
    ['/dashboard/user/payment', true],
    ['/dashboard/user/orders', true],
    ['/chat', true],
    [`/chat?id=${String(ids.chat)}`, true],
    ['/ai-products', true],
    ['/ai-products?type=video', true],
    ...PRODUCT_VARIANTS.map((variant) => [`/ai-products/${variant}/${String(ids.product[variant])}`, true] as const),
    ['/ai-history', true],
    ['/ai-history-video', true],
    ['/ai-history?type=text', true],
    [`/sandbox/checkout?payment_id=${String(ids.pendingPayment)}`, true],
    ['/sandbox/telegram', false],
    ['/no-such-page', false],
    ['/admin', false],
  ] as const;

const adminPages = () =>
  [
    ['/admin', true],
    ['/admin/ai-products', true],
    [`/admin/ai-products/${String(ids.product.img)}`, true],
    ['/admin/ai-products?new=1', true],
    ['/admin/ai-categories', true],
    [`/admin/ai-categories/${String(ids.category)}`, true],
    ['/admin/ai-models', true],
    [`/admin/ai-models/${String(ids.model)}`, true],
    ['/admin/tariff', true],
    [`/admin/tariff/${String(catalog.monthly.id)}`, true],
    ['/admin/users', true],
    [`/admin/users/${String(user.id)}`, true],
    ['/admin/subscriptions', true],
    ['/admin/payments', true],
    ['/admin/log', true],
    ['/admin/dashboard', true],
    [`/admin/dashboard/${String(ids.card)}`, true],
    ['/admin/history', true],
    ['/admin/chat_model', true],
    ['/admin/analytics', true],
    ['/admin/providers', true],
    [`/admin/providers/${String(ids.provider)}`, true],
    ['/admin/audit', true],
    ['/admin/settings', true],
  ] as const;

/** The same pages at each viewport, in two pages of the browser at once (most of a page's time is waiting for it to settle). */
async function auditBoth(open: () => Promise<Page>, pages: readonly (readonly [path: string, widgets: boolean])[]): Promise<string[]> {
  const found = await Promise.all(VIEWPORTS.map(async (viewport) => audit(await open(), viewport, pages)));
  return found.flat();
}

describe('accessibility of every page at 1280 and 390 px (axe-core: no serious or critical violation)', () => {
  it('a guest’s pages', async () => {
    expect(await auditBoth(() => e2e.newPage({ bypassCSP: true }), GUEST_PAGES)).toEqual([]);
  });

  it('a user’s pages', async () => {
    expect(await auditBoth(() => e2e.signedInPage(user, { bypassCSP: true }), userPages())).toEqual([]);
  }, 240_000);

  it('an unconfirmed user’s dashboard with the confirmation overlay', async () => {
    expect(await auditBoth(() => e2e.signedInPage(unconfirmed, { bypassCSP: true }), [['/dashboard', true]])).toEqual([]);
  });

  it('the admin panel, every tab and a record of each kind', async () => {
    expect(await auditBoth(() => e2e.signedInPage(admin, { bypassCSP: true }), adminPages())).toEqual([]);
  }, 300_000);
});
