import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { withAdmin } from '../../server/test/support/postgres.ts';

/** What the machine was doing when a timed part of the bench began. */
export interface Quiet {
  /** Seconds waited for the machine to go quiet. */
  waitedSeconds: number;
  /** Share of all cores busy over the last second looked at, 0–1. */
  busy: number;
  /** Whether it went quiet within the wait (else the part ran anyway, and the report says so). */
  quiet: boolean;
}

/** At most this share of all cores busy over a second counts as quiet (the bench's own process idling included). */
export const QUIET_BUSY = 0.15;
/** Longest wait before a part runs anyway. */
const QUIET_MAX_WAIT_MS = 120_000;
/** Seconds of quiet in a row before a part starts: one quiet second between two busy ones is not quiet. */
export const QUIET_SECONDS = 3;

/** Total and idle jiffies of all cores, from /proc/stat (undefined where there is none). */
function cpuTimes(): { total: number; idle: number } | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync('/proc/stat', 'utf8');
  } catch {
    return undefined;
  }
  const fields = (stat.split('\n', 1)[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal…: idle and iowait are the idle ones.
  const total = fields.reduce((sum, n) => sum + n, 0);
  return { total, idle: (fields[3] ?? 0) + (fields[4] ?? 0) };
}

/** Share of all cores busy over the next `ms`. */
async function busyOver(ms: number): Promise<number | undefined> {
  const before = cpuTimes();
  await sleep(ms);
  const after = cpuTimes();
  if (!before || !after || after.total === before.total) return undefined;
  return 1 - (after.idle - before.idle) / (after.total - before.total);
}

/**
 * Waits for a quiet machine before a timed part of the bench: after the test suite (hundreds of
 * scratch databases) or an earlier part, PostgreSQL may still be writing dirty pages or vacuuming,
 * and a ratio measured beside that is the machine's noise, not the app's speed. Asks PostgreSQL to
 * write its dirty pages now (CHECKPOINT), then waits until all cores have been ≤ 15 % busy for
 * three seconds in a row, two minutes at most. Nothing measured changes; only when it starts.
 */
export async function waitForQuiet(adminUrl: string): Promise<Quiet> {
  const started = Date.now();
  // No server there (the bench then runs on an embedded one), or no right to checkpoint: the CPU check below still holds.
  await withAdmin(adminUrl, (client) => client.query('checkpoint')).catch(() => undefined);
  let busy = 0;
  let quietSeconds = 0;
  while (Date.now() - started < QUIET_MAX_WAIT_MS) {
    const share = await busyOver(1000);
    if (share === undefined) return { waitedSeconds: (Date.now() - started) / 1000, busy: 0, quiet: true };
    busy = share;
    quietSeconds = share <= QUIET_BUSY ? quietSeconds + 1 : 0;
    if (quietSeconds >= QUIET_SECONDS) return { waitedSeconds: (Date.now() - started) / 1000, busy, quiet: true };
  }
  return { waitedSeconds: (Date.now() - started) / 1000, busy, quiet: false };
}
