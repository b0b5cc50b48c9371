import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newUser } from '@app/server/testing';
import pino from 'pino';
import { seed } from '../server/src/db/seed.ts';
import { setupE2E, widgetsReady } from './support/index.ts';

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
