import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { federation } from '@module-federation/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type UserConfig } from 'vite';

/**
 * Modules the host page supplies once (the loader registers them): never bundled into a widget.
 * Every subpath is listed: with `import: false` subpaths are not inherited, and a missing one
 * silently bundles a second React into the widget.
 */
export const HOST_SHARED = ['react', 'react-dom', 'react/jsx-runtime', 'react-dom/client', 'zod'] as const;

const REQUIRED_VERSIONS: Record<(typeof HOST_SHARED)[number], string> = {
  react: '^19.0.0',
  'react-dom': '^19.0.0',
  'react/jsx-runtime': '^19.0.0',
  'react-dom/client': '^19.0.0',
  zod: '^4.2.0',
};

/** Federation container name of a widget (`order-history` → `widget_order_history`). */
export const remoteName = (widget: string) => `widget_${widget.replace(/-/g, '_')}`;

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
      const entry = fs.readFileSync(path.join(outDir, 'remoteEntry.js'));
      const version = crypto.createHash('sha256').update(entry).digest('hex').slice(0, 12);
      const manifest = { name, entry: `/widgets/${name}/remoteEntry.js?v=${version}`, version, builtAt: new Date().toISOString() };
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
 * The whole vite config of a widget: a federation remote exposing `./mount`, served by the
 * server under `/widgets/<name>/`, with React and zod supplied by the host page.
 */
export function widgetConfig(opts: { name: string; root: string; devPort?: number }): UserConfig {
  const shared = Object.fromEntries(
    HOST_SHARED.map((lib) => [lib, { singleton: true, requiredVersion: REQUIRED_VERSIONS[lib], import: false as const, suppressMissingImportWarning: true }]),
  );
  return defineConfig({
    root: opts.root,
    base: `/widgets/${opts.name}/`,
    logLevel: 'warn',
    plugins: [
      react(),
      federation({
        name: remoteName(opts.name),
        filename: 'remoteEntry.js',
        exposes: { './mount': './src/mount.tsx' },
        shared,
        dts: false,
        experiments: { externalRuntime: true },
      }),
      manifestEntry(opts.name),
    ],
    server: { port: opts.devPort, strictPort: false, origin: opts.devPort ? `http://localhost:${String(opts.devPort)}` : undefined, cors: true },
    build: { target: 'es2022', outDir: 'dist', emptyOutDir: false, modulePreload: false, reportCompressedSize: false },
  });
}
