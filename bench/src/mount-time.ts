import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../e2e/support/browser.ts';
import { linkNodeModules } from '../../e2e/support/checkout.ts';
import { sha256 } from '../../server/src/lib/crypto.ts';
import { runWhenMain } from './standalone.ts';
import { startProcess, stop, type Started } from './speed.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The last commit whose widgets were linked by the host registry of our own (before Module
 * Federation): the "today's build" the federated build is timed against, built from its own tree
 * and served by its own server in the same run.
 */
export const BASELINE_COMMIT = '752924df5c875f05144e2330c8ad81f30c352924';
/** The pages timed, and the widgets each mounts (what the baseline tree builds). */
const PAGES = [
  { path: '/dashboard', widgets: ['welcome-notice', 'dashboard', 'history-button', 'conversion'] },
  { path: '/chat', widgets: ['chat'] },
] as const;
/**
 * Cold loads of each page on each build (fresh browser context: empty cache), alternating; the
 * warm-up rounds included. `MOUNT_ROUNDS` sets fewer (CI: 20, about four minutes less on a slow
 * machine; the figures quoted against the target come from a plain `npm run bench`).
 */
const ROUNDS = Math.max(8, Number(process.env.MOUNT_ROUNDS ?? 40) || 40);
/**
 * The networks each page is timed on. Loopback: nothing but the machine's own work, where a
 * round trip costs nothing and the federated page's extra JavaScript is all that differs. A
 * round trip of 40 ms (a home connection to a data centre in the same country; Chromium's
 * emulation adds it to every request, bandwidth unlimited, since bytes are not what a waterfall
 * costs): what a request that waits on another costs a user. Fewer rounds there: the figures
 * swing less than the difference the round trips make.
 */
export const NETWORKS = [
  { name: 'loopback', latencyMs: 0, rounds: ROUNDS },
  { name: 'RTT 40 ms', latencyMs: 40, rounds: Math.round(ROUNDS / 2) },
] as const;
type Network = (typeof NETWORKS)[number];
/** The first rounds warm the servers and Chromium up: not counted. */
const WARMUP = 3;
/** Target: the federated build is not slower than the baseline (p50 ratio ≤ 1). */
export const MOUNT_TIME_TARGET = 1;
/** What fails the bench: page loads on loopback swing ±20 % between runs on this machine. */
export const MOUNT_TIME_FLOOR = 1.25;

export interface MountTimeRow {
  path: string;
  /** The network the page was loaded over (`NETWORKS`). */
  network: string;
  /** Cold loads a side that were counted. */
  rounds: number;
  widgets: number;
  baselineP50Ms: number;
  federationP50Ms: number;
  ratio: number;
}

export interface MountTimeReport {
  baselineCommit: string;
  /** Set when the baseline could not be built (e.g. a shallow clone without its commit): nothing was compared. */
  skipped?: string;
  rows: MountTimeRow[];
  target: number;
  floor: number;
}

/** Whether this clone holds the baseline commit (a shallow clone does not). */
export function hasBaselineCommit(): boolean {
  try {
    execFileSync('git', ['-C', ROOT, 'cat-file', '-e', `${BASELINE_COMMIT}^{commit}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The checkout that built a baseline copy, from its ready mark (none for a copy not finished). */
function builtBy(copy: string): string | undefined {
  try {
    return (JSON.parse(fs.readFileSync(path.join(copy, '.bench-ready'), 'utf8')) as { root?: string }).root;
  } catch {
    return undefined;
  }
}

/**
 * The mount-time bench's copy of the baseline commit, built: `<tmp>/ns-baseline-<commit>-<checkout>`
 * (kept between runs; `.ci/run` builds it beside the test suite, so the bench only times). Its
 * node_modules are links into the checkout that built it, so each checkout has its own copy, and
 * the copies of checkouts that are gone (their links lead nowhere) are removed.
 */
export function baselineTree(): string {
  const prefix = `ns-baseline-${BASELINE_COMMIT.slice(0, 12)}-`;
  const dir = path.join(os.tmpdir(), `${prefix}${sha256(ROOT).toString('hex').slice(0, 10)}`);
  const done = path.join(dir, '.bench-ready');
  for (const name of fs.readdirSync(os.tmpdir())) {
    const other = path.join(os.tmpdir(), name);
    if (!name.startsWith(prefix) || other === dir) continue;
    const root = builtBy(other);
    if (root !== undefined && !fs.existsSync(path.join(root, 'node_modules'))) fs.rmSync(other, { recursive: true, force: true });
  }
  if (fs.existsSync(done)) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const archive = execFileSync('git', ['-C', ROOT, 'archive', BASELINE_COMMIT], { maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  // Its node_modules: this checkout's packages (the baseline's lock differs only by the federation
  // packages it does not use; es-module-lexer, which its build config needs, is a dependency of
  // this workspace for that), with its own workspaces under @app.
  const workspaces: Record<string, string> = {};
  for (const workspace of ['shared-contracts', 'server', 'host-pages', 'storybook', 'e2e', 'bench', ...fs.readdirSync(path.join(dir, 'widgets')).map((w) => `widgets/${w}`)]) {
    const pkg = path.join(dir, workspace, 'package.json');
    if (!fs.existsSync(pkg)) continue;
    workspaces[(JSON.parse(fs.readFileSync(pkg, 'utf8')) as { name: string }).name] = path.join(dir, workspace);
    // What npm installed for this workspace alone (a version the others do not share).
    const own = path.join(ROOT, workspace, 'node_modules');
    if (fs.existsSync(own)) fs.symlinkSync(own, path.join(dir, workspace, 'node_modules'));
  }
  linkNodeModules(dir, workspaces);
  const widgets = [...new Set(PAGES.flatMap((p) => p.widgets))];
  const build = spawnSync(process.execPath, [path.join(dir, 'scripts', 'build-frontend.mjs'), 'loader', ...widgets], { cwd: dir, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`mount-time bench: the baseline's build failed:\n${build.stdout}\n${build.stderr}`);
  fs.writeFileSync(done, JSON.stringify({ root: ROOT, built: new Date().toISOString() }));
  return dir;
}

/** Time from navigation start to every widget of the page mounted (or failed), in a cold context. */
async function mountTime(browser: Browser, server: Started, pathname: string, network: Network): Promise<number> {
  const context = await browser.newContext({ locale: 'ru-RU' });
  try {
    await context.addCookies([{ name: 'session', value: server.info.cookie ?? '', url: server.info.baseUrl }]);
    await context.addInitScript({ content: `window.localStorage.setItem('auth_token', ${JSON.stringify(server.info.token ?? '')});` });
    // Runs before the page's scripts: when the loader's promise settles, the moment is kept.
    await context.addInitScript({
      content: `addEventListener('DOMContentLoaded', () => { window.__widgetsReady?.then(() => { window.__mountedAt = performance.now(); }); });`,
    });
    const page = await context.newPage();
    if (network.latencyMs > 0) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: network.latencyMs, downloadThroughput: -1, uploadThroughput: -1 });
    }
    await page.goto(`${server.info.baseUrl}${pathname}`);
    // Functions, not strings: the page's CSP forbids evaluating a string.
    await page.waitForFunction(() => (globalThis as { __mountedAt?: number }).__mountedAt !== undefined);
    const failed = await page.locator('[data-widget][data-failed]').count();
    if (failed > 0) throw new Error(`mount-time bench: ${String(failed)} widgets failed on ${pathname}`);
    return await page.evaluate(() => (globalThis as { __mountedAt?: number }).__mountedAt ?? Number.NaN);
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

/**
 * Navigation to every widget mounted, the registry build of `BASELINE_COMMIT` (its loader and
 * widgets, served by its own server) against this checkout's federated build, in one run and one
 * Chromium, cold each time, alternating. Both servers run on the machine's Postgres.
 */
export async function measureMountTime(): Promise<MountTimeReport> {
  const report: MountTimeReport = { baselineCommit: BASELINE_COMMIT, rows: [], target: MOUNT_TIME_TARGET, floor: MOUNT_TIME_FLOOR };
  if (!hasBaselineCommit()) return { ...report, skipped: `the commit ${BASELINE_COMMIT.slice(0, 12)} is not in this clone` };
  const tree = baselineTree();
  const [baseline, federation, browser] = await Promise.all([startProcess('page-server-process.ts', { BENCH_TREE: tree }), startProcess('page-server-process.ts'), launchBrowser()]);
  try {
    for (const network of NETWORKS) {
      for (const page of PAGES) {
        const times = { baseline: [] as number[], federation: [] as number[] };
        for (let round = 0; round < network.rounds; round++) {
          // Alternating which goes first, so neither always follows the other's load.
          const order = round % 2 ? (['federation', 'baseline'] as const) : (['baseline', 'federation'] as const);
          for (const side of order) {
            const ms = await mountTime(browser, side === 'baseline' ? baseline : federation, page.path, network);
            if (round >= WARMUP) times[side].push(ms);
          }
        }
        const baselineP50Ms = median(times.baseline);
        const federationP50Ms = median(times.federation);
        report.rows.push({ path: page.path, network: network.name, rounds: network.rounds - WARMUP, widgets: page.widgets.length, baselineP50Ms, federationP50Ms, ratio: federationP50Ms / baselineP50Ms });
      }
    }
  } finally {
    await browser.close();
    await Promise.all([stop(baseline), stop(federation)]);
  }
  return report;
}

runWhenMain(import.meta.url, measureMountTime);
