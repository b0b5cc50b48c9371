import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { federation } from '@module-federation/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type UserConfig, type UserConfigFnObject } from 'vite';
import { forbiddenImports } from './forbidden-imports.ts';
import { sharedUsageBarrier } from './shared-usage-barrier.ts';
import { originalOf, precompress } from './precompress.ts';
import { DECLARED_WHEN_IMPORTED, EXPOSED_MOUNT, HOST_MODULES, packageOf, REACT_PACKAGES, remoteName, requiredVersion, type HostModuleName } from './host-modules.ts';

export { HOST_MODULES, EXPOSED_MOUNT, remoteName } from './host-modules.ts';
export { precompress } from './precompress.ts';

/** The widget's federation entry (served no-cache; everything else it loads is content-hashed). */
export const ENTRY_FILE = 'remoteEntry.js';

/** How many builds' hashed chunks stay in `dist/assets`: a page opened before a redeploy still finds its chunks. */
const KEPT_BUILDS = 2;

type BundleChunk = { type: string; fileName: string; facadeModuleId?: string | null; imports?: string[]; dynamicImports?: string[] };

/** `fileName` and every chunk it imports statically, however deep. */
function staticClosure(byName: Map<string, BundleChunk>, fileName: string, seen = new Set<string>()): Set<string> {
  if (seen.has(fileName) || !byName.has(fileName)) return seen;
  seen.add(fileName);
  for (const imported of byName.get(fileName)?.imports ?? []) staticClosure(byName, imported, seen);
  return seen;
}

const chunksOf = (bundle: Record<string, BundleChunk>) => new Map(Object.values(bundle).filter((c) => c.type === 'chunk').map((c) => [c.fileName, c]));

/**
 * What a page preloads with an entry (`remoteEntry.js`, the loader's `loader.js`), in two parts in
 * the order the entry needs them: `first`, the entry's static imports; `then`, what the entry
 * itself imports on demand as soon as it runs (a remote's exposed module and share map, the
 * loader's React chunk) with their static imports. Chunks the code beyond the entry imports lazily
 * (a widget's dialogs, the loader's host chunks) are left out.
 */
export function preloadParts(bundle: Record<string, BundleChunk>, entry: string): { first: string[]; then: string[] } {
  const byName = chunksOf(bundle);
  const first = staticClosure(byName, entry);
  const seen = new Set(first);
  for (const imported of byName.get(entry)?.dynamicImports ?? []) staticClosure(byName, imported, seen);
  return { first: [...first].filter((f) => f !== entry).sort(), then: [...seen].filter((f) => !first.has(f)).sort() };
}

/** Both parts of {@link preloadParts} in one list, the static imports first. */
export function preloadList(bundle: Record<string, BundleChunk>, entry: string): string[] {
  const { first, then } = preloadParts(bundle, entry);
  return [...first, ...then];
}

/**
 * The files of each chunk the loader imports on demand (a lazy host module), with what it imports
 * statically and `loaded` (the loader's own preload) does not already hold: what a page preloads
 * for a widget that imports that module. `facades` maps a module's resolved file to its name.
 */
export function lazyChunkFiles(bundle: Record<string, BundleChunk>, facades: Map<string, string>, loaded: readonly string[]): Record<string, string[]> {
  const byName = chunksOf(bundle);
  const files: Record<string, string[]> = {};
  for (const chunk of byName.values()) {
    const name = chunk.facadeModuleId ? facades.get(chunk.facadeModuleId) : undefined;
    if (name) files[name] = [...staticClosure(byName, chunk.fileName)].filter((f) => !loaded.includes(f)).sort();
  }
  return files;
}

/** A module of Module Federation's glue: the plugin's virtual modules and the runtime's helpers. */
const isGlueModule = (id: string) => id.startsWith('\0') || id.startsWith('virtual:') || id.includes('__mf_') || id.includes('/node_modules/@module-federation/');

/**
 * The files of a build that hold only federation glue (the entry, the share map, the runtime shim,
 * re-exporting facades), as opposed to the widget's own code: the bench budgets them apart.
 */
function glueFiles(bundle: Record<string, { type: string; fileName: string; moduleIds?: string[] }>): string[] {
  return Object.values(bundle)
    .filter((c) => c.type === 'chunk' && (c.moduleIds ?? []).every(isGlueModule))
    .map((c) => c.fileName)
    .sort();
}

/**
 * Writes `dist/widget.json` (the manifest entry the server reads at request time: the entry's
 * URL, the files a page preloads with it) and removes the chunks of builds older than the
 * previous one (the output folder is not emptied).
 */
function manifestEntry(name: string, hostModules: readonly string[]): Plugin {
  return {
    name: 'widget-manifest-entry',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist';
      const entry = fs.readFileSync(path.join(outDir, ENTRY_FILE));
      const version = crypto.createHash('sha256').update(entry).digest('hex').slice(0, 12);
      const base = `/widgets/${name}/`;
      const manifest = {
        name,
        entry: `${base}${ENTRY_FILE}?v=${version}`,
        remote: remoteName(name),
        preload: preloadList(bundle as Parameters<typeof preloadList>[0], ENTRY_FILE).map((f) => `${base}${f}`),
        hostModules,
        version,
        builtAt: new Date().toISOString(),
      };
      fs.writeFileSync(path.join(outDir, 'widget.json'), `${JSON.stringify(manifest, null, 2)}\n`);

      const historyFile = path.join(outDir, '.builds.json');
      let history: { version: string; files: string[]; glue: string[] }[] = [];
      try {
        history = JSON.parse(fs.readFileSync(historyFile, 'utf8')) as typeof history;
      } catch {
        history = [];
      }
      history = [...history.filter((h) => h.version !== version), { version, files: Object.keys(bundle), glue: glueFiles(bundle) }].slice(-KEPT_BUILDS);
      fs.writeFileSync(historyFile, JSON.stringify(history));
      const kept = new Set(history.flatMap((h) => h.files));
      const assets = path.join(outDir, 'assets');
      for (const file of fs.existsSync(assets) ? fs.readdirSync(assets) : []) {
        // A compressed copy (`.br`, `.gz`) goes with its file.
        if (!kept.has(`assets/${originalOf(file)}`)) fs.rmSync(path.join(assets, file), { force: true });
      }
    },
  };
}

/**
 * A kit or contracts file bundled into a widget (`@app/kit/routing`, `@app/kit/too-few-tokens`…)
 * that imports a host module of its own package (`@app/kit`) must get the page's copy too. The
 * federation plugin keeps a package's imports of itself local (it would bundle a second kit, with
 * TanStack Query, into the widget), so those imports are resolved as if the widget made them.
 */
function hostModulesFromPackages(root: string, mountFile: string): Plugin {
  const own = path.join(root, path.sep);
  return {
    name: 'widget-host-modules-from-packages',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || importer.startsWith(own) || importer.startsWith('\0') || !(HOST_NAMES as readonly string[]).includes(source)) return null;
      if (!importer.includes(`${path.sep}widgets${path.sep}kit${path.sep}`) && !importer.includes(`${path.sep}shared-contracts${path.sep}`)) return null;
      return this.resolve(source, mountFile, { ...options, skipSelf: true });
    },
  };
}

const HOST_NAMES: readonly HostModuleName[] = [...HOST_MODULES.eager, ...HOST_MODULES.lazy];
/** The host modules that are React's own entries (the rest are the kit's and the contracts'). */
const REACT_ENTRIES = HOST_NAMES.filter((n) => packageOf(n) === 'react' || packageOf(n) === 'react-dom');
const IMPORT_OF = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;

/** The host modules a widget's own code imports (tests and stories aside), statically or not. */
export function importedHostModules(srcDir: string): Set<HostModuleName> {
  const found = new Set<HostModuleName>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.[cm]?[jt]sx?$/.test(entry.name) && !/\.(test|stories)\./.test(entry.name)) {
        for (const match of fs.readFileSync(full, 'utf8').matchAll(IMPORT_OF)) {
          const name = match[1] as HostModuleName;
          if (HOST_NAMES.includes(name)) found.add(name);
        }
      }
    }
  };
  walk(srcDir);
  return found;
}

/** The version of `pkg` as a package in `dir` resolves it (its `package.json`). */
export function installedVersion(dir: string, pkg: string): string {
  const file = createRequire(path.join(dir, 'package.json')).resolve(`${pkg}/package.json`);
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

/**
 * The `shared` option of a widget's remote: React, its JSX runtime, the kit and the contracts'
 * browser entry always (libraries import React too; a React entry missing here would bundle a
 * second React, which `noBundledReact` fails), React DOM's entries and the lazy host modules only
 * when the widget's sources import them (`DECLARED_WHEN_IMPORTED`; a remote's init negotiates,
 * and a lazy one loads, every shared module it declares). Each is a singleton the page must
 * supply (`import: false`) in a version the widget accepts.
 */
export function sharedFor(root: string, dev: boolean) {
  const imported = importedHostModules(path.join(root, 'src'));
  const onlyWhenImported = (n: HostModuleName) => (HOST_MODULES.lazy as readonly string[]).includes(n) || DECLARED_WHEN_IMPORTED.includes(n);
  const names = HOST_NAMES.filter((n) => (onlyWhenImported(n) ? imported.has(n) : dev || n !== 'react/jsx-dev-runtime'));
  return Object.fromEntries(
    names.map((n) => [n, { singleton: true, strictVersion: true, requiredVersion: requiredVersion(installedVersion(root, packageOf(n))), import: false as const, suppressMissingImportWarning: true }]),
  );
}

/**
 * The share map and the runtime's shim in one chunk (the plugin makes two of them): a page
 * fetches three files per widget (the entry, this, the exposed module) instead of four, ≈5 % of
 * /dashboard's time to mounted (measured A/B against the plugin's own chunking). A user group in
 * `output.codeSplitting.groups` is how the plugin asks to be composed with (it keeps its own groups
 * above them), but no option names its modules: the test names the plugin's module ids, so the
 * plugin is pinned exactly (`package.json`) and `chunking.test.ts` builds a widget and fails when
 * an upgrade changes what this group takes (a fourth file a widget, the glue apart, over 9 KB gz).
 */
const FEDERATION_GLUE_GROUP = {
  name: 'federation',
  test: /^\0?virtual:mf-localSharedImportMap:|^\0?virtual:mf-external-runtime-core$|[\\/]node_modules[\\/]@module-federation[\\/]runtime[\\/]dist[\\/]/,
};

/**
 * A widget that loads parts of itself on demand (`React.lazy`) names the modules its first view
 * runs (`firstView`, tested against module ids): they go in one chunk. Without it the bundler
 * splits every module the first view shares with a lazy part into a chunk of its own, and the
 * first view fetches each of them (the admin panel: 12 requests instead of 6).
 */
function firstViewGroup(test: RegExp) {
  return { name: 'first-view', test };
}

/**
 * Fails a widget's build that bundles any of React (`REACT_PACKAGES`): a library it uses imports
 * a React entry the widget's remote does not declare shared, so the widget would run a second
 * React beside the page's. Importing that entry in the widget's own code declares it.
 */
function noBundledReact(): Plugin {
  return {
    name: 'widget-no-bundled-react',
    apply: 'build',
    generateBundle(_options, bundle) {
      const bundled = Object.values(bundle).flatMap((chunk) => (chunk.type === 'chunk' ? chunk.moduleIds.filter((id) => REACT_PACKAGES.test(id)) : []));
      if (bundled.length === 0) return;
      // Where React comes in: the module of React that something other than React imports.
      const importersOf = (id: string) => (this.getModuleInfo(id)?.importers ?? []).filter((importer) => !REACT_PACKAGES.test(importer));
      const entry = bundled.find((id) => importersOf(id).length > 0) ?? bundled[0] ?? '';
      const pkg = REACT_PACKAGES.exec(entry)?.[1] ?? 'react';
      this.error(`${entry} is bundled into the widget (imported by ${importersOf(entry).join(', ') || 'an unknown module'}): the page supplies ${pkg}; import the entry that library uses from the widget's own code (src/mount.tsx), which declares it shared`);
    },
  };
}

/**
 * The kit's Markdown renderer (`@app/kit/markdown`, in the widgets that draw a model's text):
 * mdast-util-to-hast imports the `@ungap/structured-clone` polyfill (≈3 KB), which only hands
 * over to the browser's own `structuredClone` — every browser the build targets has it.
 */
const MARKDOWN_ALIAS = { '@ungap/structured-clone': path.join(import.meta.dirname, '..', '..', 'kit', 'src', 'markdown', 'structured-clone.ts') };

/**
 * The whole vite config of a widget: a Module Federation remote (`remoteEntry.js`, exposing
 * `./mount`, whose module exports `mount`) served by the server under `/widgets/<name>/`, with
 * React, the kit and the contracts' browser entry shared from the host page (`HOST_MODULES`).
 * `vite dev` serves the same remote from source, hot-reloaded inside the real pages. `alias`
 * replaces a bundled module with a file of the widget (e.g. a polyfill every target browser has
 * built in), in build and dev alike; the Markdown renderer's polyfill is always replaced
 * (`MARKDOWN_ALIAS`).
 */
export function widgetConfig(opts: { name: string; root: string; devPort?: number; alias?: Record<string, string>; firstView?: RegExp }): UserConfigFnObject {
  const alias = { ...MARKDOWN_ALIAS, ...opts.alias };
  const mountFile = path.join(opts.root, 'src', 'mount.tsx');
  return defineConfig(({ command }): UserConfig => {
    const dev = command === 'serve';
    const shared = sharedFor(opts.root, dev);
    return {
      root: opts.root,
      base: `/widgets/${opts.name}/`,
      logLevel: 'warn',
      define: { 'process.env.NODE_ENV': JSON.stringify(dev ? 'development' : 'production') },
      plugins: [
        forbiddenImports(opts.root),
        hostModulesFromPackages(opts.root, mountFile),
        react(),
        sharedUsageBarrier(mountFile),
        federation({
          name: remoteName(opts.name),
          filename: ENTRY_FILE,
          exposes: { [EXPOSED_MOUNT]: './src/mount.tsx' },
          shared,
          // The page's loader supplies the federation runtime (`injectExternalRuntimeCorePlugin`).
          experiments: { externalRuntime: true },
          shareStrategy: 'loaded-first',
          target: 'web',
          disableSnapshot: true,
          manifest: false,
          dts: false,
        }),
        noBundledReact(),
        precompress(),
        manifestEntry(opts.name, Object.keys(shared)),
      ],
      resolve: { alias },
      // `vite dev` pre-bundles the libraries the widget's own sources reach, directly or through
      // the kit's and the contracts' files it bundles (the scan starts at its sources, before the
      // first request, so no later discovery reloads the page): a CommonJS module among them — the
      // Markdown renderer's development build imports `debug` — then loads as an ES module, and a
      // library is one request, not hundreds. React's entries stay out: a pre-bundled library
      // imports React from the page, through the federation runtime's shared modules, never a copy
      // of its own. The kit and the contracts are not excluded by name (that would exclude every
      // subpath, and the scan would miss the Markdown renderer's libraries); the entries the page
      // supplies are shared modules, which the scan does not enter.
      optimizeDeps: { entries: ['src/**/*.{ts,tsx}', '!src/**/*.{test,stories}.{ts,tsx}'], exclude: REACT_ENTRIES },
      server: { port: opts.devPort, strictPort: false, origin: opts.devPort ? `http://localhost:${String(opts.devPort)}` : undefined, cors: true },
      build: {
        target: 'es2022',
        outDir: 'dist',
        emptyOutDir: false,
        modulePreload: false,
        reportCompressedSize: false,
        lib: { entry: { mount: mountFile }, formats: ['es'] },
        rolldownOptions: {
          preserveEntrySignatures: false,
          // Library mode keeps whitespace and annotations in ES output; these files are only ever run, never read.
          output: {
            format: 'es',
            minify: !dev,
            comments: { annotation: dev },
            entryFileNames: 'assets/[name]-[hash].js',
            chunkFileNames: 'assets/[name]-[hash].js',
            codeSplitting: { groups: opts.firstView ? [FEDERATION_GLUE_GROUP, firstViewGroup(opts.firstView)] : [FEDERATION_GLUE_GROUP] },
          },
        },
      },
    };
  });
}
