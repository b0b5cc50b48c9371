import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageReads } from '../../src/features/pages/page-context.ts';
import { call, createTestApp, newUser, type TestApp } from '../support/index.ts';
import { seedCatalog } from '../support/billing.ts';
import { credit } from '../../src/features/wallet/wallet.queries.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
});
afterAll(async () => {
  await t.close();
});

interface PageReply {
  path: string;
  request: { query?: Record<string, string | number> };
  json: unknown;
  at: number;
}

const page = (url: string, cookie?: string) => call(t.app, { url, ...(cookie ? { cookies: { session: cookie } } : {}) });

/** The replies a page hands its widgets (`<script id="page-data">`), as the loader reads them. */
function repliesOf(html: string): PageReply[] | null {
  const match = /<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(html);
  return match?.[1] === undefined ? null : (JSON.parse(match[1]) as PageReply[]);
}

/** What the API itself answers the same user for the same read. */
async function apiJson(path: string, token: string): Promise<unknown> {
  const res = await call(t.app, { url: path, token });
  expect(res.statusCode).toBe(200);
  return res.data.json;
}

describe('a signed-in page hands its widgets what they read first', () => {
  it('/dashboard/user/payment: the plans and the subscription check, as the API answers them, under the keys the widget asks', async () => {
    const user = await newUser(t.db);
    const started = Date.now();
    const res = await page('/dashboard/user/payment', user.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const replies = repliesOf(res.body);
    expect(replies?.map((r) => [r.path, r.request])).toEqual([
      ['/api/new/tariff', { query: { frontend: '0' } }],
      ['/api/new/subscribe/check', {}],
    ]);
    expect(replies?.[0]?.json).toEqual(await apiJson('/api/new/tariff?frontend=0', user.token));
    expect(replies?.[1]?.json).toEqual(await apiJson('/api/new/subscribe/check', user.token));
    for (const r of replies ?? []) expect(r.at).toBeGreaterThanOrEqual(started);
  });

  it('/dashboard: the account, its plan, the news cards and the welcome notice as the API answers them, and its skeletons drawn from them', async () => {
    const user = await newUser(t.db);
    await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `page-reads-${String(user.id)}` }, 777));
    const res = await page('/dashboard', user.cookie);
    expect(res.statusCode).toBe(200);
    const replies = repliesOf(res.body) ?? [];
    expect(replies.map((r) => [r.path, r.request])).toEqual([
      ['/api/new/user', {}],
      ['/api/new/subscribe/check_user', {}],
      ['/api/new/dashboard', {}],
      ['/api/new/welcome', {}],
    ]);
    for (const r of replies) expect(r.json).toEqual(await apiJson(r.path, user.token));
    // The skeletons show what was read: the balance of this user, the plan's state, the welcome notice.
    expect(res.body).toContain('<span class="balances__value">777</span>');
    expect(res.body).toMatch(/data-widget="welcome-notice"[^>]*><div class="widget-skeleton"[^]*Подарок новым пользователям/);
  });

  it('/dashboard/balance?page=2: that user’s own account, referral summary and the page of the history in the address', async () => {
    const user = await newUser(t.db);
    const other = await newUser(t.db);
    const res = await page('/dashboard/balance?page=2', user.cookie);
    const replies = repliesOf(res.body) ?? [];
    expect(replies.map((r) => [r.path, r.request])).toEqual([
      ['/api/new/user', {}],
      ['/api/new/referral', {}],
      ['/api/new/balance/history', { query: { page: 2 } }],
    ]);
    expect(replies[0]?.json).toMatchObject({ email: user.email });
    expect(res.body).not.toContain(other.email);
    expect(replies[2]?.json).toEqual(await apiJson('/api/new/balance/history?page=2', user.token));
  });

  it('/dashboard/user/orders and the histories of runs read their first page (a page number that is not one reads as 1)', async () => {
    const user = await newUser(t.db);
    const orders = repliesOf((await page('/dashboard/user/orders', user.cookie)).body);
    expect(orders?.map((r) => [r.path, r.request])).toEqual([['/api/new/subscribe', { query: { page: 1 } }]]);
    const texts = repliesOf((await page('/ai-history?type=text&page=abc', user.cookie)).body);
    expect(texts?.map((r) => [r.path, r.request])).toEqual([['/api/new/generations', { query: { type: 'text', page: 1 } }]]);
    const video = repliesOf((await page('/ai-history-video?page=3', user.cookie)).body);
    expect(video?.map((r) => [r.path, r.request])).toEqual([['/api/new/generations', { query: { type: 'video', page: 3 } }]]);
  });

  it('/chat: the models of the composer, the account with its balances and the first ten chats of the list', async () => {
    const user = await newUser(t.db);
    const replies = repliesOf((await page('/chat', user.cookie)).body);
    expect(replies?.map((r) => [r.path, r.request])).toEqual([
      ['/api/new/chat_models', {}],
      ['/api/new/user', {}],
      ['/api/new/chat', { query: { page: 1, per_page: 10 } }],
    ]);
    expect(replies?.[0]?.json).toEqual(await apiJson('/api/new/chat_models', user.token));
    expect(replies?.[2]?.json).toEqual(await apiJson('/api/new/chat?page=1&per_page=10', user.token));
  });

  it('escapes what it hands over inside its script element', async () => {
    const user = await newUser(t.db);
    const hostile = 'План </script><script>alert(1)</script>';
    const { pro } = await seedCatalog(t.db);
    await t.db.updateTable('tariffs').set({ name: hostile }).where('id', '=', pro.id).execute();
    // Changed behind the admin API's back: the cached plans are dropped as an admin's edit drops them.
    t.ctx.plans.clear();
    const res = await page('/dashboard/user/payment', user.cookie);
    expect(res.body).not.toContain('<script>alert(1)');
    expect(JSON.stringify(repliesOf(res.body)?.[0]?.json)).toContain(JSON.stringify(hostile));
  });

  it('a guest’s page and a page without reads hand over nothing; a guest is still sent to sign in', async () => {
    const user = await newUser(t.db);
    expect(repliesOf((await page('/login')).body)).toBeNull();
    expect(repliesOf((await page('/settings', user.cookie)).body)).toBeNull();
    const guest = await page('/dashboard/user/payment');
    expect(guest.statusCode).toBe(302);
    expect(guest.body).not.toContain('page-data');
  });

  it('leaves out a read the API refuses (its widget asks and shows the error itself)', async () => {
    const user = await newUser(t.db);
    const req = { headers: { cookie: `session=${user.cookie}` }, ip: '127.0.0.1' } as unknown as FastifyRequest;
    const replies = await pageReads(t.app, req, [
      { path: '/api/new/no-such-route', request: {} },
      { path: '/api/new/balance/history', request: { query: { page: 'x' } } },
      { path: '/api/new/user', request: {} },
    ]);
    expect(replies.map((r) => r.path)).toEqual(['/api/new/user']);
    const asGuest = await pageReads(t.app, { headers: {}, ip: '127.0.0.1' } as unknown as FastifyRequest, [{ path: '/api/new/user', request: {} }]);
    expect(asGuest).toEqual([]);
  });
});
