// Development helpers shared by `npm run dev` (scripts/dev.ts) and its e2e test.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { build, createServer, loadConfigFromFile, mergeConfig, type InlineConfig, type ViteDevServer } from 'vite';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..');

/** Where `npm run dev` puts the development build of the loader (served as LOADER_DIR). */
export const DEV_LOADER_DIR = path.join(REPO_ROOT, '.data', 'dev-loader');

/** Folders under widgets/ that are widgets (a vite config and a mount entry; widgets/kit is a library). */
export function widgetNames(): string[] {
  const dir = path.join(REPO_ROOT, 'widgets');
  return fs
    .readdirSync(dir)
    .filter((name) => fs.existsSync(path.join(dir, name, 'vite.config.ts')) && fs.existsSync(path.join(dir, name, 'src', 'mount.tsx')))
    .sort();
}

/**
 * The loader with React's development build: a production React DOM has no refresh support,
 * so hot updates of a widget would change nothing on the page.
 */
export async function buildDevLoader(outDir: string = DEV_LOADER_DIR): Promise<void> {
  await build({
    configFile: path.join(REPO_ROOT, 'host-pages', 'loader.vite.config.ts'),
    configLoader: 'runner',
    mode: 'development',
    logLevel: 'warn',
    define: { 'process.env.NODE_ENV': JSON.stringify('development') },
    build: { outDir, emptyOutDir: true, minify: false, rolldownOptions: { output: { minify: false } } },
  });
}

/** The first port from `from` that `host` can listen on. */
export async function freePort(from: number, host: string): Promise<number> {
  for (let port = from; port < from + 100; port++) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, host, () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port in ${String(from)}–${String(from + 99)} on ${host}`);
}

export interface WidgetDevServer {
  name: string;
  /** What WIDGET_DEV_SERVERS takes for this widget, e.g. `http://localhost:5101`. */
  origin: string;
  server: ViteDevServer;
}

/**
 * `vite dev` of one widget, from its own vite.config.ts (the shared widget config: base
 * `/widgets/<name>/`, federation remote, React supplied by the page). The port is the
 * config's `devPort`, or the next free one; `overrides` are merged over the config.
 */
export async function startWidgetDevServer(opts: { name: string; dir: string; port?: number; host?: string; overrides?: InlineConfig }): Promise<WidgetDevServer> {
  const configFile = path.join(opts.dir, 'vite.config.ts');
  const host = opts.host ?? 'localhost';
  let port = opts.port;
  if (port === undefined) {
    const loaded = await loadConfigFromFile({ command: 'serve', mode: 'development' }, configFile, opts.dir, 'silent', undefined, 'runner');
    port = await freePort(loaded?.config.server?.port ?? 5173, host);
  }
  const origin = `http://${host}:${String(port)}`;
  const server = await createServer(
    mergeConfig<InlineConfig, InlineConfig>(
      { configFile, configLoader: 'runner', root: opts.dir, server: { host, port, strictPort: true, origin } },
      opts.overrides ?? {},
    ),
  );
  await server.listen();
  return { name: opts.name, origin, server };
}
