import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../e2e/support/browser.ts';
import { startProcess, stop, type Started } from './speed.ts';

/**
 * Pages on a phone on a slow network: Lighthouse's mobile profile (its "slow 4G" figures applied
 * as they are, not its simulation) emulated in Chromium through the DevTools protocol — a
 * 390×844 screen, a round trip of 150 ms, 1.6 Mbit/s down, 750 kbit/s up, the CPU 4× slower —
 * each page opened cold (a fresh context: empty cache) by a signed-in user (guest pages without a
 * session), the median of `ROUNDS` loads after a warm-up one.
 */
export const PHONE_PROFILE = {
  width: 390,
  height: 844,
  deviceScaleFactor: 1.75,
  latencyMs: 150,
  downloadBytesPerSecond: (1.6 * 1024 * 1024) / 8,
  uploadBytesPerSecond: (750 * 1024) / 8,
  cpuSlowdown: 4,
} as const;

/** The pages measured; `guest`: opened without a session. */
export const PHONE_PAGES = [
  { path: '/login', guest: true },
  { path: '/register', guest: true },
  { path: '/password/reset', guest: true },
  { path: '/dashboard', guest: false },
  { path: '/dashboard/user/payment', guest: false },
  { path: '/dashboard/user/orders', guest: false },
  { path: '/dashboard/balance', guest: false },
  { path: '/chat', guest: false },
  { path: '/ai-products', guest: false },
  { path: '/ai-history', guest: false },
] as const;

const ROUNDS = Number(process.env.PHONE_ROUNDS ?? 5);
const WARMUP = 1;

/** The targets, and what fails the bench (the "good" limits of Core Web Vitals). */
export const PHONE_TARGETS = { lcpMs: 1500, mountedMs: 1500, cls: 0.02 } as const;
export const PHONE_LIMITS = { lcpMs: 2500, cls: 0.1 } as const;

export interface PhoneLoad {
  fcpMs: number;
  lcpMs: number;
  /** Navigation start to every widget of the page mounted (the loader's `__widgetsReady`). */
  mountedMs: number;
  /** Cumulative layout shift: the largest session window (gaps under 1 s, at most 5 s), as Core Web Vitals count it, until the page is settled. */
  cls: number;
  /** Bytes received, headers and compressed bodies. */
  wireBytes: number;
}

export interface PhoneRow extends PhoneLoad {
  path: string;
  guest: boolean;
  rounds: number;
}

export interface PhoneReport {
  profile: typeof PHONE_PROFILE;
  targets: typeof PHONE_TARGETS;
  limits: typeof PHONE_LIMITS;
  rows: PhoneRow[];
}

/** Runs in the page before its scripts: layout shifts and LCP entries kept as they happen. */
const OBSERVE = `(() => {
  const shifts = []; const lcp = [];
  window.__phone = { shifts, lcp };
  const name = (n) => n ? n.nodeName.toLowerCase() + (n.className && typeof n.className === 'string' ? '.' + n.className.trim().split(/\\s+/).join('.') : '') + (n.closest?.('[data-widget]') ? ' in ' + n.closest('[data-widget]').dataset.widget : '') : '?';
  new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) shifts.push({ t: e.startTime, v: e.value, by: e.sources.map((s) => name(s.node)).join(', ') }); }).observe({ type: 'layout-shift', buffered: true });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) lcp.push({ t: e.startTime, el: name(e.element) }); }).observe({ type: 'largest-contentful-paint', buffered: true });
  addEventListener('DOMContentLoaded', () => { window.__widgetsReady?.then(() => { window.__mountedAt = performance.now(); }); });
})();`;

/** The largest session window of layout shifts (a new window after 1 s without one or 5 s after its start). */
export function cumulativeShift(shifts: { t: number; v: number }[]): number {
  let best = 0;
  let current = 0;
  let start = -Infinity;
  let last = -Infinity;
  for (const s of shifts) {
    if (s.t - last > 1000 || s.t - start > 5000) {
      current = 0;
      start = s.t;
    }
    current += s.v;
    last = s.t;
    best = Math.max(best, current);
  }
  return best;
}

async function throttle(page: Page, onBytes: (n: number) => void): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: PHONE_PROFILE.latencyMs,
    downloadThroughput: PHONE_PROFILE.downloadBytesPerSecond,
    uploadThroughput: PHONE_PROFILE.uploadBytesPerSecond,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE_PROFILE.cpuSlowdown });
  cdp.on('Network.loadingFinished', (e: { encodedDataLength: number }) => onBytes(e.encodedDataLength));
}

/** One cold load: the figures once every widget has mounted and the network has been idle for 500 ms (what the widgets fetched has landed). */
export async function loadOnce(browser: Browser, server: Started, page: { path: string; guest: boolean }): Promise<PhoneLoad> {
  const { width, height, deviceScaleFactor } = PHONE_PROFILE;
  const context = await browser.newContext({ locale: 'ru-RU', viewport: { width, height }, deviceScaleFactor, isMobile: true, hasTouch: true });
  try {
    if (!page.guest) {
      await context.addCookies([{ name: 'session', value: server.info.cookie ?? '', url: server.info.baseUrl }]);
      await context.addInitScript({ content: `window.localStorage.setItem('auth_token', ${JSON.stringify(server.info.token ?? '')});` });
    }
    await context.addInitScript({ content: OBSERVE });
    const tab = await context.newPage();
    let wireBytes = 0;
    await throttle(tab, (n) => (wireBytes += n));
    await tab.goto(`${server.info.baseUrl}${page.path}`);
    // Functions, not strings: the page's CSP forbids evaluating a string.
    await tab.waitForFunction(() => (globalThis as { __mountedAt?: number }).__mountedAt !== undefined, undefined, { timeout: 60_000 });
    await tab.waitForLoadState('networkidle', { timeout: 60_000 });
    const failed = await tab.locator('[data-widget][data-failed]').count();
    if (failed > 0) throw new Error(`phone bench: ${String(failed)} widgets failed on ${page.path}`);
    const seen = await tab.evaluate(() => {
      const g = globalThis as unknown as { __mountedAt: number; __phone: { shifts: { t: number; v: number; by: string }[]; lcp: { t: number; el: string }[] } };
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN;
      return { fcp, mounted: g.__mountedAt, shifts: g.__phone.shifts, lcp: g.__phone.lcp.at(-1) };
    });
    if (process.env.PHONE_DEBUG) console.error(page.path, JSON.stringify({ lcp: seen.lcp, mounted: seen.mounted, shifts: seen.shifts }));
    return { fcpMs: seen.fcp, lcpMs: seen.lcp?.t ?? Number.NaN, mountedMs: seen.mounted, cls: cumulativeShift(seen.shifts), wireBytes };
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

/** Every page of `PHONE_PAGES` (or those named in `PHONE_ONLY`, comma-separated), cold, `ROUNDS` times after a warm-up, each figure's median. */
export async function measurePhone(): Promise<PhoneReport> {
  const only = process.env.PHONE_ONLY?.split(',');
  const pages = PHONE_PAGES.filter((p) => !only || only.includes(p.path));
  const [server, browser] = await Promise.all([startProcess('page-server-process.ts'), launchBrowser()]);
  const rows: PhoneRow[] = [];
  try {
    for (const page of pages) {
      const loads: PhoneLoad[] = [];
      for (let round = 0; round < WARMUP + ROUNDS; round++) {
        const load = await loadOnce(browser, server, page);
        if (round >= WARMUP) loads.push(load);
      }
      const of = (key: keyof PhoneLoad) => median(loads.map((l) => l[key]));
      rows.push({ path: page.path, guest: page.guest, rounds: loads.length, fcpMs: of('fcpMs'), lcpMs: of('lcpMs'), mountedMs: of('mountedMs'), cls: of('cls'), wireBytes: of('wireBytes') });
    }
  } finally {
    await browser.close();
    await stop(server);
  }
  return { profile: PHONE_PROFILE, targets: PHONE_TARGETS, limits: PHONE_LIMITS, rows };
}

/** What fails the bench: a page over the "good" limits of LCP or CLS. */
export const phoneProblems = (r: PhoneReport): string[] =>
  r.rows.flatMap((row) => [
    ...(row.lcpMs > r.limits.lcpMs ? [`phone: ${row.path} LCP ${row.lcpMs.toFixed(0)} ms over ${String(r.limits.lcpMs)} ms`] : []),
    ...(row.cls > r.limits.cls ? [`phone: ${row.path} CLS ${row.cls.toFixed(3)} over ${String(r.limits.cls)}`] : []),
  ]);

const mark = (ok: boolean) => (ok ? '' : ' ✗');

/** The report's section. */
export function phoneMarkdown(r: PhoneReport): string[] {
  const p = r.profile;
  return [
    '## Pages on a phone on a slow network',
    '',
    `Chromium through the DevTools protocol with Lighthouse's mobile figures: ${String(p.width)}×${String(p.height)} (DPR ${String(p.deviceScaleFactor)}), a round trip of ${String(p.latencyMs)} ms, 1.6 Mbit/s down, 750 kbit/s up, the CPU ${String(p.cpuSlowdown)}× slower; each page opened cold (empty cache), signed in unless a guest page, median of the loads after a warm-up one. «Mounted»: every widget of the page mounted (the loader's \`__widgetsReady\`); CLS is counted until the network is idle after that. Targets: LCP and mounted ≤ ${String(r.targets.lcpMs)} ms, CLS ≤ ${String(r.targets.cls)} (✗ marks a miss); LCP over ${String(r.limits.lcpMs)} ms or CLS over ${String(r.limits.cls)} fails the bench.`,
    '',
    '| page | loads | FCP ms | LCP ms | mounted ms | CLS | on the wire KB |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...r.rows.map(
      (row) =>
        `| ${row.path}${row.guest ? ' (guest)' : ''} | ${String(row.rounds)} | ${row.fcpMs.toFixed(0)} | ${row.lcpMs.toFixed(0)}${mark(row.lcpMs <= r.targets.lcpMs)} | ${row.mountedMs.toFixed(0)}${mark(row.mountedMs <= r.targets.mountedMs)} | ${row.cls.toFixed(3)}${mark(row.cls <= r.targets.cls)} | ${(row.wireBytes / 1024).toFixed(0)} |`,
    ),
    '',
  ];
}

const REPORT_DIR = path.resolve(import.meta.dirname, '..', 'report');

/** Writes bench/report/phone.md and phone.json (the whole bench's run too, so they never outlive its figures); answers the table. */
export function writePhoneReport(report: PhoneReport): string {
  const md = phoneMarkdown(report).join('\n');
  fs.mkdirSync(REPORT_DIR, { recursive: true });
  fs.writeFileSync(path.join(REPORT_DIR, 'phone.json'), `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(path.join(REPORT_DIR, 'phone.md'), `# Pages on a phone\n\n${md.replace(/^## .*\n\n/, '')}`);
  return md;
}

// Alone (`node --import tsx bench/src/phone.ts`): prints the table and writes bench/report/phone.md and phone.json.
if (process.argv[1] === new URL(import.meta.url).pathname) {
  measurePhone().then(
    (report) => {
      console.log(writePhoneReport(report));
      const problems = phoneProblems(report);
      for (const problem of problems) console.log(problem);
      process.exit(problems.length ? 1 : 0);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
