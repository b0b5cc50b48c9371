import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CHROMIUM_PATH, OMNIBOX_POPUP_FEATURES } from '../../e2e/support/browser.ts';
import { PHONE_PAGES } from './phone.ts';
import { startProcess, stop } from './speed.ts';

/**
 * Lighthouse 12 (its default mobile preset, simulated throttling) over the phone bench's pages, an
 * outside judge; not part of `npm run bench` or CI: `node --import tsx bench/src/lighthouse.ts`.
 * Lighthouse is not a dependency of the project: `LIGHTHOUSE_BIN` names its command
 * (`npm i -E lighthouse@12.2.3` in a folder of its own; 13 needs Node 22), else `npx --yes
 * lighthouse@12.2.3` fetches it. Signed-in pages get the session cookie in every request. Writes
 * `bench/report/lighthouse.md` and `.json`.
 */
const run = promisify(execFile);
const LIGHTHOUSE = process.env.LIGHTHOUSE_BIN ? [process.env.LIGHTHOUSE_BIN] : ['npx', '--yes', 'lighthouse@12.2.3'];
const REPORT_DIR = path.resolve(import.meta.dirname, '..', 'report');
/**
 * The features Lighthouse 12.2.3's chrome-launcher (1.2.1) turns off, and the address bar's WebUI
 * popup (e2e/support/browser.ts): Chromium reads the last `--disable-features` only, and ours comes
 * after chrome-launcher's.
 */
const DISABLED_FEATURES = [
  'Translate',
  'OptimizationHints',
  'MediaRouter',
  'DialMediaRouteProvider',
  'CalculateNativeWinOcclusion',
  'InterestFeedContentSuggestions',
  'CertificateTransparencyComponentUpdater',
  'AutofillServerCommunication',
  'PrivacySandboxSettings4',
  'RenderDocument',
  ...OMNIBOX_POPUP_FEATURES,
];

interface LighthouseResult {
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { score: number | null; numericValue?: number; displayValue?: string; details?: { items?: { reason?: string }[] } }>;
}

export interface LighthouseRow {
  path: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  /** The back/forward cache audit passed; otherwise what blocked it. */
  bfcache: string;
}

async function audit(url: string, cookie: string | undefined): Promise<LighthouseResult> {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ns-lighthouse-')), 'report.json');
  const [command = 'npx', ...args] = LIGHTHOUSE;
  await run(
    command,
    [
      ...args,
      url,
      '--output=json',
      `--output-path=${out}`,
      '--quiet',
      '--only-categories=performance,accessibility,best-practices,seo',
      `--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-features=${DISABLED_FEATURES.join(',')}`,
      ...(cookie ? [`--extra-headers=${JSON.stringify({ Cookie: `session=${cookie}` })}`] : []),
    ],
    { env: { ...process.env, CHROME_PATH: CHROMIUM_PATH }, maxBuffer: 1 << 26 },
  );
  return JSON.parse(fs.readFileSync(out, 'utf8')) as LighthouseResult;
}

/** Lighthouse sometimes fails to record its trace (`NO_NAVSTART`): such a run is repeated, up to three times a page. */
async function auditWithRetries(url: string, cookie: string | undefined): Promise<LighthouseResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await audit(url, cookie);
    } catch (err) {
      if (attempt >= 3) throw err;
      console.error(`lighthouse: ${url} failed (attempt ${String(attempt)}), again`);
    }
  }
}

const score = (r: LighthouseResult, key: string) => Math.round((r.categories[key]?.score ?? 0) * 100);

export async function measureLighthouse(): Promise<LighthouseRow[]> {
  const server = await startProcess('page-server-process.ts');
  const rows: LighthouseRow[] = [];
  try {
    const only = process.env.PHONE_ONLY?.split(',');
    for (const page of PHONE_PAGES.filter((p) => !only || only.includes(p.path))) {
      const r = await auditWithRetries(`${server.info.baseUrl}${page.path}`, page.guest ? undefined : server.info.cookie);
      const bf = r.audits['bf-cache'];
      rows.push({
        path: page.path,
        performance: score(r, 'performance'),
        accessibility: score(r, 'accessibility'),
        bestPractices: score(r, 'best-practices'),
        seo: score(r, 'seo'),
        lcpMs: r.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
        cls: r.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
        tbtMs: r.audits['total-blocking-time']?.numericValue ?? Number.NaN,
        bfcache: bf?.score === 1 ? 'yes' : (bf?.details?.items ?? []).map((i) => i.reason ?? '').join('; ') || 'no',
      });
    }
  } finally {
    await stop(server);
  }
  return rows;
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  measureLighthouse().then(
    (rows) => {
      const md = [
        '# Lighthouse 12, mobile preset',
        '',
        "Lighthouse's default (mobile) configuration with its simulated throttling, one run a page against the bench's app (`bench/src/lighthouse.ts`); signed-in pages with the session cookie.",
        '',
        '| page | performance | accessibility | best practices | SEO | LCP ms | CLS | TBT ms | back/forward cache |',
        '|---|---:|---:|---:|---:|---:|---:|---:|---|',
        ...rows.map((r) => `| ${r.path} | ${String(r.performance)} | ${String(r.accessibility)} | ${String(r.bestPractices)} | ${String(r.seo)} | ${r.lcpMs.toFixed(0)} | ${r.cls.toFixed(3)} | ${r.tbtMs.toFixed(0)} | ${r.bfcache} |`),
        '',
      ].join('\n');
      fs.mkdirSync(REPORT_DIR, { recursive: true });
      fs.writeFileSync(path.join(REPORT_DIR, 'lighthouse.json'), `${JSON.stringify(rows, null, 2)}\n`);
      fs.writeFileSync(path.join(REPORT_DIR, 'lighthouse.md'), md);
      console.log(md);
      process.exit(0);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
