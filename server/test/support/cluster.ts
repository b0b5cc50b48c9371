import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { createDb, type Db } from '../../src/db/database.ts';
import { REPO_ROOT } from '../../src/config.ts';
import { SERVER_NODE_FLAGS } from '../../src/lib/node-flags.ts';
import { DbProxy } from './db-proxy.ts';
import { startTestS3, type TestS3 } from './s3.ts';
import { TestSmtp } from './smtp.ts';
import { createTestDatabase } from './test-app.ts';

/*
 * The service as production runs it, on this machine: web processes (`RUN_WORKERS=false`), a
 * worker process (`npm run worker`), nginx in front with the repository's own configuration
 * (deploy/nginx/neurostudio.conf.template), one PostgreSQL database, files on S3 (s3rver), mail to
 * a real SMTP server. Every process is a real `node` process started as `npm start` would; tests
 * talk to nginx only, and can stop, kill and restart any process.
 */

export const NGINX_TEMPLATE = path.join(REPO_ROOT, 'deploy', 'nginx', 'neurostudio.conf.template');
/** nginx's main configuration as production runs it: the tests take its connection settings. */
export const NGINX_MAIN = path.join(REPO_ROOT, 'deploy', 'nginx', 'nginx.conf');

/** The `events` block and `worker_rlimit_nofile` of the repository's nginx.conf, as they are. */
function nginxConnectionSettings(): string[] {
  const main = fs.readFileSync(NGINX_MAIN, 'utf8');
  const events = /^events\s*\{[^}]*\}/m.exec(main)?.[0];
  const files = /^worker_rlimit_nofile\s+\d+;/m.exec(main)?.[0];
  if (!events || !files) throw new Error(`${NGINX_MAIN}: no events block or worker_rlimit_nofile`);
  return [files, events.replace(/\s+/g, ' ')];
}

export interface ClusterProcess {
  name: string;
  /** The web process's own port (nginx's upstream); none for the worker. */
  port: number | null;
  /** Where the process answers /readyz (the worker: WORKER_HEALTH_PORT). */
  healthPort: number;
  /** Where it serves Prometheus' /metrics (METRICS_PORT). */
  metricsPort: number;
  child: ChildProcess | null;
  /** Everything the process wrote (stdout and stderr), for a failing test to print. */
  output: string[];
}

export interface Cluster {
  /** nginx's address: what a browser and the tests talk to. */
  url: string;
  /** The database's own URL (the processes reach it through `dbProxy` when there is one). */
  databaseUrl: string;
  /** The test's connection to the database, never through `dbProxy`. */
  db: Db;
  /** The environment every process of the service runs with (`APP_SECRET`, `DATABASE_URL`, …). */
  env: Readonly<Record<string, string>>;
  /** With `databaseProxy`: what stands between the processes and PostgreSQL, to freeze it. */
  dbProxy: DbProxy | null;
  smtp: TestSmtp;
  s3: TestS3;
  /** `web1`, `web2`, … and `worker`. */
  processes: Map<string, ClusterProcess>;
  /** Stops a process gracefully (SIGTERM) and waits until it has exited. */
  stop(name: string): Promise<void>;
  /** Kills a process at once (SIGKILL, as a crash would). */
  kill(name: string): Promise<void>;
  /** Starts a stopped process again and waits until it is ready (`StartFailed` when it ends while starting). */
  start(name: string): Promise<void>;
  /** Stop, then start: a redeploy of one process. */
  restart(name: string): Promise<void>;
  /** The last lines a process wrote. */
  tail(name: string, lines?: number): string;
  /** nginx's error log so far. */
  nginxErrors(): string;
  close(): Promise<void>;
}

export interface ClusterOptions {
  /** Web processes behind nginx (default 2). */
  web?: number;
  /** Extra environment for every process (e.g. DEMO_WORD_DELAY_MS). */
  env?: Record<string, string>;
  /** The node binary to run the processes with (default: this one). */
  node?: string;
  /** The processes reach PostgreSQL through a proxy the test can freeze (`cluster.dbProxy`). */
  databaseProxy?: boolean;
}

/** A free TCP port on 127.0.0.1 (asked of the system, then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A process of the cluster ended while it was starting. */
export class StartFailed extends Error {
  override name = 'StartFailed';
}

/** Waits until `check` answers true, asking every 100 ms; fails after `ms` with `what`, or at once when `check` throws `StartFailed`. */
async function waitFor(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const ok = await check().catch((err: unknown) => {
      if (err instanceof StartFailed) throw err;
      return false;
    });
    if (ok) return;
    if (Date.now() > end) throw new Error(`${what}: not ready after ${String(ms / 1000)} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

const answers = async (url: string) => (await fetch(url, { signal: AbortSignal.timeout(2000) })).ok;

/** nginx's main configuration around the repository's server configuration, all under `dir`. */
function nginxConfig(dir: string, listen: number, upstreams: number[]): string {
  const site = fs
    .readFileSync(NGINX_TEMPLATE, 'utf8')
    .replaceAll('${NS_LISTEN}', `127.0.0.1:${String(listen)}`)
    .replaceAll('${NS_UPSTREAMS}', upstreams.map((p) => `server 127.0.0.1:${String(p)} max_fails=0;`).join('\n    '));
  fs.writeFileSync(path.join(dir, 'neurostudio.conf'), site);
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) fs.mkdirSync(path.join(dir, temp), { recursive: true });
  return [
    // As root, nginx's workers would run as `nobody`, who cannot use this temporary directory.
    ...(process.getuid?.() === 0 ? ['user root;'] : []),
    'daemon off;',
    'worker_processes 1;',
    `pid ${path.join(dir, 'nginx.pid')};`,
    `error_log ${path.join(dir, 'error.log')} warn;`,
    ...nginxConnectionSettings(),
    'http {',
    '  access_log off;',
    `  client_body_temp_path ${path.join(dir, 'body')};`,
    `  proxy_temp_path ${path.join(dir, 'proxy')};`,
    `  fastcgi_temp_path ${path.join(dir, 'fastcgi')};`,
    `  uwsgi_temp_path ${path.join(dir, 'uwsgi')};`,
    `  scgi_temp_path ${path.join(dir, 'scgi')};`,
    `  include ${path.join(dir, 'neurostudio.conf')};`,
    '}',
    '',
  ].join('\n');
}

export interface Nginx {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Its error log so far. */
  errors(): string;
  stop(): Promise<void>;
}

/**
 * nginx with the repository's configuration in front of web processes on 127.0.0.1 at
 * `upstreams`, listening on `listen`, its files under `dir`; answers once it answers `/healthz`
 * (through the first upstream that does), or at once with `waitForHealth: false`.
 */
export async function startNginx(opts: { dir: string; listen: number; upstreams: number[]; waitForHealth?: boolean }): Promise<Nginx> {
  const { dir, listen } = opts;
  const url = `http://127.0.0.1:${String(listen)}`;
  const errorLog = path.join(dir, 'error.log');
  const errors = () => (fs.existsSync(errorLog) ? fs.readFileSync(errorLog, 'utf8') : '');
  fs.writeFileSync(path.join(dir, 'nginx.conf'), nginxConfig(dir, listen, opts.upstreams));
  const nginx = spawn(fs.existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  const output: string[] = [];
  nginx.stderr.on('data', (d: Buffer) => output.push(d.toString()));
  nginx.once('error', (err) => output.push(String(err)));
  const stop = async () => {
    nginx.kill('SIGQUIT');
    await exited(nginx);
  };
  const up = opts.waitForHealth === false ? () => fetch(url, { signal: AbortSignal.timeout(2000) }).then(() => true) : () => answers(`${url}/healthz`);
  await waitFor('nginx', up, 15_000).catch(async (err: unknown) => {
    await stop();
    throw new Error(`${String(err)}\n${output.join('')}\n${errors()}`);
  });
  return { url, errors, stop };
}

/** Starts the whole service behind nginx; `close()` stops it and drops its database. */
export async function startCluster(opts: ClusterOptions = {}): Promise<Cluster> {
  const cleanups: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((err: unknown) => console.error('cluster cleanup:', err));
  };
  try {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const smtp = new TestSmtp();
    const smtpUrl = await smtp.start();
    cleanups.push(() => smtp.stop());
    const s3 = await startTestS3();
    cleanups.push(() => s3.stop());
    const db = createDb(database.url, 5);
    cleanups.push(() => db.destroy());
    let dbProxy: DbProxy | null = null;
    if (opts.databaseProxy) {
      const target = new URL(database.url);
      const proxy = new DbProxy({ host: target.hostname, port: Number(target.port || 5432) });
      await proxy.start();
      cleanups.push(() => proxy.stop());
      dbProxy = proxy;
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-cluster-'));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));

    const listen = await freePort();
    const url = `http://127.0.0.1:${String(listen)}`;
    const common: Record<string, string> = {
      NODE_ENV: 'production',
      ALLOW_SANDBOX: 'true',
      LOG_LEVEL: 'warn',
      DATABASE_URL: dbProxy ? dbProxy.url(database.url) : database.url,
      DATABASE_POOL_SIZE: '10',
      APP_SECRET: crypto.randomBytes(32).toString('hex'),
      PUBLIC_URL: url,
      SMTP_URL: smtpUrl,
      TRUST_PROXY: '127.0.0.1',
      RATE_LIMIT_PER_MINUTE: '1000000',
      ...s3.env,
      ...opts.env,
    };
    const processes = new Map<string, ClusterProcess>();
    const webCount = opts.web ?? 2;
    for (let i = 1; i <= webCount; i++) {
      const port = await freePort();
      processes.set(`web${String(i)}`, { name: `web${String(i)}`, port, healthPort: port, metricsPort: await freePort(), child: null, output: [] });
    }
    processes.set('worker', { name: 'worker', port: null, healthPort: await freePort(), metricsPort: await freePort(), child: null, output: [] });

    const node = opts.node ?? process.execPath;
    const spawnProcess = (p: ClusterProcess) => {
      const script = p.port === null ? 'worker.js' : 'main.js';
      const env = {
        ...process.env,
        ...common,
        DATA_DIR: path.join(dir, p.name),
        HOST: '127.0.0.1',
        METRICS_PORT: String(p.metricsPort),
        ...(p.port === null ? { WORKER_HEALTH_PORT: String(p.healthPort) } : { PORT: String(p.port), RUN_WORKERS: 'false' }),
      };
      // As `npm run serve` and `npm run worker` start them: plain Node on the built server (the
      // suite's global setup builds it), with the servers' own Node options.
      const child = spawn(node, [...SERVER_NODE_FLAGS, path.join(REPO_ROOT, 'server', 'dist', script)], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      for (const stream of [child.stdout, child.stderr]) {
        readline.createInterface({ input: stream }).on('line', (line) => {
          p.output.push(line);
          if (p.output.length > 2000) p.output.splice(0, 1000);
        });
      }
      p.child = child;
      return child;
    };
    // Ready once it answers /readyz; a process that ends while starting fails at once, with what it wrote.
    const ready = (p: ClusterProcess) =>
      waitFor(p.name, async () => {
        const child = p.child;
        if (child && (child.exitCode !== null || child.signalCode !== null)) {
          p.child = null;
          throw new StartFailed(`${p.name} exited (${String(child.exitCode ?? child.signalCode)}) while starting:\n${p.output.slice(-20).join('\n')}`);
        }
        return answers(`http://127.0.0.1:${String(p.healthPort)}/readyz`);
      });

    const cluster: Cluster = {
      url,
      databaseUrl: database.url,
      db,
      env: common,
      dbProxy,
      smtp,
      s3,
      processes,
      async stop(name) {
        const p = processes.get(name);
        if (!p?.child) return;
        const child = p.child;
        child.kill('SIGTERM');
        await exited(child);
        p.child = null;
      },
      async kill(name) {
        const p = processes.get(name);
        if (!p?.child) return;
        const child = p.child;
        child.kill('SIGKILL');
        await exited(child);
        p.child = null;
      },
      async start(name) {
        const p = processes.get(name);
        if (!p) throw new Error(`no process ${name}`);
        if (p.child) return;
        p.output.push(`--- started again at ${new Date().toISOString()} ---`);
        spawnProcess(p);
        await ready(p);
      },
      async restart(name) {
        await cluster.stop(name);
        await cluster.start(name);
      },
      tail: (name, lines = 40) => (processes.get(name)?.output ?? []).slice(-lines).join('\n'),
      nginxErrors: () => (fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8') : ''),
      close,
    };
    cleanups.push(async () => {
      await Promise.all([...processes.keys()].map((name) => cluster.stop(name)));
    });

    // `npm run db:seed` (migrations, then plans, cards and the catalogue with its example images
    // on S3), as a deployment does once; then every process at once.
    const seeding = spawn(node, [path.join(REPO_ROOT, 'server', 'dist', 'cli', 'seed.js')], { cwd: REPO_ROOT, env: { ...process.env, ...common, DATA_DIR: path.join(dir, 'seed') }, stdio: ['ignore', 'ignore', 'pipe'] });
    const seedErrors: string[] = [];
    seeding.stderr.on('data', (d: Buffer) => seedErrors.push(d.toString()));
    const seedCode = await new Promise<number | null>((resolve) => seeding.once('exit', resolve));
    if (seedCode !== 0) throw new Error(`db:seed failed: ${seedErrors.join('')}`);
    const rest = [...processes.values()];
    for (const p of rest) spawnProcess(p);
    await Promise.all(rest.map(ready));

    const nginx = await startNginx({ dir, listen, upstreams: [...processes.values()].flatMap((p) => (p.port === null ? [] : [p.port])) });
    cleanups.push(() => nginx.stop());
    return cluster;
  } catch (err) {
    await close();
    throw err;
  }
}
