import type { Page } from 'playwright-core';

/**
 * Runs before any page script. Two independent probes of which React code executed:
 *
 * 1. A stub of React DevTools' global hook. Every react-dom that initialises registers its
 *    renderer with `hook.inject(internals)`, and `internals.currentDispatcherRef` is the shared
 *    internals object of the `react` instance that renderer is bound to. So the hook sees how many
 *    renderers ran and how many distinct `react` instances they use.
 * 2. A wrapper of `Symbol.for`: `react`, `react/jsx-runtime` and `react-dom` each ask for
 *    `Symbol.for('react.transitional.element')` once when their module code runs (lazily wrapped
 *    CommonJS that never runs does not count). The script each call comes from tells which
 *    bundles executed React code of their own: a widget that bundled React shows up here even
 *    without a renderer.
 */
function installProbes(): void {
  interface Probe {
    renderers: { rendererPackageName?: string; version?: string; dispatcher: unknown }[];
    elementSymbolScripts: string[];
  }
  const probe: Probe = { renderers: [], elementSymbolScripts: [] };
  (globalThis as unknown as { __reactProbe: Probe }).__reactProbe = probe;
  let nextId = 1;
  (globalThis as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown }).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    isDisabled: false,
    supportsFiber: true,
    renderers: new Map(),
    inject(internals: { rendererPackageName?: string; version?: string; currentDispatcherRef?: unknown }) {
      probe.renderers.push({ rendererPackageName: internals.rendererPackageName, version: internals.version, dispatcher: internals.currentDispatcherRef });
      return nextId++;
    },
    checkDCE() {},
    onScheduleFiberRoot() {},
    onCommitFiberRoot() {},
    onPostCommitFiberRoot() {},
    onCommitFiberUnmount() {},
    setStrictMode() {},
  };
  const symbolFor = Symbol.for.bind(Symbol);
  Symbol.for = (key: string) => {
    if (key === 'react.transitional.element') {
      const frames = (new Error().stack ?? '').split('\n').slice(2);
      const script = frames.map((line) => /(https?:\/\/[^\s)]+?):\d+:\d+\)?$/.exec(line.trim())?.[1]).find(Boolean) ?? 'inline';
      probe.elementSymbolScripts.push(script);
    }
    return symbolFor(key);
  };
}

export interface PageMeasure {
  path: string;
  /** react-dom renderers that initialised on the page. */
  renderers: number;
  /** Distinct `react` instances the renderers are bound to. */
  reactInstances: number;
  /** Scripts (URL without query) that executed React module code. */
  reactScripts: string[];
  /** max(reactInstances, reactScripts.length): the number the bench requires to be 1. */
  reactCopies: number;
  mounted: string[];
  failed: string[];
  /** Paths (no query) of every JS file the document loaded, cached or not. */
  scripts: string[];
  errors: string[];
}

/** Call before the first navigation of `page`. */
export async function instrument(page: Page): Promise<{ measure: (path: string) => Promise<PageMeasure> }> {
  await page.addInitScript(installProbes);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });

  return {
    async measure(path: string) {
      await page.waitForFunction(() => (globalThis as { __widgetsReady?: unknown }).__widgetsReady !== undefined);
      await page.evaluate(() => (globalThis as { __widgetsReady?: Promise<void> }).__widgetsReady);
      const probe = await page.evaluate(() => {
        const p = (globalThis as unknown as { __reactProbe: { renderers: { dispatcher: unknown }[]; elementSymbolScripts: string[] } }).__reactProbe;
        const dispatchers = new Set(p.renderers.map((r) => r.dispatcher));
        return { renderers: p.renderers.length, reactInstances: dispatchers.size, scripts: p.elementSymbolScripts };
      });
      const names = async (selector: string) => Promise.all((await page.locator(selector).all()).map(async (el) => (await el.getAttribute('data-widget')) ?? ''));
      // Resource timing lists cache hits too (a response listener misses immutable chunks served from cache).
      const resources = await page.evaluate(() => performance.getEntriesByType('resource').map((r) => r.name));
      const scripts = [...new Set(resources.map((url) => new URL(url).pathname).filter((p) => p.endsWith('.js')))];
      const reactScripts = [...new Set(probe.scripts.map((s) => s.replace(/\?.*$/, '').replace(/^https?:\/\/[^/]+/, '')))];
      return {
        path,
        renderers: probe.renderers,
        reactInstances: probe.reactInstances,
        reactScripts,
        reactCopies: Math.max(probe.reactInstances, reactScripts.length),
        mounted: await names('[data-widget][data-mounted]'),
        failed: await names('[data-widget][data-failed]'),
        scripts,
        errors: [...errors.splice(0)],
      };
    },
  };
}
