import { runWhenMain } from './standalone.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import autocannon from 'autocannon';
import { SERVER_NODE_FLAGS } from '../../server/src/lib/node-flags.ts';

/** What one path did under load on one server. */
export interface Load {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export interface SpeedRow {
  path: string;
  /** Whose token the requests carried. */
  as: SpeedPath['as'];
  rounds: number;
  secondsPerRun: number;
  app: Load;
  bare: Load;
  /** app ÷ bare throughput; 1 = as fast as the bare server. */
  ratioThroughput: number;
  /** bare ÷ app latency (so that, as for throughput, higher is better). */
  ratioP50: number;
  ratioP99: number;
}

export interface SpeedReport {
  connections: number;
  rows: SpeedRow[];
  /** The figure the app aims at; a ratio under it is reported, not failed (the machine's noise alone moves a ratio by ±0.05). */
  target: number;
  /** Throughput or p50 ratios under this fail the bench: a regression, not noise (p99 is reported only). */
  floor: number;
}

/** A path measured, whose token it sends, and how long: the hot paths every page calls get more runs than the admin panel's lists. */
export interface SpeedPath {
  path: string;
  /** A confirmed user, a user before email confirmation (the overlay's reads), or an admin. */
  as: 'user' | 'unconfirmed' | 'admin';
  rounds: number;
  seconds: number;
}

const hot = (path: string, as: SpeedPath['as'] = 'user'): SpeedPath => ({ path, as, rounds: 5, seconds: 2 });
const adminList = (path: string): SpeedPath => ({ path, as: 'admin', rounds: 5, seconds: 1 });

export const SPEED_PATHS: readonly SpeedPath[] = [
  hot('/api/new/tariff?frontend=1'),
  hot('/api/new/subscribe/check_user'),
  hot('/api/new/user'),
  hot('/api/new/user', 'unconfirmed'),
  // The admin panel's users list (users seeded by app-process.ts): a later page, and a search sorted by email.
  adminList('/api/admin/users?page=3'),
  adminList('/api/admin/users?q=client-1&sort=email&dir=asc'),
];
const CONNECTIONS = 50;
export const SPEED_TARGET = 0.85;
export const SPEED_FLOOR = 0.7;

export interface Started {
  child: ChildProcess;
  info: { baseUrl: string; databaseUrl?: string; token?: string; cookie?: string; unconfirmedToken?: string; adminToken?: string };
}

/** Starts a bench process and waits for its JSON line. */
export function startProcess(file: string, env: Record<string, string> = {}): Promise<Started> {
  // BENCH_CPU_PROFILE_DIR=<dir>: each server process writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROFILE_DIR] : [];
  // The servers' own Node options (SERVER_NODE_FLAGS), the bare ones too: the two differ in code only.
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...profile, '--import', 'tsx', path.join(import.meta.dirname, file)], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.once('line', (line) => {
      try {
        resolve({ child, info: JSON.parse(line) as Started['info'] });
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
    child.once('exit', (code) => reject(new Error(`${file} exited with ${String(code)} before it was ready`)));
  });
}

export const stop = (started: Started) =>
  new Promise<void>((resolve) => {
    started.child.once('exit', () => resolve());
    started.child.kill('SIGTERM');
  });

/** The `q` quantile of sorted values (nearest rank). */
const quantile = (sorted: Float64Array, q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;

/**
 * One run of autocannon. Latencies are every response's own time, to the microsecond: autocannon's
 * percentiles come from a histogram of whole milliseconds, and at 2–3 ms a p50 ratio of whole
 * milliseconds is 0.67 or 1 whatever the servers do.
 */
async function load(url: string, token: string, seconds: number): Promise<Load> {
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, connections: CONNECTIONS, duration: seconds, headers: { authorization: `Bearer ${token}`, accept: 'application/json' } }, (err: unknown, res) => (err ? reject(err instanceof Error ? err : new Error('autocannon failed', { cause: err })) : resolve(res)));
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => times.push(responseTime));
  });
  const sorted = Float64Array.from(times).sort();
  return { requestsPerSecond: result.requests.average, p50Ms: quantile(sorted, 0.5), p99Ms: quantile(sorted, 0.99), errors: result.errors + result.timeouts, non2xx: result.non2xx };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

/** The median of each figure over the runs; refusals and errors of every run count. */
const medianLoad = (runs: Load[]): Load => ({
  requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
  p50Ms: median(runs.map((r) => r.p50Ms)),
  p99Ms: median(runs.map((r) => r.p99Ms)),
  errors: runs.reduce((n, r) => n + r.errors, 0),
  non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
});

/**
 * A ratio as the median over rounds of each round's own ratio: a round is one run of each server
 * back to back, so a drift of the machine's load between rounds moves both sides of a round alike.
 */
const pairedRatio = (appRuns: Load[], bareRuns: Load[], ratio: (app: Load, bare: Load) => number): number =>
  median(appRuns.map((a, i) => ratio(a, bareRuns[i] ?? a)));

/**
 * Throughput and latency of the app's hottest reads and the admin panel's lists under 50 connections (autocannon) against
 * a bare Fastify + pg server answering the same paths with the same SQL on the same database,
 * in the same run: each server in its own process, the two alternating (and which goes first),
 * each figure the median of the rounds (a ratio: the median of each round's own ratio).
 */
export async function measureSpeed(): Promise<SpeedReport> {
  const app = await startProcess('app-process.ts');
  let bare: Started | undefined;
  try {
    const { databaseUrl, token, unconfirmedToken, adminToken } = app.info;
    if (!databaseUrl || !token || !unconfirmedToken || !adminToken) throw new Error('the app process did not say its database and tokens');
    const tokens: Record<SpeedPath['as'], string> = { user: token, unconfirmed: unconfirmedToken, admin: adminToken };
    const baseline = await startProcess('bare-process.ts', { DATABASE_URL: databaseUrl });
    bare = baseline;
    // Both servers once through every path before any round counts: the first path measured must not
    // pay for the JIT of the code every path shares (the app has far more of it than the bare server),
    // which a server that has run a minute has long compiled.
    for (const { path: p, as } of SPEED_PATHS) {
      await load(`${baseline.info.baseUrl}${p}`, tokens[as], 1);
      await load(`${app.info.baseUrl}${p}`, tokens[as], 1);
    }
    const rows: SpeedRow[] = [];
    for (const { path: p, as, rounds, seconds } of SPEED_PATHS) {
      const bearer = tokens[as];
      // Warm both (JIT, connection pools, caches) before anything counts.
      await load(`${baseline.info.baseUrl}${p}`, bearer, 1);
      await load(`${app.info.baseUrl}${p}`, bearer, 1);
      const appRuns: Load[] = [];
      const bareRuns: Load[] = [];
      // Alternating which goes first, so a drift of the machine's load favours neither.
      for (let round = 0; round < rounds; round++) {
        const runBare = async () => bareRuns.push(await load(`${baseline.info.baseUrl}${p}`, bearer, seconds));
        const runApp = async () => appRuns.push(await load(`${app.info.baseUrl}${p}`, bearer, seconds));
        if (round % 2 === 0) {
          await runBare();
          await runApp();
        } else {
          await runApp();
          await runBare();
        }
      }
      const a = medianLoad(appRuns);
      const b = medianLoad(bareRuns);
      rows.push({
        path: p,
        as,
        rounds,
        secondsPerRun: seconds,
        app: a,
        bare: b,
        ratioThroughput: pairedRatio(appRuns, bareRuns, (x, y) => x.requestsPerSecond / y.requestsPerSecond),
        ratioP50: pairedRatio(appRuns, bareRuns, (x, y) => y.p50Ms / Math.max(x.p50Ms, 0.001)),
        ratioP99: pairedRatio(appRuns, bareRuns, (x, y) => y.p99Ms / Math.max(x.p99Ms, 0.001)),
      });
    }
    return { connections: CONNECTIONS, rows, target: SPEED_TARGET, floor: SPEED_FLOOR };
  } finally {
    if (bare) await stop(bare);
    await stop(app);
  }
}

runWhenMain(import.meta.url, measureSpeed);
