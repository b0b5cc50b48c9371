// `npm run dev [-- <widget>...]`: the whole service for development.
// - builds the loader (React's development build, into .data/dev-loader) and any widget whose build is missing;
// - runs the server under `tsx watch` (restarts on server source changes), on the embedded Postgres like `npm start`;
// - for each named widget runs `vite dev` and points the server at it (WIDGET_DEV_SERVERS), so editing
//   that widget hot-reloads it inside the real page.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DEV_LOADER_DIR, REPO_ROOT, buildDevLoader, startWidgetDevServer, widgetNames, type WidgetDevServer } from './dev-widgets.ts';

// Development, whatever the shell says: vite and React pick their builds by it.
process.env.NODE_ENV = 'development';

const log = (message: string) => console.log(`[dev] ${message}`);
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

const known = widgetNames();
const requested = [...new Set(process.argv.slice(2))];
const unknown = requested.filter((name) => !known.includes(name));
if (unknown.length > 0) {
  console.error(`[dev] unknown widget: ${unknown.join(', ')}\n[dev] widgets: ${known.join(', ')}`);
  process.exit(2);
}

// Widgets served from their build need one; dev widgets are served by vite.
const unbuilt = known.filter((name) => !requested.includes(name) && !fs.existsSync(path.join(REPO_ROOT, 'widgets', name, 'dist', 'widget.json')));
if (unbuilt.length > 0) {
  log(`building ${unbuilt.join(', ')} (no build yet)`);
  const code = await new Promise<number | null>((resolve) => {
    spawn(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build-frontend.mjs'), ...unbuilt], { cwd: REPO_ROOT, stdio: 'inherit' }).on('close', resolve);
  });
  if (code !== 0) process.exit(code ?? 1);
}

let started = Date.now();
await buildDevLoader();
log(`built the development loader in ${seconds(started)}`);

const devServers: WidgetDevServer[] = [];
/** The `tsx watch` process running the server, once started. */
const running: { server?: ChildProcess } = {};
let stopping: Promise<unknown> | undefined;

/**
 * Stops the server (it closes its database) and the vite servers, then exits. The watcher is
 * told once, by this process: it runs in a process group of its own, so a Ctrl-C at the terminal
 * reaches neither it (a second signal would make it kill the server at once) nor the server's
 * embedded PostgreSQL (which would shut down under the server still closing).
 */
async function stop(code: number): Promise<never> {
  stopping ??= (async () => {
    const { server } = running;
    const exited = server && server.exitCode === null ? new Promise((resolve) => server.once('exit', resolve)) : Promise.resolve();
    server?.kill('SIGTERM');
    await Promise.all([...devServers.map((d) => d.server.close()), Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000))])]);
  })();
  await stopping;
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(0));
// Should this process end some other way, the watcher's group goes with it.
process.on('exit', () => {
  const pid = running.server?.pid;
  if (pid !== undefined && running.server?.exitCode === null) {
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
});

try {
  for (const name of requested) {
    started = Date.now();
    const dev = await startWidgetDevServer({ name, dir: path.join(REPO_ROOT, 'widgets', name) });
    devServers.push(dev);
    log(`vite dev of ${name} at ${dev.origin}/widgets/${name}/ (${seconds(started)})`);
  }
} catch (err) {
  console.error(err);
  await stop(1);
}

const env: NodeJS.ProcessEnv = { ...process.env, LOADER_DIR: process.env.LOADER_DIR ?? DEV_LOADER_DIR };
if (devServers.length > 0) env.WIDGET_DEV_SERVERS = devServers.map((d) => `${d.name}=${d.origin}`).join(',');
if (env.WIDGET_DEV_SERVERS) log(`WIDGET_DEV_SERVERS=${env.WIDGET_DEV_SERVERS}`);

const tsx = createRequire(import.meta.url).resolve('tsx/cli');
// Its own process group (`detached`), without the terminal's input (a background group reading it would be stopped).
running.server = spawn(process.execPath, [tsx, 'watch', '--clear-screen=false', path.join('server', 'src', 'main.ts')], { cwd: REPO_ROOT, env, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
running.server.on('exit', (code) => void stop(code ?? 0));
