import { sql } from 'kysely';
import { StartFailed, type Cluster } from '@app/server/testing';
import type { FakeOpenAi, FakeReplicate } from '../../server/test/support/ai-fakes.ts';
import type { Recorder } from './client.ts';
import type { FaultKind, FaultPlan } from './profile.ts';

/*
 * The faults, each at its time in the load phase: a web process or the worker killed (SIGKILL)
 * and started again, every database connection of the service killed, the database frozen, the
 * AI providers failing with 500 or 429 or stalling past their timeout.
 */

export interface FaultRecord {
  kind: FaultKind;
  /** When it began (ms of the load phase). */
  start: number;
  /** When it was over: the process answered again, the database thawed, the provider healed. */
  end: number;
  /** What the recovery is counted from: the kill for kills, the end for the others. */
  from: number;
  note: string;
}

export interface FaultTargets {
  cluster: Cluster;
  openai: FakeOpenAi;
  replicate: FakeReplicate;
  recorder: Recorder;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fault starts this long after the one before it is over, at the earliest. */
const GAP_MS = 2_000;

/**
 * Starts a killed process again as an orchestrator would (a restart policy): once more when it
 * ends while starting (its database connections killed or frozen under it); answers how many
 * starts it took.
 */
async function startAgain(cluster: Cluster, name: string): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      await cluster.start(name);
      return attempt;
    } catch (err) {
      if (!(err instanceof StartFailed) || attempt >= 3) throw err;
    }
  }
}

/** Kills every connection the service's processes hold to its database (as a failover or an admin's pg_terminate_backend would). */
async function killConnections(cluster: Cluster): Promise<number> {
  const { rows } = await sql<{ killed: boolean }>`
    select pg_terminate_backend(pid) as killed from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`.execute(cluster.db);
  return rows.filter((r) => r.killed).length;
}

async function inject(plan: FaultPlan, t: FaultTargets, webVictim: string): Promise<Omit<FaultRecord, 'kind' | 'start'>> {
  const { cluster, openai, replicate, recorder } = t;
  switch (plan.kind) {
    case 'web-kill':
    case 'worker-kill': {
      const name = plan.kind === 'web-kill' ? webVictim : 'worker';
      await cluster.kill(name);
      const from = recorder.now();
      await sleep(plan.forMs);
      const starts = await startAgain(cluster, name);
      return { from, end: recorder.now(), note: `${name} killed (SIGKILL), started again after ${String(plan.forMs / 1000)} s${starts > 1 ? ` (${String(starts)} starts)` : ''}` };
    }
    case 'db-kill': {
      const killed = await killConnections(cluster);
      const now = recorder.now();
      return { from: now, end: now, note: `${String(killed)} connections terminated` };
    }
    case 'db-freeze': {
      const proxy = cluster.dbProxy;
      if (!proxy) throw new Error('the cluster runs without a database proxy');
      proxy.freeze();
      const connections = proxy.connections;
      await sleep(plan.forMs);
      proxy.thaw();
      const end = recorder.now();
      return { from: end, end, note: `nothing passed for ${String(plan.forMs / 1000)} s on ${String(connections)} connections` };
    }
    case 'provider-500':
    case 'provider-429': {
      const status = plan.kind === 'provider-500' ? 500 : 429;
      openai.behaviour = status === 500 ? { kind: 'server_error' } : { kind: 'rate_limited', retryAfterSeconds: 1 };
      replicate.outage = status === 500 ? { status } : { status, retryAfterSeconds: 1 };
      await sleep(plan.forMs);
      openai.behaviour = { kind: 'ok' };
      replicate.outage = null;
      const end = recorder.now();
      return { from: end, end, note: `OpenAI-compatible and Replicate fakes answered ${String(status)}` };
    }
    case 'provider-stall': {
      // Longer than the chat connection's timeout (3 s) and the text one's (10 s); predictions stop moving.
      openai.behaviour = { kind: 'slow', delayMs: 12_000 };
      replicate.advanceOnPoll = false;
      await sleep(plan.forMs);
      openai.behaviour = { kind: 'ok' };
      replicate.advanceOnPoll = true;
      const end = recorder.now();
      return { from: end, end, note: 'OpenAI-compatible fake silent for 12 s a request, predictions stalled' };
    }
  }
}

/**
 * Runs the plan's faults one after another, each at its time (from the recorder's origin) or
 * once the one before is over (a slow restart moves the rest); answers what happened.
 */
export async function runFaults(plans: FaultPlan[], t: FaultTargets): Promise<FaultRecord[]> {
  const records: FaultRecord[] = [];
  let webKills = 0;
  for (const plan of plans) {
    const previous = records.at(-1);
    await sleep(Math.max(0, plan.at - t.recorder.now(), previous ? previous.end + GAP_MS - t.recorder.now() : 0));
    const start = t.recorder.now();
    // Web kills take turns: web2, then web1.
    const victim = plan.kind === 'web-kill' && webKills++ % 2 === 1 ? 'web1' : 'web2';
    records.push({ kind: plan.kind, start, ...(await inject(plan, t, victim)) });
  }
  return records;
}
