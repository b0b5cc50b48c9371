import type { BudgetRow } from './budget-check.ts';
import { hotWalletChecks, type ThroughputReport } from './throughput.ts';
import type { SpeedReport } from './speed.ts';
import { CHAT_OVERHEAD_RATIO_TARGET, CHAT_STATEMENTS_RATIO_TARGET, type ChatBenchReport, type ChatLatency } from './chat.ts';
import type { QueueReport } from './queue.ts';
import type { StreamsReport } from './streams.ts';
import type { MountTimeReport } from './mount-time.ts';
import { phoneMarkdown, type PhoneReport } from './phone.ts';
import type { PageMeasure } from './react-copies.ts';
import type { FileSize, LoaderSize, WidgetSize } from './sizes.ts';
import { QUIET_BUSY, QUIET_SECONDS, type Quiet } from './quiet.ts';

export interface WidgetReport extends WidgetSize {
  /** JS of this widget a page actually loaded (the build also holds its standalone dev page). */
  loaded: (FileSize & { files: number }) | null;
}

export interface PageReport extends PageMeasure {
  /** Every JS file the page loaded, each gzipped. */
  js: FileSize & { files: number };
}

export interface BenchReport {
  generatedAt: string;
  node: string;
  loader: LoaderSize;
  widgets: WidgetReport[];
  /** Widgets with sources but no build. */
  unbuilt: string[];
  pages: PageReport[];
  /** The most React copies seen on one page; must be 1. */
  reactCopies: number;
  throughput: ThroughputReport;
  /** The API's hottest reads against a bare Fastify + pg server with the same SQL. */
  speed: SpeedReport;
  /** The server's own time per chat message and the first token's delay, against a fake provider and a bare hop. */
  chat: ChatBenchReport;
  /** Generations through the job queue on the demo provider. */
  queue: QueueReport;
  /** Another user's hot read while one account holds hundreds of open event streams. */
  streams: StreamsReport;
  /** Navigation to every widget mounted: the registry build before federation against this one. */
  mountTime: MountTimeReport;
  /** Pages on a phone on a slow network (Lighthouse's mobile figures): FCP, LCP, widgets mounted, CLS. */
  phone: PhoneReport;
  /** Every page's figures against `budgets.ts`. */
  budgets: BudgetRow[];
  ok: boolean;
  problems: string[];
  durationMs: number;
  /** Seconds each part of the run took, in the order it ran (what CI's time goes on), and how quiet the machine was when it began. */
  phases: { name: string; seconds: number; quiet: Quiet }[];
}

/** How long each part waited for quiet; a part that began on a busy machine is named with how busy. */
function quietLine(phases: BenchReport['phases']): string {
  const waits = phases.map((p) => `${p.name} ${p.quiet.waitedSeconds.toFixed(0)} s`).join(', ');
  const busy = phases.filter((p) => !p.quiet.quiet).map((p) => `${p.name} began with the cores ${(p.quiet.busy * 100).toFixed(0)} % busy after the longest wait`);
  return `waited ${waits}${busy.length ? `; ${busy.join('; ')}` : ''}`;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const ms = (value: number, target: number) => `${value.toFixed(2)}${value <= target ? '' : ' ✗'}`;
/** A chat server's overhead split at the provider: before its call, after its end (p50s; they need not add up to the overhead's p50). */
const split = (l: ChatLatency) => `${l.beforeProviderP50Ms.toFixed(2)} | ${l.afterProviderP50Ms.toFixed(2)}`;
const mark = (ratio: number, target: number) => `${ratio.toFixed(2)}${ratio >= target ? '' : ' ✗'}`;

export function markdown(r: BenchReport): string {
  const lines = [
    '# Bench report',
    '',
    `Generated ${r.generatedAt} by \`npm run bench\` (Node ${r.node}, ${(r.durationMs / 1000).toFixed(1)} s: ${r.phases.map((p) => `${p.name} ${p.seconds.toFixed(0)} s`).join(', ')}). Each timed part began on a quiet machine (PostgreSQL's dirty pages written, all cores ≤ ${String(QUIET_BUSY * 100)} % busy for ${String(QUIET_SECONDS)} seconds in a row): ${quietLine(r.phases)}. Sizes in KB (1024 bytes); gzip is zlib level 6, each file on its own (each is its own request).`,
    '',
    '## Widgets',
    '',
    'Each widget is a Module Federation remote. "Own JS": `remoteEntry.js` + every `assets/*.js` of the current build (the federation glue included; its `hostInit` and `pendingShares` chunks are never loaded by a page). "Loaded": what the measured pages fetched from `/widgets/<name>/`. React, the kit (with TanStack Query), the contracts\' browser entry, the host chunks (forms, dialog, tabs…) and the federation runtime come from the loader.',
    '',
    '| widget | version | own JS files | own JS raw | own JS gzip | loaded files | loaded gzip |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...r.widgets.map((w) => `| ${w.name} | \`${w.version}\` | ${w.files} | ${kb(w.raw)} | ${kb(w.gzip)} | ${w.loaded ? String(w.loaded.files) : '—'} | ${w.loaded ? kb(w.loaded.gzip) : '—'} |`),
    ...(r.unbuilt.length ? ['', `Not built (no \`dist/widget.json\`): ${r.unbuilt.join(', ')}.`] : []),
    '',
    '## Loader',
    '',
    '| file | raw | gzip |',
    '|---|---:|---:|',
    `| loader.js | ${kb(r.loader.js.raw)} | ${kb(r.loader.js.gzip)} |`,
    ...r.loader.chunks.map((c) => `| ${c.name} | ${kb(c.raw)} | ${kb(c.gzip)} |`),
    ...r.loader.css.map((c) => `| ${c.name} | ${kb(c.raw)} | ${kb(c.gzip)} |`),
    '',
    '## Budgets',
    '',
    'Each figure of each measured page against `bench/src/budgets.ts`; the bench fails when one is over. "Shared" is every JS file of the page that is not a widget\'s: the loader and the host chunks its widgets asked for.',
    '',
    '| page | figure | measured | budget | |',
    '|---|---|---:|---:|---|',
    ...r.budgets.map((b) => `| ${b.page} | ${b.figure} | ${b.unit === 'requests' ? String(b.value) : b.value.toFixed(1)} | ${String(b.budget)} ${b.unit} | ${b.ok ? 'ok' : '**OVER**'} |`),
    '',
    '## Pages in Chromium',
    '',
    'A guest opens /login, signs in through the form and lands on /dashboard, opens /dashboard/user/payment and /dashboard/user/orders, then signs out, registers and lands on /dashboard under the email confirmation overlay. React copies = the larger of (a) the distinct `react` instances bound to the react-dom renderers that registered with a stub of the React DevTools hook and (b) the scripts that executed React module code (their calls of `Symbol.for("react.transitional.element")`, attributed by stack). Must be exactly 1 on every page.',
    '',
    '| page | React copies | renderers | React code ran in | widgets mounted | failed | JS files | JS gzip |',
    '|---|---:|---:|---|---|---|---:|---:|',
    ...r.pages.map(
      (p) =>
        `| ${p.path} | ${p.reactCopies} | ${p.renderers} | ${p.reactScripts.map((s) => `\`${s}\``).join(', ') || '—'} | ${p.mounted.join(', ') || '—'} | ${p.failed.join(', ') || '—'} | ${p.js.files} | ${kb(p.js.gzip)} |`,
    ),
    '',
    '## Navigation to every widget mounted',
    '',
    ...(r.mountTime.skipped
      ? [`Not measured: ${r.mountTime.skipped}.`]
      : [
          `The build before Module Federation (commit \`${r.mountTime.baselineCommit.slice(0, 12)}\`: its loader and widgets with the host registry, served by its own server) against this one, in one run and one Chromium: a signed-in user opens the page in a fresh context (empty cache) the given number of times on each, alternating, after warm-up rounds; the time is \`performance.now()\` when the loader’s \`__widgetsReady\` settles. On loopback a round trip costs nothing, so the figure is the machine's own work; with a round trip of 40 ms (Chromium's emulation adds it to every request, bandwidth unlimited) it is what a request waiting on another costs a user. Target: ≤ ${String(r.mountTime.target)}× the baseline on each network (✗ marks a miss); over ${String(r.mountTime.floor)}× fails the bench.`,
          '',
          '| page | network | widgets | loads a side | before federation p50 ms | federation p50 ms | ratio |',
          '|---|---|---:|---:|---:|---:|---:|',
          ...r.mountTime.rows.map(
            (m) => `| ${m.path} | ${m.network} | ${String(m.widgets)} | ${String(m.rounds)} | ${m.baselineP50Ms.toFixed(0)} | ${m.federationP50Ms.toFixed(0)} | ${m.ratio.toFixed(2)}${m.ratio <= r.mountTime.target ? '' : ' ✗'} |`,
          ),
        ]),
    '',
    ...phoneMarkdown(r.phone),
    '## Ledger and webhook throughput',
    '',
    `On a scratch database of the PostgreSQL the tests use, a pool of 20 connections; before it, 400 customers with the history of a service in use (three chats of five answered questions each, every answer's hold settled) are added and the database vacuumed and analyzed, so PostgreSQL plans on tables that hold rows (\`bench/src/seed-history.ts\`). A hold + settle pair is two operations of \`wallet_apply\` (the hold checks the committed balance and inserts its row and ledger line, the settle keeps 7 of 10 and returns 3, and the wallet's row is written at each transaction's commit: \`wallet_hold_commit\`, which a balance spent meanwhile fails whole); outside a transaction the operations of one wallet that arrive together go in one call (the batcher, which production uses only from its sweepers: reported). Target: ≥ ${String(r.throughput.hotWalletTarget)} pairs a second on one hot wallet on the paths production's holds take (${r.throughput.gated.map((g) => `«${g}»`).join(' and ')}; ✗ marks a miss, reported). What this machine's database can do at all swings about 2× from hour to hour (the same code's uncontended rows measured 1 181–2 051 a second in one day), so the bench fails on a floor measured in the same run instead: each gated row against the same operations at the same concurrency spread over 200 wallets (its baseline, in the table), under ${String(r.throughput.floor)} of it fails — one wallet's contention costing more than half. The chat rows are what a message really costs the ledger — \`chat_send\` (the chat locked, the hold, the chat and the user's message stored, the user's answers counted under their lock and the answer stored; a durable commit) and \`chat_close\` (the answer stored, the hold settled) — and the run rows a run's hold and settle each in a transaction of its own, as a run's start and end take them, and a run's whole start (\`startGeneration\`: the run, its hold and its job in one transaction) and completion (\`completeRun\`: the run ended and its hold settled in one transaction); one hot wallet runs as many at once as one user may (3 answers, 10 runs). A Pay notification goes through the whole HTTP pipeline (signature, parsing, one transaction with its idempotency row, invoice, subscription, grants) via \`inject\`.`,
    '',
    '| operation | count | concurrency | seconds | per second |',
    '|---|---:|---:|---:|---:|',
    ...r.throughput.rates.map((t) => `| ${t.name} | ${t.operations} | ${t.concurrency} | ${t.seconds.toFixed(2)} | ${t.perSecond.toFixed(0)}${r.throughput.gated.includes(t.name) && t.perSecond < r.throughput.hotWalletTarget ? ' ✗' : ''} |`),
    '',
    '| gated row | per second | target | baseline (200 wallets) | share of baseline | floor |',
    '|---|---:|---:|---:|---:|---:|',
    ...hotWalletChecks(r.throughput).map((c) => `| ${c.name} | ${c.perSecond.toFixed(0)}${c.metTarget ? '' : ' ✗'} | ${String(r.throughput.hotWalletTarget)} | ${c.baseline.toFixed(0)} | ${c.share.toFixed(2)}${c.aboveFloor ? '' : ' ✗'} | ${String(r.throughput.floor)} |`),
    '',
    `Balance = ledger sum for every wallet afterwards: ${r.throughput.consistent ? 'yes' : 'NO'}.`,
    '',
    '## API speed against a bare server',
    '',
    `autocannon, ${String(r.speed.connections)} connections, alternating runs on each server after a warm-up (both servers first run once through every path for 1 s each, so that the first path measured does not pay for the JIT of the code every path shares; then 1 s of each path before its rounds; the pages' hot reads 5 rounds of 2 s, the admin panel's lists, with an admin's token over a few hundred users, 5 of 1 s; a round is one run of each, which goes first alternating), each figure the median of the rounds and each ratio the median of the rounds' own ratios; latencies are every response's own time (autocannon's percentiles are whole milliseconds). The app runs as \`npm start\` would (production, rate limit and security headers on, bearer token), started on a database made ready in a thread of its own and analyzed (as autovacuum leaves a live database's tables), as a server restarts on an existing database; the bare server is Fastify and pg with the same SQL, compiled from the app's own query builders, and nothing else (both with the server processes' V8 settings). Each in its own process. Ratios: app ÷ bare for throughput, bare ÷ app for latency (higher is better for both); target ≥ ${String(r.speed.target)} (✗ marks a miss); a throughput or p50 ratio under ${String(r.speed.floor)} fails the bench (p99, which swings by ±0.2 between runs here, is reported only).`,
    '',
    '| path | as | app req/s | bare req/s | ratioThroughput | app p50 ms | bare p50 ms | ratioP50 | app p99 ms | bare p99 ms | ratioP99 |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...r.speed.rows.map(
      (row) =>
        `| \`${row.path}\` | ${row.as} | ${row.app.requestsPerSecond.toFixed(0)} | ${row.bare.requestsPerSecond.toFixed(0)} | ${mark(row.ratioThroughput, r.speed.target)} | ${row.app.p50Ms.toFixed(2)} | ${row.bare.p50Ms.toFixed(2)} | ${mark(row.ratioP50, r.speed.target)} | ${row.app.p99Ms.toFixed(2)} | ${row.bare.p99Ms.toFixed(2)} | ${mark(row.ratioP99, r.speed.target)} |`,
    ),
    '',
    '## Chat messages against a fake provider',
    '',
    `${String(r.chat.messages)} streamed sends (\`POST /api/new/chat/stream\` with a JSON body, the widget's call for a message without pictures) one after another on each server, in rounds after a warm-up (each round the three servers in another order), ten to a chat (the history grows); the provider is an OpenAI-compatible fake in the bench's process answering ${String(r.chat.piecesPerAnswer)} pieces ${String(r.chat.gapMs)} ms apart. Overhead: request to \`done\` event less the provider's own time (request received to stream ended). First token: the provider writing its first piece to the client reading it. "Bare hop": a plain Node server that reads the request, asks the provider with fetch and passes the pieces on (no database, no session, no parsing). "Bare hop + statements": the same with the app's two statements of a message through plain pg — \`chat_send\` (the hold, both messages, the history) before asking the provider and \`chat_close\` (the answer, the settle) after, each a durable commit — the least a server that holds and settles words in the database takes. Targets: the app's overhead p50 ≤ ${String(CHAT_STATEMENTS_RATIO_TARGET)}× the bare hop + statements' and ≤ ${String(CHAT_OVERHEAD_RATIO_TARGET)}× the bare hop's (and ≤ ${String(r.chat.targetOverheadP50Ms)} ms, an earlier target), first token ≤ ${String(r.chat.targetFirstTokenMs)} ms (✗ marks a miss).`,
    '',
    '| server | overhead p50 ms | ÷ bare hop + statements | ÷ bare hop | overhead p99 ms | first token p50 ms | first token p99 ms | request → provider p50 ms | provider’s end → done p50 ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| app | ${ms(r.chat.app.overheadP50Ms, r.chat.targetOverheadP50Ms)} | ${ms(r.chat.app.overheadP50Ms / r.chat.bareWithStatements.overheadP50Ms, CHAT_STATEMENTS_RATIO_TARGET)} | ${ms(r.chat.app.overheadP50Ms / r.chat.bare.overheadP50Ms, CHAT_OVERHEAD_RATIO_TARGET)} | ${r.chat.app.overheadP99Ms.toFixed(2)} | ${ms(r.chat.app.firstTokenP50Ms, r.chat.targetFirstTokenMs)} | ${r.chat.app.firstTokenP99Ms.toFixed(2)} | ${split(r.chat.app)} |`,
    `| bare hop + statements | ${r.chat.bareWithStatements.overheadP50Ms.toFixed(2)} | 1.00 | ${(r.chat.bareWithStatements.overheadP50Ms / r.chat.bare.overheadP50Ms).toFixed(2)} | ${r.chat.bareWithStatements.overheadP99Ms.toFixed(2)} | ${r.chat.bareWithStatements.firstTokenP50Ms.toFixed(2)} | ${r.chat.bareWithStatements.firstTokenP99Ms.toFixed(2)} | ${split(r.chat.bareWithStatements)} |`,
    `| bare hop | ${r.chat.bare.overheadP50Ms.toFixed(2)} | ${(r.chat.bare.overheadP50Ms / r.chat.bareWithStatements.overheadP50Ms).toFixed(2)} | 1.00 | ${r.chat.bare.overheadP99Ms.toFixed(2)} | ${r.chat.bare.firstTokenP50Ms.toFixed(2)} | ${r.chat.bare.firstTokenP99Ms.toFixed(2)} | ${split(r.chat.bare)} |`,
    '',
    '## Generations through the queue',
    '',
    `The app with its workers (2 a process) on the demo provider without pauses. ${String(r.queue.burst)} image runs started at once (by ${String(r.queue.burst / 10)} users: 10 each at most) until all succeeded; then ${String(r.queue.samples)} runs one at a time, from each run's commit to its job starting it (target p50 ≤ ${String(r.queue.targetStartP50Ms)} ms; more fails the bench).`,
    '',
    '| runs a second (burst) | start p50 ms | start p99 ms |',
    '|---:|---:|---:|',
    `| ${r.queue.runsPerSecond.toFixed(1)} | ${ms(r.queue.startLatencyP50Ms, r.queue.targetStartP50Ms)} | ${r.queue.startLatencyP99Ms.toFixed(0)} |`,
    '',
    '## Open event streams and another user',
    '',
    `The app (no workers) in its own process. One account holds ${String(r.streams.streams)} open progress streams (\`GET /api/new/generations/:id/events\`) over its ${String(r.streams.runs)} queued runs, each run moved on by a progress step a second from outside the app (as a worker elsewhere would), with \`SSE_STREAMS_PER_USER\` raised so that all are held; meanwhile another user's \`${r.streams.path}\` at a moderate ${String(r.streams.requestsPerSecond)} requests a second over ${String(r.streams.connections)} connections, ${String(r.streams.rounds)} runs of ${String(r.streams.secondsPerRun)} s with the streams held, alternating with as many without them (p95 of every response of each side's runs). Target: with the streams ≤ ${String(r.streams.target)}× the baseline (✗ marks a miss); over ${String(r.streams.floor)}× fails the bench. Scans of the runs' table are PostgreSQL's statistics (flushed about every second), the progress steps' own updates included.`,
    '',
    '| baseline p95 ms | with streams p95 ms | ratio | runs table scans a second | events delivered |',
    '|---:|---:|---:|---:|---:|',
    `| ${r.streams.baselineP95Ms.toFixed(1)} | ${r.streams.streamsP95Ms.toFixed(1)} | ${r.streams.ratio.toFixed(2)}${r.streams.ratio <= r.streams.target ? '' : ' ✗'} | ${String(r.streams.runReadsPerSecond)} | ${String(r.streams.eventsDelivered)} |`,
    '',
    `With the default limit (${String(r.streams.defaultLimit.limit)} a user), of ${String(r.streams.streams)} streams opened by one account ${String(r.streams.defaultLimit.accepted)} were held and ${String(r.streams.defaultLimit.refused)} refused (429 \`STREAMS_LIMIT\`).`,
    '',
    `**Result: ${r.ok ? 'OK: one React per page, every figure within its budget' : 'FAILED'}.**`,
    ...(r.problems.length ? ['', ...r.problems.map((p) => `- ${p}`)] : []),
    '',
  ];
  return lines.join('\n');
}
