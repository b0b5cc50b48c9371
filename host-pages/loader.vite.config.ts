import fs from 'node:fs';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { HOST_MODULES, installedVersion, lazyChunkFiles, precompress, preloadList } from '@app/widget-build';

const root = import.meta.dirname;

/**
 * The federation runtime's snapshot handler without its manifest code (≈2 KB gz of every page's
 * boot chunk). `FEDERATION_OPTIMIZE_NO_SNAPSHOT_PLUGIN` leaves the snapshot plugin out, but the
 * runtime's core still constructs a `SnapshotHandler` whenever remotes are on, which pulls in the
 * manifest-to-snapshot code this page never runs: its remotes are plain entries, never
 * manifests, and it never calls `preloadRemote` (the one caller of `loadRemoteSnapshotInfo`). The
 * core gets the runtime's own disabled handler instead, with the cache `removeRemote` clears;
 * the module's other export (`getGlobalRemoteInfo`, for the remote handler) stays the library's.
 */
function noManifestSnapshots(): Plugin {
  const SHIM = '\0loader-snapshot-handler';
  let disabled = '';
  return {
    name: 'loader-no-manifest-snapshots',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== './plugins/snapshot/SnapshotHandler.js' || !importer || !/[\\/]@module-federation[\\/]runtime-core[\\/]dist[\\/]core\.js$/.test(importer)) return null;
      disabled = path.join(path.dirname(importer), 'plugins', 'snapshot', 'disabled.js');
      return SHIM;
    },
    load(id) {
      if (id !== SHIM) return null;
      return [
        `import { DisabledSnapshotHandler } from ${JSON.stringify(disabled)};`,
        'export class SnapshotHandler extends DisabledSnapshotHandler {',
        '  manifestCache = new Map();',
        "  loadRemoteSnapshotInfo() { return Promise.reject(new Error('The loader’s remotes are plain entries: it loads no manifest snapshots (preloadRemote is not supported)')); }",
        '}',
      ].join('\n');
    },
  };
}
const versionOf = (pkg: string) => installedVersion(root, pkg);

/**
 * The browser loader, the page's Module Federation host: `loader.js` imports its boot chunk (the
 * federation runtime, React, ReactDOM, the kit with the query client, the contracts' browser
 * entry); the host modules only some widgets use (forms, dialog, tabs…) are chunks beside it,
 * fetched when a widget imports them.
 */
export default defineConfig({
  root,
  logLevel: 'warn',
  define: {
    // The versions the page offers its widgets' remotes (`boot.ts`).
    __HOST_VERSIONS__: JSON.stringify(Object.fromEntries(['react', 'react-dom', '@app/kit', '@app/contracts'].map((pkg) => [pkg, versionOf(pkg)]))),
    // The federation runtime without what this page never uses: manifest snapshots (remotes are plain
    // entries), and code for Node.
    FEDERATION_OPTIMIZE_NO_SNAPSHOT_PLUGIN: 'true',
    FEDERATION_OPTIMIZE_NO_REMOTE: 'false',
    FEDERATION_OPTIMIZE_NO_SHARED: 'false',
    ENV_TARGET: JSON.stringify('web'),
    // Library mode leaves it to the code (the development loader overrides it).
    'process.env.NODE_ENV': JSON.stringify('production'),
  },
  plugins: [
    noManifestSnapshots(),
    (() => {
      // Each lazy host module's name, by its resolved file.
      const facades = new Map<string, string>();
      return {
        // `loader.json`: the chunks `loader.js` needs at once (its boot chunk with React), which the
        // server links as modulepreload so they load beside it instead of after it, and the files of
        // each lazy host module (its chunk and what that imports), linked on the pages of widgets
        // that import it (`hostModules` of their manifest entries).
        name: 'loader-preload-list',
        apply: 'build',
        async buildStart() {
          for (const name of HOST_MODULES.lazy) {
            const resolved = await this.resolve(name, path.join(root, 'loader', 'boot.ts'));
            if (!resolved) throw new Error(`loader build: ${name} does not resolve`);
            facades.set(resolved.id, name);
          }
        },
        writeBundle(options, bundle) {
          const chunks = bundle as Parameters<typeof preloadList>[0];
          const preload = preloadList(chunks, 'loader.js');
          const lazy = Object.fromEntries(Object.entries(lazyChunkFiles(chunks, facades, preload)).map(([name, files]) => [name, files.map((f) => `/assets/${f}`)]));
          const missing = HOST_MODULES.lazy.filter((name) => !lazy[name]);
          if (missing.length > 0) throw new Error(`loader build: no chunk of its own for ${missing.join(', ')}`);
          fs.writeFileSync(path.join(options.dir ?? 'dist', 'loader.json'), `${JSON.stringify({ preload: preload.map((f) => `/assets/${f}`), lazy }, null, 2)}\n`);
        },
      } satisfies Plugin;
    })(),
    {
      // The external-runtime plugin reads the runtime's version from its package.json; bundled, that is the whole file.
      name: 'federation-runtime-version',
      enforce: 'pre',
      resolveId: (source) => (source === '@module-federation/runtime/package.json' ? '\0federation-runtime-version' : null),
      load: (id) => (id === '\0federation-runtime-version' ? `export default { version: ${JSON.stringify(versionOf('@module-federation/runtime'))} };` : null),
    },
    precompress(),
  ],
  // Static assets (news card icons) are copied next to the loader and served under /assets/.
  publicDir: path.join(root, 'public'),
  build: {
    outDir: path.join(root, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    modulePreload: false,
    // Library mode: no preload helper wrapped around every dynamic import (the page preloads what it needs).
    lib: { entry: { loader: path.join(root, 'loader/loader.ts') }, formats: ['es'], cssFileName: 'loader' },
    rolldownOptions: {
      preserveEntrySignatures: 'allow-extension',
      output: {
        // Library mode keeps whitespace and annotations in ES output; these files are only ever run, never read.
        minify: true,
        comments: { annotation: false },
        entryFileNames: 'loader.js',
        chunkFileNames: 'host-[name]-[hash].js',
        assetFileNames: 'loader[extname]',
        codeSplitting: {
          // A group takes the modules it names, not what they import (those follow their importers).
          includeDependenciesRecursively: false,
          groups: [
            // React in one chunk (the JSX runtime with it): one script runs React's code.
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            // What Radix's overlays (dialog, menu, select) share: layers, focus trap, portal, scroll lock.
            { name: 'radix-layer', test: /[\\/]node_modules[\\/](@radix-ui[\\/](react-dismissable-layer|react-focus-scope|react-portal|react-focus-guards|react-use-escape-keydown)|react-remove-scroll|react-remove-scroll-bar|react-style-singleton|use-sidecar|use-callback-ref|aria-hidden|get-nonce|tslib)[\\/]/ },
            // What every Radix primitive uses (tabs too).
            { name: 'radix-base', test: /[\\/]node_modules[\\/]@radix-ui[\\/](primitive|react-primitive|react-compose-refs|react-context|react-id|react-use-controllable-state|react-presence|react-slot|react-use-callback-ref|react-use-layout-effect|react-use-effect-event|react-direction)[\\/]/ },
          ],
        },
      },
      // TanStack Query's modules start with "use client", which means nothing here.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
