import fs from 'node:fs';
import path from 'node:path';
import type { Sample } from './client.ts';
import type { FaultRecord } from './faults.ts';
import type { Check } from './invariants.ts';
import type { FaultKind, LoadProfile } from './profile.ts';

/*
 * The figures of a load run: requests a second, p50/p99 of each kind, errors by kind (during the
 * faults and after them), how long the service took to recover from each fault, and the checks
 * afterwards; written to bench/report/load-<profile>.md and .json.
 */

export const REPORT_DIR = path.resolve(import.meta.dirname, '..', 'report');

/** Samples that are not requests of their own: a run followed from its start to its end. */
const DERIVED = new Set(['gen_done']);

export interface KindFigures {
  kind: string;
  count: number;
  ok: number;
  refused: number;
  errors: number;
  /** Of the successful ones, milliseconds. */
  p50: number | null;
  p99: number | null;
}

export interface Recovery {
  kind: FaultKind;
  start: number;
  end: number;
  note: string;
  /** What counted as recovered. */
  probe: string;
  /** From the kill (or the fault's end) to the first success of the probe; null when none came. */
  recoveryMs: number | null;
}

export interface LoadReport {
  profile: string;
  generatedAt: string;
  node: string;
  users: number;
  admins: number;
  loadMs: number;
  requests: number;
  requestsPerSecond: number;
  kinds: KindFigures[];
  /** Kind → error detail → count, while faults were under way (and until they were over). */
  errorsDuringFaults: Record<string, Record<string, number>>;
  /** The same from the last fault's end on: must be empty. */
  errorsAfterFaults: Record<string, Record<string, number>>;
  /** Refusals by design (too few tokens, not cancellable…), by kind and code. */
  refusals: Record<string, Record<string, number>>;
  recoveries: Recovery[];
  drainMs: number;
  /** After the users stopped, when each kind of unfinished work was down to none (ms; null: never). */
  drainedAt: Record<string, number | null>;
  checks: Check[];
  tally: Record<string, Record<string, number>>;
  wallMs: number;
}

const percentile = (sorted: number[], p: number): number | null => (sorted.length ? (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? null) : null);

export function kindFigures(samples: Sample[]): KindFigures[] {
  const byKind = new Map<string, Sample[]>();
  for (const s of samples) byKind.set(s.kind, [...(byKind.get(s.kind) ?? []), s]);
  return [...byKind.entries()]
    .map(([kind, list]) => {
      const times = list
        .filter((s) => s.outcome === 'ok')
        .map((s) => s.end - s.start)
        .sort((a, b) => a - b);
      return {
        kind,
        count: list.length,
        ok: times.length,
        refused: list.filter((s) => s.outcome === 'refused').length,
        errors: list.filter((s) => s.outcome === 'error').length,
        p50: percentile(times, 50),
        p99: percentile(times, 99),
      };
    })
    .sort((a, b) => b.count - a.count);
}

function group(samples: Sample[]): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const s of samples) {
    const byDetail = (out[s.kind] ??= {});
    byDetail[s.detail] = (byDetail[s.detail] ?? 0) + 1;
  }
  return out;
}

/** What shows a fault is over: any request for the database and the web processes, a finished run for the worker, a fake provider's chat answer for the providers. */
const PROBES: Record<FaultKind, { label: string; matches: (kind: string) => boolean }> = {
  'web-kill': { label: 'any request', matches: (k) => !DERIVED.has(k) },
  'db-kill': { label: 'any request', matches: (k) => !DERIVED.has(k) },
  'db-freeze': { label: 'any request', matches: (k) => !DERIVED.has(k) },
  'worker-kill': { label: 'a run started after the kill, done', matches: (k) => k === 'gen_done' },
  'provider-500': { label: 'a chat answer of the fake provider', matches: (k) => k === 'chat_fake' },
  'provider-429': { label: 'a chat answer of the fake provider', matches: (k) => k === 'chat_fake' },
  'provider-stall': { label: 'a chat answer of the fake provider', matches: (k) => k === 'chat_fake' },
};

export function recoveries(faults: FaultRecord[], samples: Sample[]): Recovery[] {
  return faults.map((f) => {
    const probe = PROBES[f.kind];
    const first = samples
      .filter((s) => s.outcome === 'ok' && probe.matches(s.kind) && s.start >= f.start && s.end >= f.from)
      .reduce<number | null>((min, s) => (min === null || s.end < min ? s.end : min), null);
    return { kind: f.kind, start: f.start, end: f.end, note: f.note, probe: probe.label, recoveryMs: first === null ? null : Math.max(0, first - f.from) };
  });
}

export function buildReport(input: {
  profile: LoadProfile;
  /** How long the load phase really lasted. */
  loadMs: number;
  samples: Sample[];
  faults: FaultRecord[];
  faultsOver: number;
  drainMs: number;
  drainedAt: Record<string, number | null>;
  checks: Check[];
  tally: Record<string, Record<string, number>>;
  wallMs: number;
}): LoadReport {
  const { profile, samples } = input;
  const requests = samples.filter((s) => !DERIVED.has(s.kind) && s.start >= 0 && s.start < input.loadMs);
  const errors = samples.filter((s) => s.outcome === 'error');
  return {
    profile: profile.name,
    generatedAt: new Date().toISOString(),
    node: process.versions.node,
    users: profile.users,
    admins: profile.admins,
    loadMs: input.loadMs,
    requests: requests.length,
    requestsPerSecond: requests.length / (input.loadMs / 1000),
    kinds: kindFigures(samples),
    errorsDuringFaults: group(errors.filter((s) => s.start < input.faultsOver)),
    errorsAfterFaults: group(errors.filter((s) => s.start >= input.faultsOver)),
    refusals: group(samples.filter((s) => s.outcome === 'refused')),
    recoveries: recoveries(input.faults, samples),
    drainMs: input.drainMs,
    drainedAt: input.drainedAt,
    checks: input.checks,
    tally: input.tally,
    wallMs: input.wallMs,
  };
}

const fmt = (value: number | null) => (value === null ? '—' : value < 10 ? value.toFixed(1) : value.toFixed(0));
const secs = (ms: number) => (ms / 1000).toFixed(1);
const errorLines = (errors: Record<string, Record<string, number>>) => {
  const rows = Object.entries(errors).flatMap(([kind, byDetail]) => Object.entries(byDetail).map(([detail, n]) => `| ${kind} | ${detail || '—'} | ${String(n)} |`));
  return rows.length ? ['| kind | error | count |', '|---|---|---:|', ...rows] : ['none'];
};

export function markdown(r: LoadReport): string {
  return [
    `# Load and fault test (${r.profile})`,
    '',
    `Generated ${r.generatedAt} by \`${r.profile === 'full' ? 'npm run test:load' : 'npm test'}\` (Node ${r.node}; ${secs(r.wallMs)} s in all). ${String(r.users)} users and ${String(r.admins)} admins through nginx in front of two web processes and a worker, for ${secs(r.loadMs)} s of load with the faults below; then the work drained (${secs(r.drainMs)} s) and the checks ran.`,
    '',
    `**${String(r.requests)} requests in the load phase: ${r.requestsPerSecond.toFixed(1)} a second.**`,
    '',
    '## Requests by kind',
    '',
    'Times of the successful ones, in milliseconds (a streamed answer: until its last event; `gen_done`: a run from its start to its end, followed by its page, not a request of its own).',
    '',
    '| kind | count | ok | refused | errors | p50 | p99 |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...r.kinds.map((k) => `| ${k.kind} | ${String(k.count)} | ${String(k.ok)} | ${String(k.refused)} | ${String(k.errors)} | ${fmt(k.p50)} | ${fmt(k.p99)} |`),
    '',
    '## Faults and recovery',
    '',
    'Recovery: from the kill (or the end of a freeze or an outage) to the first success of the probe that started after the fault began.',
    '',
    '| fault | at (s) | over at (s) | what happened | probe | recovery (s) |',
    '|---|---:|---:|---|---|---:|',
    ...r.recoveries.map((f) => `| ${f.kind} | ${secs(f.start)} | ${secs(f.end)} | ${f.note} | ${f.probe} | ${f.recoveryMs === null ? 'none' : (f.recoveryMs / 1000).toFixed(2)} |`),
    '',
    '## Errors while the faults were under way',
    '',
    ...errorLines(r.errorsDuringFaults),
    '',
    '## Errors after the faults were over',
    '',
    ...errorLines(r.errorsAfterFaults),
    '',
    '## Refusals by design',
    '',
    ...errorLines(r.refusals),
    '',
    '## Afterwards',
    '',
    `The users stopped; the work under way ended: ${Object.entries(r.drainedAt).map(([what, at]) => `${what} ${at === null ? 'never' : `${secs(at)} s`}`).join(', ')} (a killed web process's answers are closed by \`chat.close-abandoned-answers\`, a killed worker's runs sent again by \`generations.requeue-stale\`, both every minute).`,
    '',
    '| check | held | detail |',
    '|---|---|---|',
    ...r.checks.map((c) => `| ${c.name} | ${c.ok ? 'yes' : '**no**'} | ${c.detail} |`),
    '',
    '| what | by state |',
    '|---|---|',
    ...Object.entries(r.tally).map(([what, by]) => `| ${what} | ${Object.entries(by).map(([k, n]) => `${k} ${String(n)}`).join(', ') || '—'} |`),
    '',
  ].join('\n');
}

/** Writes the report as markdown and JSON beside the bench's own; answers the markdown's path. */
export function writeReport(r: LoadReport): string {
  fs.mkdirSync(REPORT_DIR, { recursive: true });
  const base = path.join(REPORT_DIR, `load-${r.profile}`);
  fs.writeFileSync(`${base}.json`, `${JSON.stringify(r, null, 2)}\n`);
  fs.writeFileSync(`${base}.md`, markdown(r));
  return `${base}.md`;
}
