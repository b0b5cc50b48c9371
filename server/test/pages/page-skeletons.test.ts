import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KIND_TEXTS } from '../../../widgets/ai-history/src/texts.ts';
import { EXAMPLES, TEXTS } from '../../../widgets/chat/src/texts.ts';
import { SUBSCRIPTION_TYPES } from '@app/contracts/browser';
import { descriptionParts } from '@app/contracts/plan-lines';
import { credit } from '../../src/features/wallet/wallet.queries.ts';
import { call, createTestApp, newUser, type TestApp } from '../support/index.ts';
import { seedCatalog, subscribe, type Catalog } from '../support/billing.ts';

/*
 * What a signed-in page draws in its widgets' places before they mount, from what the page read
 * for them: a list's empty state when its first page is empty, the plans' names and lines, a new
 * chat's words. On a phone this is the largest text of the page, painted with the HTML and CSS,
 * not a second later after the JavaScript (e2e/layout-shift.test.ts: nothing moves when the
 * widget replaces it; bench/src/phone.ts: the page's LCP).
 */

let t: TestApp;
let catalog: Catalog;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
  catalog = await seedCatalog(t.db);
});
afterAll(async () => {
  await t.close();
});

/** The HTML of `widget`'s skeleton on the page (empty when it has none). */
async function skeletonOf(url: string, cookie: string, widgetName: string): Promise<string> {
  const res = await call(t.app, { url, cookies: { session: cookie } });
  expect(res.statusCode).toBe(200);
  const at = res.body.indexOf(`data-widget="${widgetName}"`);
  if (at < 0) return '';
  // The slot runs to the next slot or the page's scripts.
  const rest = res.body.slice(at);
  const ends = [rest.indexOf('class="widget-slot"'), rest.indexOf('<script')].filter((i) => i > 0);
  const slot = rest.slice(0, Math.min(...ends, rest.length));
  return slot.includes('class="widget-skeleton"') ? slot : '';
}

/** Text as the page's HTML escapes it. */
const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

describe('a page draws what its widgets will draw first, from what it read for them', () => {
  it('a new user’s orders, balance history and histories of runs: the empty states, in the widgets’ words', async () => {
    const user = await newUser(t.db);
    expect(await skeletonOf('/dashboard/user/orders', user.cookie, 'order-history')).toContain('У вас пока нет подписок');
    expect(await skeletonOf('/dashboard/balance', user.cookie, 'balance-history')).toContain('Пока ни одного движения');
    const images = await skeletonOf('/ai-history', user.cookie, 'ai-history');
    expect(images).toContain(escaped(KIND_TEXTS.image.emptyTitle));
    expect(images).toContain(escaped(KIND_TEXTS.image.emptyText));
    const video = await skeletonOf('/ai-history-video', user.cookie, 'ai-history');
    expect(video).toContain(escaped(KIND_TEXTS.video.emptyTitle));
    expect(video).toContain(escaped(KIND_TEXTS.video.emptyText));
  });

  it('a list with records, or a later page, keeps the loading shape: no empty state over records', async () => {
    const user = await newUser(t.db);
    await subscribe(t.app, user, catalog.monthly);
    await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `skeleton-${String(user.id)}` }, 500));
    const orders = await skeletonOf('/dashboard/user/orders', user.cookie, 'order-history');
    expect(orders).toContain('sk-block--empty');
    expect(orders).not.toContain('empty-state');
    expect(await skeletonOf('/dashboard/balance', user.cookie, 'balance-history')).not.toContain('empty-state');
    const fresh = await newUser(t.db);
    expect(await skeletonOf('/dashboard/balance?page=2', fresh.cookie, 'balance-history')).not.toContain('empty-state');
  });

  it('the plans page: every monthly plan’s name and description lines as the API lists them, the packages and the buttons loading', async () => {
    const user = await newUser(t.db);
    const res = await call(t.app, { url: '/api/new/tariff?frontend=0', token: user.token });
    const tariffs = res.data.json as { name: string; subscriptions_type: number; description: string[] }[];
    const plans = tariffs.filter((p) => p.subscriptions_type !== SUBSCRIPTION_TYPES.package);
    expect(plans.length).toBeGreaterThan(0);
    const html = await skeletonOf('/dashboard/user/payment', user.cookie, 'tariffs');
    for (const plan of plans) {
      expect(html).toContain(`<h3 class="plan__name">${escaped(plan.name)}</h3>`);
      for (const line of plan.description) {
        for (const part of descriptionParts(line)) if (part.type === 'text') expect(html).toContain(`<span>${escaped(part.text)}</span>`);
      }
    }
    for (const pack of tariffs.filter((p) => p.subscriptions_type === SUBSCRIPTION_TYPES.package)) expect(html).not.toContain(escaped(pack.name));
    expect(html).toContain('sk-block--packages');
  });

  it('/chat opening a new chat shows the chat’s own words and examples; a chat in the address is not drawn as a new one', async () => {
    const user = await newUser(t.db);
    const html = await skeletonOf('/chat', user.cookie, 'chat');
    for (const text of [TEXTS.emptyTitle, TEXTS.emptyText, TEXTS.chats, ...EXAMPLES]) expect(html).toContain(escaped(text));
    expect(await skeletonOf('/chat?id=12', user.cookie, 'chat')).toBe('');
  });
});
