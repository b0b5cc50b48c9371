import fs from 'node:fs';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { HOST_MODULES, installedVersion, lazyChunkFiles, precompress, preloadParts } from '@app/widget-build';
import { splitStyles } from './src/split-styles.ts';
import { STYLE_GROUP_NAMES, styleGroupFile } from './src/style-groups.ts';

const root = import.meta.dirname;

/**
 * `loader.css` without the rules of the style groups (`src/style-groups.ts`): each group's rules
 * go to `loader-<group>.css`, which pages link only where one of the group's widgets mounts.
 */
function splitStyleGroups(): Plugin {
  return {
    name: 'loader-style-groups',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const css = bundle['loader.css'];
        if (css?.type !== 'asset') throw new Error('loader build: no loader.css to split');
        const { base, groups } = splitStyles(String(css.source));
        css.source = base;
        for (const group of STYLE_GROUP_NAMES) {
          if (groups[group].trim() !== '') this.emitFile({ type: 'asset', fileName: styleGroupFile(group), source: groups[group] });
        }
      },
    },
  };
}

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
/**
 * The federation runtime's remote preloading (`preloadRemote`: the assets of a remote's exposes,
 * read from a manifest) left out: this page's remotes are plain entries and the server links
 * every file a page's widgets need as modulepreload, so nothing calls it (≈1 KB gz of every
 * page's boot chunk). Calling it fails with that said, instead of doing nothing.
 */
function noRemotePreload(): Plugin {
  const SHIM = '\0loader-no-remote-preload';
  return {
    name: 'loader-no-remote-preload',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!/^\.\.?\/(utils\/)?preload\.js$/.test(source) || !importer || !/[\\/]@module-federation[\\/]runtime-core[\\/]dist[\\/]/.test(importer)) return null;
      return path.resolve(path.dirname(importer), source).endsWith(path.join('runtime-core', 'dist', 'utils', 'preload.js')) ? SHIM : null;
    },
    load(id) {
      if (id !== SHIM) return null;
      return [
        "const unsupported = () => { throw new Error('The loader’s pages link their widgets’ files as modulepreload: preloadRemote is not supported'); };",
        'export const formatPreloadArgs = unsupported;',
        'export const preloadAssets = unsupported;',
        // Of the snapshot plugin, which this build leaves out (FEDERATION_OPTIMIZE_NO_SNAPSHOT_PLUGIN).
        'export const defaultPreloadArgs = unsupported;',
        'export const normalizePreloadExposes = unsupported;',
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
    noRemotePreload(),
    (() => {
      // Each lazy host module's name, by its resolved file.
      const facades = new Map<string, string>();
      return {
        // `loader.json`: the chunks `loader.js` needs at once, which the server links as
        // modulepreload so they load beside it instead of after it — `preload`, what it imports
        // statically (the boot chunk), and `preloadLast`, what it imports on demand as it starts
        // (React's chunk), which pages link after their widgets' files — and the files of each lazy
        // host module (its chunk and what that imports), linked on the pages of widgets that
        // import it (`hostModules` of their manifest entries), and the style groups it wrote
        // (`styles`), linked on the pages of the groups' widgets.
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
          const chunks = bundle as Parameters<typeof preloadParts>[0];
          const { first, then } = preloadParts(chunks, 'loader.js');
          const lazy = Object.fromEntries(Object.entries(lazyChunkFiles(chunks, facades, [...first, ...then])).map(([name, files]) => [name, files.map((f) => `/assets/${f}`)]));
          const styles = STYLE_GROUP_NAMES.filter((group) => Object.hasOwn(bundle, styleGroupFile(group)));
          const missing = HOST_MODULES.lazy.filter((name) => !lazy[name]);
          if (missing.length > 0) throw new Error(`loader build: no chunk of its own for ${missing.join(', ')}`);
          fs.writeFileSync(path.join(options.dir ?? 'dist', 'loader.json'), `${JSON.stringify({ preload: first.map((f) => `/assets/${f}`), preloadLast: then.map((f) => `/assets/${f}`), lazy, styles }, null, 2)}\n`);
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
    splitStyleGroups(),
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
            // What needs no React, in the boot's chunk: the boot itself, the federation runtime (with
            // this build's stand-ins for parts of it), the contracts with zod. It runs before React has
            // arrived (`ui.ts`). `loader.js` keeps none of it: the chunks that import it reach it under
            // a versioned name.
            { name: 'boot', test: /^\0(loader-snapshot-handler|loader-no-remote-preload|federation-runtime-version)$|[\\/](widgets[\\/]build-config[\\/]src[\\/]host-modules\.ts$|host-pages[\\/]loader[\\/]boot\.ts$|node_modules[\\/](zod|@module-federation)[\\/]|shared-contracts[\\/]src[\\/](?!generation))/ },
            // React in one chunk with what every page's widgets take from the page beside it (the
            // JSX runtime, the kit's eager modules, TanStack Query: `ui.ts`): one script runs React's
            // code. A kit module missing here would be a chunk of its own, which loader-build.test.ts
            // refuses; a lazy host module's file listed here would weigh on every page.
            { name: 'react', test: /[\\/](node_modules[\\/](react|react-dom|scheduler|@tanstack)[\\/]|host-pages[\\/]loader[\\/]ui\.ts$|widgets[\\/]kit[\\/]src[\\/](index\.ts|api\.ts|session\.ts|errors\.ts|ui\.tsx|query\.tsx|mount\.tsx|LoadError\.tsx|Pagination\.tsx|icons\.tsx|format\.ts|money\.ts|routing\.ts|too-few-tokens\.tsx|lazy-dialog\.tsx|lazy-markdown\.tsx)$)/ },
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
