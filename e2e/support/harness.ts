import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, onTestFinished } from 'vitest';
import { createTestApp, type TestApp, type TestAppOptions } from '@app/server/testing';
import { launchBrowser } from './browser.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** Where screenshots of failed tests go (printed on failure). */
export const ARTIFACTS_DIR = process.env.E2E_ARTIFACTS_DIR ?? path.join(os.tmpdir(), 'neurostudio-e2e');

export interface E2E {
  /** The app on its own database and SMTP server, listening on `t.baseUrl`. */
  readonly t: TestApp;
  readonly browser: Browser;
  /**
   * A page in a fresh browser context (own cookies and storage) for the current test,
   * closed when the test ends; a failed test leaves a screenshot and the page's errors.
   */
  newPage(): Promise<Page>;
  /** `t.baseUrl` + path. */
  url(pathname: string): string;
  /** A fresh page signed in as `user`: the session cookie for the pages, the bearer token in storage for the widgets. */
  signedInPage(user: { cookie: string; token: string }): Promise<Page>;
}

function assertFrontendBuilt(): void {
  if (!fs.existsSync(path.join(REPO_ROOT, 'host-pages', 'dist', 'loader.js'))) {
    throw new Error('the frontend is not built: run `npm run build` (npm test does it first)');
  }
}

const fileSafe = (name: string) => name.replace(/[^\p{L}\p{N}._-]+/gu, '-').slice(0, 120);

/** Starts one app and one Chromium for the test file; call at the top level of the file. */
export function setupE2E(opts: TestAppOptions = {}): E2E {
  let t: TestApp | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    assertFrontendBuilt();
    [t, browser] = await Promise.all([createTestApp(opts), launchBrowser()]);
    await t.listen();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const e2e: E2E = {
    get t() {
      if (!t) throw new Error('the app is not started yet (use it inside a test)');
      return t;
    },
    get browser() {
      if (!browser) throw new Error('the browser is not started yet (use it inside a test)');
      return browser;
    },
    url: (pathname) => new URL(pathname, e2e.t.baseUrl).toString(),
    async signedInPage(user) {
      const page = await e2e.newPage();
      await page.context().addCookies([{ name: 'session', value: user.cookie, url: e2e.t.baseUrl }]);
      await page.addInitScript({ content: `window.localStorage.setItem('auth_token', ${JSON.stringify(user.token)});` });
      return page;
    },
    async newPage() {
      const testName = expect.getState().currentTestName ?? 'test';
      const context: BrowserContext = await e2e.browser.newContext({ locale: 'ru-RU', timezoneId: 'Europe/Moscow', viewport: { width: 1280, height: 800 } });
      // Generous: in `npm test` the server and widget projects share the two cores with the browser.
      context.setDefaultTimeout(15_000);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
      page.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(`console.error: ${msg.text()}`);
      });
      // One hook for both: vitest runs onTestFinished before onTestFailed, and the context must outlive the screenshot.
      onTestFinished(async ({ task }) => {
        if (task.result?.state === 'fail') {
          fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
          const file = path.join(ARTIFACTS_DIR, `${fileSafe(testName)}-${Date.now().toString(36)}.png`);
          const saved = await page.screenshot({ path: file, fullPage: true }).then(
            () => true,
            () => false,
          );
          console.error([`[e2e] ${testName}: failed at ${page.url()}`, saved ? `[e2e] screenshot: ${file}` : '[e2e] no screenshot (page closed)', ...errors].join('\n'));
        }
        await context.close();
      });
      return page;
    },
  };
  return e2e;
}
