import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { hostImports } from './host-imports.ts';
import { HOST_MODULES } from './host-modules.ts';

export { HOST_MODULES, HOST_GLOBAL, type HostRegistry } from './host-modules.ts';

/** The file a widget's build starts from: `import(entry)` answers its module, which exports `mount`. */
export const ENTRY_FILE = 'remoteEntry.js';

/** How many builds' hashed chunks stay in `dist/assets`: a page opened before a redeploy still finds its chunks. */
const KEPT_BUILDS = 2;

/**
 * Writes `dist/widget.json` (the manifest entry the server reads at request time) and removes
 * the chunks of builds older than the previous one (the output folder is not emptied).
 */
function manifestEntry(name: string): Plugin {
  return {
    name: 'widget-manifest-entry',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist';
      const entry = fs.readFileSync(path.join(outDir, ENTRY_FILE));
      const version = crypto.createHash('sha256').update(entry).digest('hex').slice(0, 12);
      const manifest = { name, entry: `/widgets/${name}/${ENTRY_FILE}?v=${version}`, version, builtAt: new Date().toISOString() };
      fs.writeFileSync(path.join(outDir, 'widget.json'), `${JSON.stringify(manifest, null, 2)}\n`);

      const historyFile = path.join(outDir, '.builds.json');
      let history: { version: string; files: string[] }[] = [];
      try {
        history = JSON.parse(fs.readFileSync(historyFile, 'utf8')) as typeof history;
      } catch {
        history = [];
      }
      history = [...history.filter((h) => h.version !== version), { version, files: Object.keys(bundle) }].slice(-KEPT_BUILDS);
      fs.writeFileSync(historyFile, JSON.stringify(history));
      const kept = new Set(history.flatMap((h) => h.files));
      const assets = path.join(outDir, 'assets');
      for (const file of fs.existsSync(assets) ? fs.readdirSync(assets) : []) {
        if (!kept.has(`assets/${file}`)) fs.rmSync(path.join(assets, file), { force: true });
      }
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
 * The whole vite config of a widget: one ES module (`remoteEntry.js`, exporting `mount`) served
 * by the server under `/widgets/<name>/`, with React, the query client, the kit and the
 * contracts supplied by the host page (`HOST_MODULES`). `vite dev` serves the same module from
 * `src/mount.tsx`, hot-reloaded inside the real pages. `alias` replaces a bundled module with a
 * file of the widget (e.g. a polyfill every target browser has built in), in build and dev alike;
 * the Markdown renderer's polyfill is always replaced (`MARKDOWN_ALIAS`).
 */
export function widgetConfig(opts: { name: string; root: string; devPort?: number; alias?: Record<string, string> }): UserConfig {
  const hostNames: string[] = [...HOST_MODULES.eager, ...HOST_MODULES.lazy];
  const alias = { ...MARKDOWN_ALIAS, ...opts.alias };
  return defineConfig({
    root: opts.root,
    base: `/widgets/${opts.name}/`,
    logLevel: 'warn',
    plugins: [react(), hostImports(), manifestEntry(opts.name)],
    resolve: { alias },
    // Host modules never come from node_modules, so nothing is pre-bundled: a pre-bundled
    // dependency would carry a React of its own.
    optimizeDeps: { noDiscovery: true, include: [], exclude: hostNames },
    server: { port: opts.devPort, strictPort: false, origin: opts.devPort ? `http://localhost:${String(opts.devPort)}` : undefined, cors: true },
    build: {
      target: 'es2022',
      outDir: 'dist',
      emptyOutDir: false,
      modulePreload: false,
      reportCompressedSize: false,
      rolldownOptions: {
        input: { remoteEntry: path.join(opts.root, 'src', 'mount.tsx') },
        preserveEntrySignatures: 'strict',
        output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'assets/[name]-[hash].js' },
      },
    },
  });
}
