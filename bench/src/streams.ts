import crypto from 'node:crypto';
import { setMaxListeners } from 'node:events';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { loadConfig } from '../../server/src/config.ts';
import { createDb, type Db } from '../../server/src/db/database.ts';
import { credit } from '../../server/src/features/wallet/wallet.queries.ts';
import { markRunning, setProgress } from '../../server/src/features/generations/generations.queries.ts';
import { newUser, type TestUser } from '@app/server/testing';
import { startProcess, stop, type Started } from './speed.ts';
import { runWhenMain } from './standalone.ts';

/** Another user's hot read while one account holds many open event streams. */
export interface StreamsReport {
  /** Event streams (`GET /api/new/generations/:id/events`) one account holds open during the measurement. */
  streams: number;
  /** Its runs the streams follow (a user may have 10 queued or running), each moved on by a progress step a second. */
  runs: number;
  /** The hot read measured, with another user's token. */
  path: string;
  connections: number;
  requestsPerSecond: number;
  rounds: number;
  secondsPerRun: number;
  /** p95 of the hot read without the streams, and with them (every response of the rounds of each; the two alternate). */
  baselineP95Ms: number;
  streamsP95Ms: number;
  /** streams ÷ baseline p95: 1 = the streams cost the other user nothing. */
  ratio: number;
  /** Scans of the runs' table a second while the streams were held (the progress steps' own updates included). */
  runReadsPerSecond: number;
  /** Events the held streams received during the measurement (fan-out of the progress steps). */
  eventsDelivered: number;
  /** Of {@link streams} opened at once with the default per-user limit: accepted and refused (429). */
  defaultLimit: { accepted: number; refused: number; limit: number };
  /** The figure aimed at (ratio ≤ target), reported; over {@link floor} the bench fails. */
  target: number;
  floor: number;
}

const STREAMS = 600;
const RUNS = 10;
const PATH = '/api/new/user';
const CONNECTIONS = 10;
/** A moderate load: well under what the server can take, so latency, not saturation, is measured. */
const RATE = 200;
const ROUNDS = 3;
const SECONDS = 4;
export const STREAMS_TARGET = 2;
/** A ratio over this fails the bench: streams are again costing other users (polling cost 20× here). */
export const STREAMS_FLOOR = 5;
/** What `SSE_STREAMS_PER_USER` is raised to for the measurement, so all streams are really held. */
const RAISED_LIMIT = 1000;
/** Streams opened together (a page of tabs reopening at once). */
const OPEN_AT_ONCE = 100;
const DEFAULT_LIMIT = loadConfig({}).sseStreamsPerUser;

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? NaN;

function multipart(fields: Record<string, string>): { body: Buffer; type: string } {
  const boundary = `bench${crypto.randomBytes(8).toString('hex')}`;
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  return { body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`), type: `multipart/form-data; boundary=${boundary}` };
}

/** p95 of `path` under a fixed, moderate rate, from every response's own time. */
function timesUnder(url: string, token: string, seconds: number): Promise<{ times: number[]; non2xx: number }> {
  return new Promise((resolve, reject) => {
    const times: number[] = [];
    const instance = autocannon(
      { url, connections: CONNECTIONS, overallRate: RATE, duration: seconds, headers: { authorization: `Bearer ${token}`, accept: 'application/json' } },
      (err: unknown, result: autocannon.Result) => {
        if (err) reject(err instanceof Error ? err : new Error('autocannon failed', { cause: err }));
        else resolve({ times, non2xx: result.non2xx + result.errors + result.timeouts });
      },
    );
    instance.on('response', (_client, _status, _bytes, ms) => times.push(ms));
  });
}

/** Runs of `user` left queued (the app has no workers), each one product run. */
async function queuedRuns(baseUrl: string, db: Db, user: TestUser, count: number): Promise<number[]> {
  await db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'media', reason: 'admin_adjustment', idempotencyKey: `bench-streams-${String(user.id)}` }, 1_000_000));
  const product = await db.selectFrom('ai_products').select('id').where('variant', '=', 'img').orderBy('id').executeTakeFirstOrThrow();
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const { body, type } = multipart({ product_id: String(product.id), prompt: `Поток ${String(i)}` });
    const res = await fetch(`${baseUrl}/api/new/generations`, { method: 'POST', headers: { authorization: `Bearer ${user.token}`, 'content-type': type }, body });
    if (res.status !== 200) throw new Error(`streams bench: start answered ${String(res.status)}: ${await res.text()}`);
    ids.push(((await res.json()) as { json: { id: number } }).json.id);
  }
  return ids;
}

interface Held {
  /** Streams the server accepted (their first event came) and refused (429). */
  accepted: number;
  refused: number;
  events: () => number;
  close: () => Promise<void>;
}

/** Opens `count` event streams over `runs` ({@link OPEN_AT_ONCE} at a time), each read until closed. */
async function holdStreams(baseUrl: string, token: string, runs: number[], count: number): Promise<Held> {
  const controller = new AbortController();
  // Every stream's fetch listens to the one signal.
  setMaxListeners(count * 2, controller.signal);
  let events = 0;
  let accepted = 0;
  let refused = 0;
  const readers: Promise<void>[] = [];
  const open = async (i: number) => {
    const run = runs[i % runs.length] ?? 0;
    const res = await fetch(`${baseUrl}/api/new/generations/${String(run)}/events`, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, signal: controller.signal });
    if (res.status === 429) {
      refused += 1;
      await res.body?.cancel();
      return;
    }
    if (res.status !== 200 || !res.body) throw new Error(`streams bench: a stream answered ${String(res.status)}: ${await res.text()}`);
    const reader = res.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    const decoder = new TextDecoder();
    const count = (chunk: Uint8Array) => (events += decoder.decode(chunk, { stream: true }).split('event: ').length - 1);
    const first = await reader.read();
    if (first.value) count(first.value);
    accepted += 1;
    readers.push(
      (async () => {
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return;
            count(value);
          }
        } catch {
          // Closed by the bench.
        }
      })(),
    );
  };
  try {
    for (let i = 0; i < count; i += OPEN_AT_ONCE) await Promise.all(Array.from({ length: Math.min(OPEN_AT_ONCE, count - i) }, (_, k) => open(i + k)));
  } catch (err) {
    controller.abort();
    throw err;
  }
  return {
    accepted,
    refused,
    events: () => events,
    close: async () => {
      controller.abort();
      await Promise.all(readers);
    },
  };
}

/** Moves each run on by one progress step a second (as a worker reports progress), until stopped. */
function driveProgress(db: Db, runs: number[]): () => Promise<void> {
  let step = 0;
  const state = { stopped: false };
  const done = (async () => {
    for (const id of runs) await markRunning(db, id);
    while (!state.stopped && step < 99) {
      step += 1;
      for (const id of runs) await setProgress(db, id, step);
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  return async () => {
    state.stopped = true;
    await done;
  };
}

/** Index and sequential scans of `generations` so far (PostgreSQL's statistics, flushed about every second). */
async function scansOfRuns(db: Db): Promise<number> {
  const { rows } = await sql<{ n: string }>`select coalesce(seq_scan, 0) + coalesce(idx_scan, 0) as n from pg_stat_user_tables where relname = 'generations'`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

async function withApp<T>(limit: number | undefined, work: (app: Started, db: Db) => Promise<T>): Promise<T> {
  const app = await startProcess('app-process.ts', limit === undefined ? {} : { SSE_STREAMS_PER_USER: String(limit) });
  const { databaseUrl } = app.info;
  if (!databaseUrl) throw new Error('the app process did not say its database');
  const db = createDb(databaseUrl, 2);
  try {
    return await work(app, db);
  } finally {
    await db.destroy();
    await stop(app);
  }
}

/**
 * How many of 600 streams one account opens the default per-user limit refuses; then another
 * user's p95 of a hot read (`GET /api/new/user`, 10 connections at 200 requests a second) in
 * rounds without and with that account holding 600 open event streams over its 10 runs (the
 * limit raised for it), each run moved on a progress step a second.
 */
export async function measureStreams(): Promise<StreamsReport> {
  const defaultLimit = await withApp(undefined, async (app, db) => {
    const owner = await newUser(db);
    const runs = await queuedRuns(app.info.baseUrl, db, owner, RUNS);
    const held = await holdStreams(app.info.baseUrl, owner.token, runs, STREAMS);
    await held.close();
    return { accepted: held.accepted, refused: held.refused, limit: DEFAULT_LIMIT };
  });

  return withApp(RAISED_LIMIT, async (app, db) => {
    const { baseUrl, token } = app.info;
    if (!token) throw new Error('the app process did not say its user token');
    const url = `${baseUrl}${PATH}`;
    const owner = await newUser(db);
    const runs = await queuedRuns(baseUrl, db, owner, RUNS);
    await timesUnder(url, token, 2);
    const baseline: number[] = [];
    const withStreams: number[] = [];
    let eventsDelivered = 0;
    let scans = 0;
    let scanSeconds = 0;
    const stopDriving = driveProgress(db, runs);
    try {
      // Rounds without and with the streams alternate, so a drift of the shared machine's load favours neither.
      for (let i = 0; i < ROUNDS; i++) {
        const alone = await timesUnder(url, token, SECONDS);
        if (alone.non2xx) throw new Error(`streams bench: ${String(alone.non2xx)} requests failed`);
        baseline.push(...alone.times);
        const held = await holdStreams(baseUrl, owner.token, runs, STREAMS);
        try {
          if (held.accepted !== STREAMS) throw new Error(`streams bench: ${String(held.accepted)} of ${String(STREAMS)} streams held`);
          const events = held.events();
          const scansBefore = await scansOfRuns(db);
          const began = performance.now();
          const round = await timesUnder(url, token, SECONDS);
          if (round.non2xx) throw new Error(`streams bench: ${String(round.non2xx)} requests failed`);
          withStreams.push(...round.times);
          eventsDelivered += held.events() - events;
          scans += (await scansOfRuns(db)) - scansBefore;
          scanSeconds += (performance.now() - began) / 1000;
        } finally {
          await held.close();
        }
      }
    } finally {
      await stopDriving();
    }
    const runReadsPerSecond = scans / scanSeconds;
    const baselineP95Ms = quantile(baseline, 0.95);
    const streamsP95Ms = quantile(withStreams, 0.95);
    return {
      streams: STREAMS,
      runs: RUNS,
      path: PATH,
      connections: CONNECTIONS,
      requestsPerSecond: RATE,
      rounds: ROUNDS,
      secondsPerRun: SECONDS,
      baselineP95Ms,
      streamsP95Ms,
      ratio: Math.round((streamsP95Ms / Math.max(baselineP95Ms, 0.001)) * 100) / 100,
      runReadsPerSecond: Math.round(runReadsPerSecond),
      eventsDelivered,
      defaultLimit,
      target: STREAMS_TARGET,
      floor: STREAMS_FLOOR,
    };
  });
}

// `node --import tsx bench/src/streams.ts` measures only this.
runWhenMain(import.meta.url, measureStreams);
