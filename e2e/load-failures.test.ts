import { describe, expect, it } from 'vitest';
import { newUser } from '@app/server/testing';
import { setupE2E, widgetsReady } from './support/index.ts';

/*
 * A file of the page that cannot be loaded (a dropped connection, a deploy in between): the
 * loader's boot runs without React, and React's chunk is imported beside it, so when that chunk
 * does not arrive every widget's slot says what happened, instead of the page waiting forever
 * or staying blank; when one widget's entry does not arrive, only its slot says so.
 */

const e2e = setupE2E();
const LOAD_FAILED = 'Не удалось загрузить модуль страницы. Обновите страницу.';
const DASHBOARD = ['conversion', 'dashboard', 'history-button', 'welcome-notice'];

describe('a page file that cannot be loaded', () => {
  it('React’s chunk: every widget’s slot says so, and the server’s page stays', async () => {
    const user = await newUser(e2e.t.db);
    const page = await e2e.signedInPage(user);
    await page.route(/\/assets\/host-react-[\w-]+\.js$/, (route) => route.abort('connectionreset'));
    await page.goto(e2e.url('/dashboard'));
    const state = await widgetsReady(page);
    expect(state.mounted).toEqual([]);
    expect(state.failed.sort()).toEqual(DASHBOARD);
    await expect.poll(() => page.getByRole('alert').filter({ hasText: LOAD_FAILED }).count()).toBe(DASHBOARD.length);
    // The header and its navigation are the server's: still there, still links.
    expect(await page.getByRole('navigation', { name: 'Основное меню' }).getByRole('link', { name: 'Чат' }).getAttribute('href')).toBe('/chat');
  });

  it('one widget’s entry: only its slot says so, the others mount', async () => {
    const user = await newUser(e2e.t.db);
    const page = await e2e.signedInPage(user);
    await page.route(/\/widgets\/history-button\/remoteEntry\.js/, (route) => route.abort('connectionreset'));
    await page.goto(e2e.url('/dashboard'));
    const state = await widgetsReady(page);
    expect(state.failed).toEqual(['history-button']);
    expect(state.mounted.sort()).toEqual(DASHBOARD.filter((w) => w !== 'history-button'));
    expect(await page.locator('[data-widget="history-button"]').getByRole('alert').textContent()).toBe(LOAD_FAILED);
  });
});
