import { describe, expect, it } from 'vitest';
import { newUser } from '@app/server/testing';
import { openPage, setupE2E, shots } from './support/index.ts';

/*
 * The header's menu on a phone (390 px): it scrolls sideways, every item can be reached, and on
 * each page its own item is brought into view.
 */

const e2e = setupE2E();

/** Where the current item sits against the menu's visible part, and how far the menu can scroll. */
const menuState = (page: import('playwright-core').Page) =>
  page.evaluate<{ inView: boolean; current: string; scrollable: boolean; moreRight: boolean; moreLeft: boolean }>(`(() => {
    const menu = document.querySelector('.site-nav');
    const current = menu?.querySelector('[aria-current="page"]');
    if (!menu || !current) return { inView: false, current: '', scrollable: false, moreRight: false, moreLeft: false };
    const box = menu.getBoundingClientRect();
    const at = current.getBoundingClientRect();
    return {
      inView: at.left >= box.left - 1 && at.right <= box.right + 1 && at.right <= window.innerWidth + 1,
      current: current.textContent,
      scrollable: menu.scrollWidth > menu.clientWidth,
      moreRight: menu.hasAttribute('data-more-right'),
      moreLeft: menu.hasAttribute('data-more-left'),
    };
  })()`);

describe('the header’s menu on a phone', () => {
  it('brings each page’s own item into view, the last ones included, and says which side hides more', async () => {
    const user = await newUser(e2e.t.db);
    const page = await e2e.signedInPage(user);
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [url, label] of [
      ['/dashboard', 'Главная'],
      ['/ai-history', 'История'],
      ['/dashboard/user/payment', 'Тарифы'],
      ['/dashboard/user/orders', 'Заказы'],
    ] as const) {
      await openPage(page, e2e.url(url));
      await expect.poll(() => menuState(page)).toMatchObject({ current: label, inView: true });
    }
    const last = await menuState(page);
    expect(last).toMatchObject({ scrollable: true, moreLeft: true });
    await openPage(page, e2e.url('/dashboard'));
    await expect.poll(() => menuState(page)).toMatchObject({ moreRight: true, moreLeft: false });
    await shots(page, 'header-nav-dashboard');
  });

  it('a window narrowed to a phone’s width (a turned tablet, a resized window) brings the current item back into view', async () => {
    const user = await newUser(e2e.t.db);
    const page = await e2e.signedInPage(user);
    await page.setViewportSize({ width: 1280, height: 800 });
    await openPage(page, e2e.url('/dashboard/user/orders'));
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => menuState(page)).toMatchObject({ current: 'Заказы', inView: true, moreLeft: true, moreRight: false });
    await shots(page, 'header-nav-orders');
  });
});
