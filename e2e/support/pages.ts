import type { Page } from 'playwright-core';

interface LoaderWindow {
  __widgetsReady?: Promise<void>;
}

/** What the loader left on the page: mounted and failed widgets, for assertions and failure reports. */
export interface WidgetState {
  mounted: string[];
  failed: string[];
}

/** Waits until the loader has mounted (or given up on) every widget of the current page. */
export async function widgetsReady(page: Page): Promise<WidgetState> {
  await page.waitForFunction(() => (globalThis as LoaderWindow).__widgetsReady !== undefined, undefined, { timeout: 15_000 });
  await page.evaluate(() => (globalThis as LoaderWindow).__widgetsReady);
  return widgetState(page);
}

export async function widgetState(page: Page): Promise<WidgetState> {
  const names = async (selector: string) => Promise.all((await page.locator(selector).all()).map(async (el) => (await el.getAttribute('data-widget')) ?? ''));
  return { mounted: await names('[data-widget][data-mounted]'), failed: await names('[data-widget][data-failed]') };
}

/** The widget manifest the server embedded in the current page. */
export async function pageManifest(page: Page): Promise<Record<string, { entry: string; version: string }>> {
  const text = await page.locator('#widget-manifest').textContent();
  return JSON.parse(text ?? '{}') as Record<string, { entry: string; version: string }>;
}

/** Opens `path` and waits for the widgets; fails if one of them did not load. */
export async function openPage(page: Page, url: string): Promise<WidgetState> {
  await page.goto(url);
  return expectWidgetsLoaded(page);
}

/** After a navigation the page itself started (a form redirect): waits for `pathname`, then the widgets. */
export async function afterNavigation(page: Page, pathname: string | RegExp): Promise<WidgetState> {
  await page.waitForURL((url) => (typeof pathname === 'string' ? url.pathname === pathname : pathname.test(url.pathname)), { timeout: 15_000 });
  return expectWidgetsLoaded(page);
}

async function expectWidgetsLoaded(page: Page): Promise<WidgetState> {
  const state = await widgetsReady(page);
  if (state.failed.length) throw new Error(`widgets failed to load on ${page.url()}: ${state.failed.join(', ')}`);
  return state;
}
