import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newUser } from '@app/server/testing';
import pino from 'pino';
import { seed } from '../server/src/db/seed.ts';
import { setupE2E, widgetsReady } from './support/index.ts';

/*
 * Nothing moves as a page's widgets mount and load their data: each page's server HTML holds a
 * skeleton in each widget's place, of the widget's shape, and a widget still loading keeps it.
 * On a phone's screen and a slow phone (a round trip of 150 ms, the CPU 4× slower), the page's
 * layout shifts (PerformanceObserver 'layout-shift') add up to at most 0.02 once every widget has
 * mounted and none shows a loading state any more.
 */

const e2e = setupE2E();
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const MAX_SHIFT = 0.02;

// What a new installation holds: the plans and packages, the news cards, the catalogues.
beforeAll(() => seed(e2e.t.db, pino({ level: 'silent' })));

const OBSERVE = `window.__shifts = []; new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts.push(e.value); }).observe({ type: 'layout-shift', buffered: true });`;

/** Opens `path` on a slow phone and waits until every widget has mounted and drawn its data (no slot held, nothing busy); the page's total layout shift. */
async function shiftOf(page: Page, path: string): Promise<number> {
  await page.addInitScript({ content: OBSERVE });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: -1, uploadThroughput: -1 });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(e2e.url(path));
  const state = await widgetsReady(page);
  expect(state.failed).toEqual([]);
  await page.waitForFunction((settled) => !(globalThis as unknown as { document: { querySelector: (s: string) => unknown } }).document.querySelector(settled), '[data-holding], .widget-ghost, .widget-skeleton, [data-widget] [aria-busy="true"]:not(button)', { timeout: 20_000 });
  // A frame after the last change, so its shift (if any) is reported.
  await page.evaluate(() => {
    const frame = (globalThis as unknown as { requestAnimationFrame: (f: () => void) => void }).requestAnimationFrame;
    return new Promise<void>((resolve) => frame(() => frame(resolve)));
  });
  return page.evaluate(() => (globalThis as unknown as { __shifts: number[] }).__shifts.reduce((a, b) => a + b, 0));
}

describe('layout shift on a slow phone', () => {
  it.each(['/login', '/register', '/password/reset'])('%s (guest) does not move as it loads', async (path) => {
    const page = await e2e.newPage(PHONE);
    expect(await shiftOf(page, path)).toBeLessThanOrEqual(MAX_SHIFT);
  });

  const SIGNED_IN = ['/dashboard', '/dashboard/user/payment', '/dashboard/user/orders', '/dashboard/balance', '/chat', '/ai-products', '/ai-history'];

  it.each(SIGNED_IN)('%s (signed in) does not move as its widgets load', async (path) => {
    const user = await newUser(e2e.t.db);
    const page = await e2e.signedInPage(user, PHONE);
    expect(await shiftOf(page, path)).toBeLessThanOrEqual(MAX_SHIFT);
  });

  it.each(SIGNED_IN)('%s on a wide screen does not move either', async (path) => {
    const user = await newUser(e2e.t.db);
    const page = await e2e.signedInPage(user);
    expect(await shiftOf(page, path)).toBeLessThanOrEqual(MAX_SHIFT);
  });

  it("the dashboard's server HTML holds the plan, the balances and the welcome notice in the widgets' places", async () => {
    const user = await newUser(e2e.t.db);
    const res = await fetch(e2e.url('/dashboard'), { headers: { cookie: `session=${user.cookie}` } });
    const body = await res.text();
    expect(body).toContain('<meta name="description"');
    expect(body).toMatch(/data-widget="dashboard"[^>]*data-hold[^>]*><div class="widget-skeleton" inert aria-hidden="true">/);
    expect(body).toContain('Нет активной подписки');
    expect(body).toContain('<span class="balances__value">0</span>');
    expect(body).toMatch(/data-widget="welcome-notice"[^>]*><div class="widget-skeleton"[^]*Подарок новым пользователям/);
  });
});
