import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { OMNIBOX_POPUP_FEATURES, launchBrowser } from './support/browser.ts';

/**
 * Chromium reads only the last `--disable-features` of its command line, and ours comes after
 * playwright's: it must carry every feature playwright turns off, or an upgrade of playwright
 * silently turns them back on in every browser test and in the bench.
 */
describe('the Chromium of the tests and the bench', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
  });

  it('runs with every feature playwright turns off still off, and without the address bar’s WebUI popup', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto('chrome://version');
    const commandLine = (await page.locator('#command_line').textContent()) ?? '';
    const lists = [...commandLine.matchAll(/--disable-features=(\S+)/g)].map((m) => (m[1] ?? '').split(','));
    // Playwright's own and ours.
    expect(lists.length).toBeGreaterThanOrEqual(2);
    const effective = lists.at(-1) ?? [];
    for (const feature of [...lists.slice(0, -1).flat(), ...OMNIBOX_POPUP_FEATURES]) expect(effective).toContain(feature);
  });
});
