import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newUser } from '@app/server/testing';
import { instrument } from '../bench/src/react-copies.ts';
import { buildWidget, linkNodeModules, repoWorkspaces, setupE2E } from './support/index.ts';

// A frontend team's own checkout: one widget (history-button, on /dashboard beside three others)
// and the kit, with its own node_modules, where @app/kit is that checkout's copy. Its build is
// served in place of the repository's; the page's other widgets are the repository's builds.
const REPO_ROOT = path.resolve(import.meta.dirname, '..');
const WIDGET = 'history-button';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-e2e-federation-'));
const checkout = path.join(scratch, 'checkout');
const widgetCopy = path.join(checkout, 'widgets', WIDGET);
const kitCopy = path.join(checkout, 'widgets', 'kit');
const served = path.join(scratch, 'served');

const withoutBuilds = (src: string) => !/[/\\](node_modules|dist)$/.test(src);
fs.cpSync(path.join(REPO_ROOT, 'widgets', WIDGET), widgetCopy, { recursive: true, filter: withoutBuilds });
fs.cpSync(path.join(REPO_ROOT, 'widgets', 'kit'), kitCopy, { recursive: true, filter: withoutBuilds });
// The checkout's node_modules: the repository's packages, but its own kit.
linkNodeModules(checkout, { ...repoWorkspaces(), '@app/kit': kitCopy });
// What the server serves: every widget's build from the repository, the checkout's in place of its own.
fs.mkdirSync(served);
for (const name of fs.readdirSync(path.join(REPO_ROOT, 'widgets'))) {
  fs.symlinkSync(name === WIDGET ? widgetCopy : path.join(REPO_ROOT, 'widgets', name), path.join(served, name));
}

const e2e = setupE2E({ env: { WIDGETS_DIR: served } });
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Builds the checkout's widget; a build that fails answers its output. */
const buildCopy = () => buildWidget(widgetCopy);

/** The code every mount of the checkout's last build loads (its entry and `preload` files, which hold its share map). */
function builtCode(): string {
  const { preload } = JSON.parse(fs.readFileSync(path.join(widgetCopy, 'dist', 'widget.json'), 'utf8')) as { preload: string[] };
  return ['remoteEntry.js', ...preload.map((url) => url.replace(`/widgets/${WIDGET}/`, ''))].map((f) => fs.readFileSync(path.join(widgetCopy, 'dist', f), 'utf8')).join('\n');
}

function setKitVersion(version: string): void {
  const file = path.join(kitCopy, 'package.json');
  const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string };
  fs.writeFileSync(file, JSON.stringify({ ...pkg, version }, null, 2));
}

/** Opens /dashboard as a fresh user and reports what mounted, what failed and how many Reacts ran. */
async function openDashboard() {
  const user = await newUser(e2e.t.db);
  const page = await e2e.signedInPage(user);
  const probe = await instrument(page);
  const warnings: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'warning' || msg.type() === 'error') warnings.push(msg.text());
  });
  await page.goto(e2e.url('/dashboard'));
  const measured = await probe.measure('/dashboard');
  // What the page's federation host offers its remotes (a function, not a string: the CSP forbids evaluating one).
  const offered = await page.evaluate(() => {
    const federation = (globalThis as { __FEDERATION__?: { __INSTANCES__?: { name: string; options: { shared?: Record<string, unknown> } }[] } }).__FEDERATION__;
    return Object.keys(federation?.__INSTANCES__?.find((i) => i.name === 'ns_host')?.options.shared ?? {}).sort();
  });
  const declared = [...new Set(['welcome-notice', 'dashboard', 'history-button', 'conversion'].flatMap((name) => (JSON.parse(fs.readFileSync(path.join(served, name, 'dist', 'widget.json'), 'utf8')) as { hostModules: string[] }).hostModules))].sort();
  return { ...measured, warnings, offered, declared };
}

describe('a widget built from another checkout', () => {
  it('with a newer patch of the kit loads beside the others, on the page’s one React and one kit', async () => {
    setKitVersion('0.1.1');
    expect(await buildCopy()).toEqual({ ok: true });
    const shareMap = builtCode();
    // It was built against 0.1.1 and accepts any 0.1.x: the page offers 0.1.0.
    expect(shareMap).toMatch(/"?@app\/kit"?:\w+\(`@app\/kit`,`0\.1\.1`[^)]*requiredVersion:`\^0\.1\.0`/);

    const result = await openDashboard();
    expect(result.failed).toEqual([]);
    expect(result.mounted.sort()).toEqual(['conversion', 'dashboard', 'history-button', 'welcome-notice']);
    expect(result.reactCopies).toBe(1);
    expect(result.renderers).toBe(1);
    expect(result.warnings.filter((w) => /does not satisfy|multiple module federation runtime/i.test(w))).toEqual([]);
    // The page offers what its widgets' remotes declare, and nothing else (no React DOM entry: none of them imports it).
    expect(result.offered).toEqual(result.declared);
    expect(result.offered).not.toContain('react-dom');
    expect(result.offered).toContain('@app/kit');
    // Its files came from the checkout's build; React and the kit from the page's loader.
    expect(result.scripts.filter((s) => s.startsWith(`/widgets/${WIDGET}/`)).length).toBeGreaterThan(0);
  });

  it('built against another minor of the kit: the runtime reports the mismatch, and the page keeps its one React and kit', async () => {
    setKitVersion('0.2.0');
    expect(await buildCopy()).toEqual({ ok: true });
    const result = await openDashboard();
    // The runtime's check (singleton, strictVersion) names the kit, the page's version and the range
    // the widget asks for. @module-federation/vite's glue logs it and goes on with the page's copy,
    // so the widget is not refused: the page still runs one React and one kit.
    expect(result.errors.join('\n')).toMatch(/Version 0\.1\.0 from ns_host of shared singleton module @app\/kit does not satisfy the requirement of ns_history_button which needs \^0\.2\.0/);
    expect(result.mounted).toEqual(expect.arrayContaining(['conversion', 'dashboard', 'welcome-notice']));
    expect(result.reactCopies).toBe(1);
    expect(result.renderers).toBe(1);
  });
});

describe('a widget’s own code', () => {
  const forbidden = [
    ['zod', "import * as z from 'zod';\nexport const schema = z.string();"],
    ['@tanstack/react-query', "import { useQuery } from '@tanstack/react-query';\nexport const use = useQuery;"],
    ['@radix-ui/react-dialog', "import * as Dialog from '@radix-ui/react-dialog';\nexport const Root = Dialog.Root;"],
    ['@app/contracts', "import { widgetProps } from '@app/contracts';\nexport const props = widgetProps;"],
  ] as const;

  it('may not bundle React: a library that imports react-dom, which the widget’s sources do not, fails its build; importing it there shares it', async () => {
    setKitVersion('0.1.0');
    // A library of the checkout's own (its node_modules are links to the repository's packages, and this folder).
    const library = path.join(checkout, 'node_modules', 'portal-helper');
    fs.mkdirSync(library);
    fs.writeFileSync(path.join(library, 'package.json'), JSON.stringify({ name: 'portal-helper', version: '1.0.0', type: 'module', main: 'index.js' }));
    fs.writeFileSync(path.join(library, 'index.js'), "import { createPortal } from 'react-dom';\nexport const portal = (node, el) => createPortal(node, el);\n");
    const mount = path.join(widgetCopy, 'src', 'mount.tsx');
    const original = fs.readFileSync(mount, 'utf8');
    try {
      fs.writeFileSync(mount, `import { portal } from 'portal-helper';\nconsole.log(portal);\n${original}`);
      const refused = await buildCopy();
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(refused.output).toMatch(/node_modules\/react-dom\/.* is bundled into the widget \(imported by .*portal-helper.*\): the page supplies react-dom/);
      // The widget's own import of react-dom declares it: the library then uses the page's.
      fs.writeFileSync(mount, `import 'react-dom';\nimport { portal } from 'portal-helper';\nconsole.log(portal);\n${original}`);
      const built = await buildCopy();
      expect(built).toEqual({ ok: true });
      expect(builtCode()).toMatch(/"?react-dom"?:\w+\(`react-dom`/);
    } finally {
      fs.writeFileSync(mount, original);
      fs.rmSync(library, { recursive: true, force: true });
    }
  });

  it.each(forbidden)('may not import %s: its build fails and says what to use instead', async (name, source) => {
    setKitVersion('0.1.0');
    const mount = path.join(widgetCopy, 'src', 'mount.tsx');
    const original = fs.readFileSync(mount, 'utf8');
    fs.writeFileSync(path.join(widgetCopy, 'src', 'forbidden.ts'), `${source}\n`);
    fs.writeFileSync(mount, `import * as forbidden from './forbidden.ts';\nconsole.log(forbidden);\n${original}`);
    try {
      const result = await buildCopy();
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.output).toContain(`imports ${name}: `);
    } finally {
      fs.writeFileSync(mount, original);
      fs.rmSync(path.join(widgetCopy, 'src', 'forbidden.ts'));
    }
  });
});
