import type { WidgetManifestEntry } from '@app/contracts';
import { remoteName } from '@app/widget-build/host-modules';

/**
 * Development only (`WIDGET_DEV_SERVERS`, see server/src/config.ts): widgets served by their
 * `vite dev` server instead of their build, with hot reload inside the real page.
 */

/** Where the page loads the React-refresh preamble from (a module script: the CSP forbids inline ones). */
export const DEV_PREAMBLE_PATH = '/dev/react-refresh.js';

/** The preamble of a page whose dev widgets are `names` (none: no preamble). */
export const devPreamblePath = (names: readonly string[]) => (names.length > 0 ? `${DEV_PREAMBLE_PATH}?widgets=${[...new Set(names)].join(',')}` : undefined);

/** The manifest entry of a widget served by its dev server (`origin` as in WIDGET_DEV_SERVERS): the remote's entry as `vite dev` serves it. */
export function devManifestEntry(name: string, origin: string): WidgetManifestEntry {
  return { name, entry: `${origin}/widgets/${name}/remoteEntry.js`, remote: remoteName(name), preload: [], version: 'dev', builtAt: 'dev' };
}

/**
 * The React-refresh preamble for every dev widget, run before the loader: each dev server's
 * refresh runtime must hook into React DevTools' global hook before React DOM registers itself
 * there, and the widgets' modules check that the preamble ran (what `index.html` of a plain
 * vite app does inline). React must be a development build (the dev loader): a production
 * React DOM has no refresh support, so nothing would update.
 *
 * With several dev servers there are several refresh runtimes, and each sets React's one
 * refresh handler to its own resolver before a refresh; they are chained here, so that one
 * widget's update does not make React forget another widget's earlier edits.
 */
export function devPreambleModule(devServers: Record<string, string>): string {
  const entries = Object.entries(devServers);
  const imports = entries.map(([name, origin], i) => `import * as runtime${String(i)} from ${JSON.stringify(`${origin}/widgets/${name}/@react-refresh`)};`);
  return `// Development only: the React-refresh preamble of the widgets served by \`vite dev\` (${entries.map(([name]) => name).join(', ')}).
${imports.join('\n')}
const runtimes = [${entries.map((_, i) => `runtime${String(i)}`).join(', ')}];
for (const runtime of runtimes) runtime.injectIntoGlobalHook(window);
const hook = window.__REACT_DEVTOOLS_GLOBAL_HOOK__;
const handlers = [];
const resolveFamily = (type) => {
  for (const handler of handlers) {
    const family = handler(type);
    if (family !== undefined) return family;
  }
  return undefined;
};
const inject = hook.inject;
hook.inject = function (renderer) {
  const id = inject.apply(this, arguments);
  if (typeof renderer.setRefreshHandler === 'function') {
    const setRefreshHandler = renderer.setRefreshHandler;
    renderer.setRefreshHandler = (handler) => {
      if (handler && !handlers.includes(handler)) handlers.push(handler);
      setRefreshHandler(handlers.length > 0 ? resolveFamily : null);
    };
  } else {
    console.warn('[dev] React on this page is a production build, so widgets cannot hot-reload: serve the development loader (npm run dev does).');
  }
  return id;
};
window.$RefreshReg$ = () => {};
window.$RefreshSig$ = () => (type) => type;
window.__vite_plugin_react_preamble_installed__ = true;
`;
}
