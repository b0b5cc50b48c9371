import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, onTestFinished } from 'vitest';
import { createTestApp, startCluster, type Cluster, type ClusterOptions, type TestApp, type TestAppOptions } from '@app/server/testing';
import { launchBrowser } from './browser.ts';
import { unstyledGroupClasses, watchStyleGroups } from './style-groups.ts';

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
   * `options` add to the context's (e.g. `bypassCSP` to inject a test tool's script).
   */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /** `t.baseUrl` + path. */
  url(pathname: string): string;
  /** A fresh page signed in as `user`: the session cookie for the pages, the bearer token in storage for the widgets. */
  signedInPage(user: { cookie: string; token: string }, options?: BrowserContextOptions): Promise<Page>;
}

function assertFrontendBuilt(): void {
  if (!fs.existsSync(path.join(REPO_ROOT, 'host-pages', 'dist', 'loader.js'))) {
    throw new Error('the frontend is not built: run `npm run build` (npm test does it first)');
  }
}

const fileSafe = (name: string) => name.replace(/[^\p{L}\p{N}._-]+/gu, '-').slice(0, 120);

/** Pages in fresh browser contexts against `baseUrl`: what every harness gives its tests. */
export interface PageMaker {
  readonly browser: Browser;
  /**
   * A page in a fresh browser context (own cookies and storage) for the current test,
   * closed when the test ends; a failed test leaves a screenshot and the page's errors.
   */
  newPage: (options?: BrowserContextOptions) => Promise<Page>;
  /** The base URL + path. */
  url: (pathname: string) => string;
  /** A fresh page signed in as `user`: the session cookie for the pages, the bearer token in storage for the widgets. */
  signedInPage: (user: { cookie: string; token: string }, options?: BrowserContextOptions) => Promise<Page>;
}

/** The page side of a harness over a browser and a base URL known once the file's `beforeAll` ran. */
export function pageMaker(getBrowser: () => Browser, getBaseUrl: () => string): PageMaker {
  const maker: PageMaker = {
    get browser() {
      return getBrowser();
    },
    url: (pathname) => new URL(pathname, getBaseUrl()).toString(),
    async signedInPage(user, options) {
      const page = await maker.newPage(options);
      await page.context().addCookies([{ name: 'session', value: user.cookie, url: getBaseUrl() }]);
      await page.addInitScript({ content: `window.localStorage.setItem('auth_token', ${JSON.stringify(user.token)});` });
      return page;
    },
    async newPage(options = {}) {
      const testName = expect.getState().currentTestName ?? 'test';
      const context: BrowserContext = await getBrowser().newContext({ locale: 'ru-RU', timezoneId: 'Europe/Moscow', viewport: { width: 1280, height: 800 }, ...options });
      // Generous: in `npm test` the server and widget projects share the two cores with the browser.
      context.setDefaultTimeout(15_000);
      await watchStyleGroups(context);
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
        // A class of a style group on a page that did not link the group's stylesheet fails the test.
        const unstyled = task.result?.state === 'fail' ? [] : await unstyledGroupClasses(page);
        await context.close();
        if (unstyled.length > 0) throw new Error(`classes of a style group on a page without its stylesheet: ${unstyled.join(', ')}`);
      });
      return page;
    },
  };
  return maker;
}

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

  const app = () => {
    if (!t) throw new Error('the app is not started yet (use it inside a test)');
    return t;
  };
  const pages = pageMaker(
    () => {
      if (!browser) throw new Error('the browser is not started yet (use it inside a test)');
      return browser;
    },
    () => app().baseUrl,
  );
  return {
    get t() {
      return app();
    },
    get browser() {
      return pages.browser;
    },
    url: pages.url,
    signedInPage: pages.signedInPage,
    newPage: pages.newPage,
  };
}

/** The service as production runs it (web processes, a worker, nginx: see `startCluster`) and one Chromium, for the test file. */
export interface ClusterE2E extends PageMaker {
  readonly cluster: Cluster;
}

export function setupClusterE2E(opts: ClusterOptions = {}): ClusterE2E {
  let cluster: Cluster | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    assertFrontendBuilt();
    [cluster, browser] = await Promise.all([startCluster(opts), launchBrowser()]);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await cluster?.close();
  });
  const running = () => {
    if (!cluster) throw new Error('the cluster is not started yet (use it inside a test)');
    return cluster;
  };
  const pages = pageMaker(
    () => {
      if (!browser) throw new Error('the browser is not started yet (use it inside a test)');
      return browser;
    },
    () => running().url,
  );
  return Object.defineProperty(Object.create(pages) as PageMaker, 'cluster', { get: running }) as ClusterE2E;
}
