import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../server/src/config.ts';
import { createTestApp } from '@app/server/testing';
import { REPO_ROOT, buildDevLoader, freePort, startWidgetDevServer, type WidgetDevServer } from '../scripts/dev-widgets.ts';
import { openPage, pageManifest, setupE2E } from './support/index.ts';

// `npm run dev -- auth` in one file: the app (WIDGET_DEV_SERVERS, the development loader) with
// `vite dev` of a scratch copy of the auth widget, so edits never touch the repository.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-e2e-dev-'));
const authCopy = path.join(scratch, 'widgets', 'auth');
const devLoaderDir = path.join(scratch, 'dev-loader');
fs.mkdirSync(path.dirname(authCopy));
// Packages resolve from the scratch copy through the repository's node_modules.
fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(scratch, 'node_modules'), 'dir');
fs.cpSync(path.join(REPO_ROOT, 'widgets', 'auth'), authCopy, { recursive: true, filter: (src) => !/[/\\](node_modules|dist)$/.test(src) });

// The federation plugin turns itself off under a test runner; this dev server is the real thing.
process.env.MFE_VITE_NO_TEST_ENV_CHECK = 'true';

let dev: WidgetDevServer | undefined;
const env: Record<string, string> = { LOADER_DIR: devLoaderDir };

beforeAll(async () => {
  await buildDevLoader(devLoaderDir);
  dev = await startWidgetDevServer({
    name: 'auth',
    dir: authCopy,
    host: '127.0.0.1',
    port: await freePort(20_000 + Math.floor(Math.random() * 20_000), '127.0.0.1'),
    overrides: { logLevel: 'silent', cacheDir: path.join(scratch, '.vite'), server: { fs: { allow: [scratch, REPO_ROOT] } } },
  });
  // Read by setupE2E's beforeAll, which runs after this one.
  env.WIDGET_DEV_SERVERS = `auth=${dev.origin}`;
});
const e2e = setupE2E({ env });
afterAll(async () => {
  await dev?.server.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const devOrigin = () => dev?.origin ?? '';

interface DevWindow {
  __vite_plugin_react_preamble_installed__?: boolean;
  __beforeEdit?: boolean;
}

function parseCsp(header: unknown): Map<string, string[]> {
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name = '', ...values]) => [name, values]),
  );
}

/** Replaces a text in the copy's component sources; fails if none has it. */
function editCopy(from: string, to: string): void {
  const dir = path.join(authCopy, 'src');
  const file = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.tsx') && !f.includes('.test.') && !f.includes('.stories.'))
    .find((f) => fs.readFileSync(path.join(dir, f), 'utf8').includes(from));
  if (!file) throw new Error(`no source of the auth widget contains "${from}"`);
  const full = path.join(dir, file);
  fs.writeFileSync(full, fs.readFileSync(full, 'utf8').replace(from, to));
}

describe('development mode (WIDGET_DEV_SERVERS)', () => {
  it('mounts the widget from its vite dev server, after the React-refresh preamble, with a CSP allowing that origin', async () => {
    const page = await e2e.newPage();
    const response = await page.goto(e2e.url('/login'));
    const csp = parseCsp(response?.headers()['content-security-policy']);
    expect(csp.get('script-src')).toEqual(["'self'", devOrigin()]);
    expect(csp.get('connect-src')).toEqual(["'self'", devOrigin(), devOrigin().replace('http://', 'ws://')]);
    expect(csp.get('style-src')).toEqual(["'self'", expect.stringMatching(/^'nonce-[\w+/=]+'$/)]);

    expect((await openPage(page, e2e.url('/login'))).mounted).toEqual(['auth']);
    expect((await pageManifest(page)).auth?.entry).toBe(`${devOrigin()}/widgets/auth/remoteEntry.js`);
    // The preamble is a module script of ours (no inline script), before the loader.
    const scripts = await Promise.all((await page.locator('script[src]').all()).map((el) => el.getAttribute('src')));
    expect(scripts[0]).toBe('/dev/react-refresh.js');
    expect(scripts[1]).toMatch(/^\/assets\/loader\.js/);
    const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((r) => r.name));
    expect(loaded).toContain(`${devOrigin()}/widgets/auth/src/AuthForm.tsx`);
    expect(await page.evaluate(() => (globalThis as DevWindow).__vite_plugin_react_preamble_installed__)).toBe(true);
  });

  it('hot-reloads an edited component in the page without a reload, keeping its state', async () => {
    const page = await e2e.newPage();
    await openPage(page, e2e.url('/login'));
    const email = page.getByLabel('Email');
    await email.fill('dev.mode@example.ru');
    let navigations = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations++;
    });
    await page.evaluate(() => Object.assign(globalThis, { __beforeEdit: true }));

    const subtitle = page.locator('.card__subtitle').first();
    const before = (await subtitle.textContent())?.trim() ?? '';
    expect(before).not.toBe('');
    const changed = `${before} (правка на лету)`;
    editCopy(before, changed);
    // Vite pushes the change over its socket; React re-renders the component in place.
    await expect.poll(async () => (await subtitle.textContent())?.trim(), { timeout: 15_000 }).toBe(changed);
    expect(await email.inputValue()).toBe('dev.mode@example.ru');
    expect(await page.evaluate(() => (globalThis as DevWindow).__beforeEdit)).toBe(true);
    expect(navigations).toBe(0);
  });
});

describe('without WIDGET_DEV_SERVERS', () => {
  it('keeps the CSP, the manifest and the routes of production', async () => {
    const t = await createTestApp({ workers: false });
    try {
      expect(t.config.widgetDevServers).toEqual({});
      const res = await t.app.inject({ url: '/login' });
      const csp = parseCsp(res.headers['content-security-policy']);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('connect-src')).toEqual(["'self'"]);
      expect(res.body).not.toContain('/dev/react-refresh.js');
      expect(res.body).toMatch(/"entry":"\/widgets\/auth\/remoteEntry\.js\?v=/);
      expect((await t.app.inject({ url: '/dev/react-refresh.js' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('is parsed as <widget>=<origin> pairs and refused in production', () => {
    expect(loadConfig({ WIDGET_DEV_SERVERS: 'auth=http://localhost:5101, tariffs=http://127.0.0.1:5110/' }).widgetDevServers).toEqual({
      auth: 'http://localhost:5101',
      tariffs: 'http://127.0.0.1:5110',
    });
    const refused = (value: string, nodeEnv = 'development') => {
      try {
        loadConfig({ NODE_ENV: nodeEnv, APP_SECRET: 'x'.repeat(32), WIDGET_DEV_SERVERS: value });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      throw new Error(`accepted WIDGET_DEV_SERVERS=${value}`);
    };
    expect(refused('auth=http://localhost:5101', 'production')).toContain('WIDGET_DEV_SERVERS: is for development only');
    for (const bad of ['auth', 'auth=localhost:5101', 'Auth=http://localhost:5101', 'auth=http://localhost:5101/widgets/auth/', 'auth=ftp://localhost', 'auth=http://a:1,auth=http://b:2']) {
      expect(refused(bad)).toContain('WIDGET_DEV_SERVERS');
    }
  });
});
