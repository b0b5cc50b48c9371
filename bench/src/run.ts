import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { checkBudgets, pageWeight } from './budget-check.ts';
import { measurePages } from './pages.ts';
import { markdown, type BenchReport, type PageReport, type WidgetReport } from './report.ts';
import { hotWalletChecks, hotWalletProblems, measureThroughput } from './throughput.ts';
import { measureSpeed } from './speed.ts';
import { CHAT_FIRST_TOKEN_TARGET_MS, CHAT_OVERHEAD_FLOOR_MS, measureChat } from './chat.ts';
import { QUEUE_START_TARGET_MS, measureQueue } from './queue.ts';
import { measureStreams } from './streams.ts';
import { measureMountTime } from './mount-time.ts';
import { measurePhone, phoneProblems, writePhoneReport } from './phone.ts';
import { waitForQuiet } from './quiet.ts';
import { machineAdminUrl } from '../../server/test/support/postgres.ts';
import { isBuilt, isGlueFile, loaderSize, servedFile, sizeOf, sum, widgetNames, widgetSize, type FileSize } from './sizes.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const WIDGETS_DIR = path.join(ROOT, 'widgets');
const LOADER_DIR = path.join(ROOT, 'host-pages', 'dist');
const REPORT_DIR = path.join(ROOT, 'bench', 'report');

/** The newest modification time of the files under `dirs` (0 for none). */
function newest(dirs: string[]): number {
  let latest = 0;
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else latest = Math.max(latest, fs.statSync(full).mtimeMs);
    }
  };
  for (const dir of dirs) walk(dir);
  return latest;
}

/** What every build takes in besides its own sources: the kit, the contracts and the build config. */
const SHARED_SOURCES = [path.join(WIDGETS_DIR, 'kit', 'src'), path.join(ROOT, 'shared-contracts', 'src'), path.join(WIDGETS_DIR, 'build-config', 'src')];

/**
 * Builds what has no build yet or whose sources changed after its build (the loader and widgets by
 * name, as `npm run build` would), so a stale build is never measured; a failed build stops the bench.
 */
function ensureBuilt(): void {
  const mtime = (file: string) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0);
  const shared = newest(SHARED_SOURCES);
  const loaderBuilt = mtime(path.join(LOADER_DIR, 'loader.js'));
  const stale = [
    ...(loaderBuilt > Math.max(shared, newest([path.join(ROOT, 'host-pages', 'src')])) ? [] : ['loader']),
    ...widgetNames(WIDGETS_DIR).filter((n) => mtime(path.join(WIDGETS_DIR, n, 'dist', 'widget.json')) <= Math.max(shared, newest([path.join(WIDGETS_DIR, n, 'src')]))),
  ];
  if (!stale.length) return;
  console.log(`not built or older than their sources: ${stale.join(', ')}; building them`);
  const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-frontend.mjs'), ...stale], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('the build failed: nothing stale is measured');
}

/** Gzip sizes of the files behind URL paths, read from disk (cache hits have no body to read in the browser). */
function filesSize(urlPaths: string[]): FileSize & { files: number } {
  const sizes = urlPaths.map(fileSize).filter((s): s is FileSize => s !== null);
  return { files: sizes.length, ...sum(sizes) };
}

function fileSize(urlPath: string): FileSize | null {
  const file = servedFile(urlPath, { widgetsDir: WIDGETS_DIR, loaderDir: LOADER_DIR });
  return file && fs.existsSync(file) ? sizeOf(fs.readFileSync(file)) : null;
}

/**
 * `npm run bench -- --pages`: only the pages in Chromium against their budgets and the React
 * copies, printed (the report in bench/report/ is left as it is); a minute instead of several.
 */
function pagesOnly(pages: PageReport[]): number {
  const budgets = checkBudgets(pages.map((p) => pageWeight(p.path, p.scripts, fileSize, (url) => isGlueFile(WIDGETS_DIR, url))));
  for (const b of budgets) console.log(`${b.ok ? 'ok  ' : 'OVER'} ${b.page}: ${b.figure} ${b.unit === 'requests' ? String(b.value) : b.value.toFixed(2)} of ${String(b.budget)} ${b.unit}`);
  const wrong = pages.filter((p) => p.reactCopies !== 1 || p.renderers !== 1 || p.failed.length || p.errors.length);
  for (const p of wrong) console.log(`${p.path}: ${String(p.reactCopies)} React copies, ${String(p.renderers)} renderers, failed: ${p.failed.join(', ') || '—'}, errors: ${p.errors.join(' | ') || '—'}`);
  return budgets.every((b) => b.ok) && wrong.length === 0 ? 0 : 1;
}

/**
 * `npm run bench -- --ledger`: only the ledger and webhook throughput on a quiet machine, printed
 * with the hot-wallet gates (the report in bench/report/ is left as it is); about a minute.
 */
async function ledgerOnly(): Promise<number> {
  const quiet = await waitForQuiet(machineAdminUrl());
  console.log(`began after ${quiet.waitedSeconds.toFixed(0)} s, ${quiet.quiet ? 'quiet' : 'busy'} (${(quiet.busy * 100).toFixed(0)} % of the cores)`);
  const throughput = await measureThroughput();
  for (const r of throughput.rates) console.log(`${r.perSecond.toFixed(0).padStart(6)}/s  ${r.name} (${String(r.operations)}, ${String(r.concurrency)} at once)`);
  for (const c of hotWalletChecks(throughput)) {
    console.log(`${c.metTarget ? 'met   ' : 'MISSED'} ${c.name}: ${c.perSecond.toFixed(0)} a second, target ${String(throughput.hotWalletTarget)}; ${c.share.toFixed(2)} of its baseline (floor ${String(throughput.floor)})`);
  }
  const problems = hotWalletProblems(throughput);
  for (const p of problems) console.log(`FAILS ${p}`);
  if (!throughput.consistent) console.log('a balance differs from its ledger sum');
  return problems.length === 0 && throughput.consistent ? 0 : 1;
}

async function main(): Promise<number> {
  if (process.argv.includes('--ledger')) return ledgerOnly();
  const started = Date.now();
  const phases: BenchReport['phases'] = [];
  /** Runs one part of the bench on a quiet machine (`waitForQuiet`), keeping how long it took. */
  const phase = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    const quiet = await waitForQuiet(machineAdminUrl());
    const t0 = Date.now();
    const result = await run();
    phases.push({ name, seconds: (Date.now() - t0) / 1000, quiet });
    return result;
  };
  ensureBuilt();
  const names = widgetNames(WIDGETS_DIR);
  const loader = loaderSize(LOADER_DIR);
  const pages: PageReport[] = (await phase('pages', measurePages)).map((p) => ({ ...p, js: filesSize(p.scripts) }));
  if (process.argv.includes('--pages')) return pagesOnly(pages);
  const throughput = await phase('ledger', measureThroughput);
  const speed = await phase('API speed', measureSpeed);
  const chat = await phase('chat', measureChat);
  const queue = await phase('queue', measureQueue);
  const streams = await phase('streams', measureStreams);
  const mountTime = await phase('mount time', measureMountTime);
  const phone = await phase('phone', measurePhone);
  const widgets: WidgetReport[] = names
    .filter((n) => isBuilt(WIDGETS_DIR, n))
    .map((n) => {
      const loadedPaths = [...new Set(pages.flatMap((p) => p.scripts.filter((s) => s.startsWith(`/widgets/${n}/`))))];
      return { ...widgetSize(WIDGETS_DIR, n), loaded: loadedPaths.length ? filesSize(loadedPaths) : null };
    });

  const budgets = checkBudgets(pages.map((p) => pageWeight(p.path, p.scripts, fileSize, (url) => isGlueFile(WIDGETS_DIR, url))));
  const problems: string[] = budgets.filter((b) => !b.ok).map((b) => `${b.page}: ${b.figure} ${b.value.toFixed(1)} ${b.unit} over its budget of ${String(b.budget)}`);
  for (const p of pages) {
    if (p.reactCopies !== 1) problems.push(`${p.path}: ${p.reactCopies} React copies (${p.reactScripts.join(', ') || 'none ran'})`);
    if (p.renderers !== 1) problems.push(`${p.path}: ${p.renderers} react-dom renderers`);
    if (p.failed.length) problems.push(`${p.path}: widgets failed to load: ${p.failed.join(', ')}`);
    if (p.errors.length) problems.push(`${p.path}: ${String(p.errors.length)} JavaScript errors on the page (${p.errors[0] ?? ''})`);
  }
  if (!throughput.consistent) problems.push('a balance differs from its ledger sum after the throughput runs');
  problems.push(...hotWalletProblems(throughput));
  for (const row of speed.rows) {
    // A refused or failed request is not a fast one: any in a measured run makes its figures meaningless.
    for (const [server, load] of [['app', row.app], ['bare', row.bare]] as const) {
      if (load.non2xx || load.errors) problems.push(`${row.path} (${row.as}): the ${server} server answered ${String(load.non2xx)} non-2xx replies and ${String(load.errors)} errors`);
    }
    // p99 of a 2-second run swings 0.67–1.00 from run to run on this machine: reported, not failed.
    for (const key of ['ratioThroughput', 'ratioP50'] as const) {
      if (row[key] < speed.floor) problems.push(`${row.path}: ${key} ${row[key].toFixed(2)} under the floor of ${String(speed.floor)}`);
    }
  }
  if (chat.app.firstTokenP50Ms > CHAT_FIRST_TOKEN_TARGET_MS) problems.push(`chat: first token p50 ${chat.app.firstTokenP50Ms.toFixed(2)} ms, target ${String(CHAT_FIRST_TOKEN_TARGET_MS)}`);
  if (chat.app.overheadP50Ms > CHAT_OVERHEAD_FLOOR_MS) problems.push(`chat: overhead p50 ${chat.app.overheadP50Ms.toFixed(2)} ms over the regression floor of ${String(CHAT_OVERHEAD_FLOOR_MS)} ms`);
  if (queue.startLatencyP50Ms > QUEUE_START_TARGET_MS) problems.push(`queue: a run starts ${String(queue.startLatencyP50Ms)} ms (p50) after its commit, target ${String(QUEUE_START_TARGET_MS)}`);
  if (streams.ratio > streams.floor) problems.push(`streams: another user's p95 ${streams.ratio.toFixed(2)}× its baseline with ${String(streams.streams)} open streams, over the floor of ${String(streams.floor)}× (target ${String(streams.target)}×)`);
  for (const row of mountTime.rows) {
    if (row.ratio > mountTime.floor) problems.push(`mount time: ${row.path} (${row.network}) ${row.federationP50Ms.toFixed(0)} ms p50, ${row.ratio.toFixed(2)}× the build before federation (${row.baselineP50Ms.toFixed(0)} ms), over the floor of ${String(mountTime.floor)}×`);
  }
  problems.push(...phoneProblems(phone));
  const reactCopies = Math.max(...pages.map((p) => p.reactCopies));
  const report: BenchReport = {
    generatedAt: new Date().toISOString(),
    node: process.versions.node,
    loader,
    widgets,
    unbuilt: names.filter((n) => !isBuilt(WIDGETS_DIR, n)),
    pages,
    reactCopies,
    throughput,
    speed,
    chat,
    queue,
    streams,
    mountTime,
    phone,
    budgets,
    ok: problems.length === 0,
    problems,
    durationMs: 0,
    phases,
  };
  report.durationMs = Date.now() - started;

  fs.mkdirSync(REPORT_DIR, { recursive: true });
  fs.writeFileSync(path.join(REPORT_DIR, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  const md = markdown(report);
  fs.writeFileSync(path.join(REPORT_DIR, 'README.md'), md);
  writePhoneReport(phone);
  console.log(md);
  for (const p of pages) if (p.errors.length) console.log(`page errors on ${p.path}:\n  ${p.errors.join('\n  ')}`);
  return report.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
