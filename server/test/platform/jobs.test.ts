import { spawn } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { z } from 'zod';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/context.ts';
import { createDb, type Db } from '../../src/db/database.ts';
import { defineJob, type AnyJob } from '../../src/jobs/job.ts';
import { Jobs } from '../../src/jobs/queue.ts';
import { PgListener } from '../../src/lib/pg-listener.ts';
import { Metrics } from '../../src/lib/metrics/metrics.ts';
import { mailJob } from '../../src/mail/mail.job.ts';
import { call, createTestApp, createTestDatabase, csrfPair, type TestApp } from '../support/index.ts';

/** Typed jobs: defined once with a payload schema, sent in the sender's transaction, run with options, failures kept. */

let database: { url: string; drop: () => Promise<void> };
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url, 5);
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

const running: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  for (const service of running.splice(0)) await service.stop();
});

/** A queue (not started) with its own notification connection, both stopped after the test. */
function newJobs(definitions: AnyJob[], limits?: { statementTimeoutMs: number }): { jobs: Jobs; listener: PgListener; log: pino.Logger } {
  const log = pino({ level: 'silent' });
  const listener = new PgListener(database.url, log);
  const jobs = new Jobs(database.url, log, definitions, listener, limits);
  running.push(jobs, listener);
  return { jobs, listener, log };
}

/** A context holding just this file's database, the queue and the figures jobs count into. */
const queueContext = (jobs: Jobs, log: pino.Logger) => ({ db, log, jobs, metrics: new Metrics({ db, queues: [], log }) }) as unknown as AppContext;

/** A queue over `definitions` on this file's database, with a context holding just the database (and the figures jobs count into). */
async function startJobs(definitions: AnyJob[], opts: { pollSeconds?: number } = {}): Promise<Jobs> {
  const { jobs, listener, log } = newJobs(definitions);
  await jobs.start(queueContext(jobs, log), { work: true, pollSeconds: opts.pollSeconds ?? 0.5 });
  await listener.start();
  return jobs;
}

/** Resolves once `check` holds, polling; rejects after `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('the condition was not reached');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('typed jobs', () => {
  it('a payload of the wrong shape does not compile, and is refused at run time too', async () => {
    const seen: number[] = [];
    const job = defineJob({ name: 'test.typed', payload: z.object({ userId: z.number().int() }), run: async (_ctx, { userId }) => void seen.push(userId) });
    const jobs = await startJobs([job]);
    // @ts-expect-error -- userId must be a number
    await expect(jobs.send(job, { userId: 'seven' })).rejects.toThrow();
    // @ts-expect-error -- userId is required
    await expect(jobs.send(job, {})).rejects.toThrow();
    await jobs.send(job, { userId: 7 });
    await until(() => seen.length === 1);
    expect(seen).toEqual([7]);
  });

  it('a job that keeps failing is retried, then recorded in job_failures for admins', async () => {
    let attempts = 0;
    const job = defineJob({
      name: 'test.always-fails',
      payload: z.object({ n: z.number() }),
      options: { retries: 2, retryDelaySeconds: 1, backoff: false },
      run: async () => {
        attempts += 1;
        throw new Error(`provider is down (${String(attempts)})`);
      },
    });
    const jobs = await startJobs([job]);
    const id = await jobs.send(job, { n: 42 });
    await until(async () => (await db.selectFrom('job_failures').select('id').where('job_id', '=', id ?? '').executeTakeFirst()) !== undefined, 30_000);
    const failure = await db.selectFrom('job_failures').selectAll().where('job_id', '=', id ?? '').executeTakeFirstOrThrow();
    expect(failure).toMatchObject({ queue: 'test.always-fails', payload: { n: 42 }, attempts: 3, resolved_at: null });
    expect(failure.error).toContain('provider is down (3)');
    expect(attempts).toBe(3);
    // The sweep of jobs pg-boss failed by itself does not record it twice.
    await jobs.recordExhausted(db);
    expect(await db.selectFrom('job_failures').select('id').where('job_id', '=', id ?? '').execute()).toHaveLength(1);
  });

  it('a job that outlives its time is failed by the queue, and the sweep records it once its retries are spent', async () => {
    const job = defineJob({
      name: 'test.hangs',
      payload: z.object({}),
      options: { retries: 0, expireInSeconds: 1 },
      run: (_ctx, _payload, { signal }) => new Promise((resolve) => signal.addEventListener('abort', () => setTimeout(resolve, 1500))),
    });
    const jobs = await startJobs([job]);
    const id = await jobs.send(job, {});
    await until(async () => {
      await jobs.recordExhausted(db);
      return (await db.selectFrom('job_failures').select('id').where('job_id', '=', id ?? '').executeTakeFirst()) !== undefined;
    }, 30_000);
  });

  it('runs `concurrency` jobs of one kind at once', async () => {
    let active = 0;
    let most = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const job = defineJob({
      name: 'test.parallel',
      payload: z.object({ i: z.number() }),
      options: { concurrency: 4 },
      run: async () => {
        active += 1;
        most = Math.max(most, active);
        await gate;
        active -= 1;
      },
    });
    const jobs = await startJobs([job]);
    for (let i = 0; i < 8; i++) await jobs.send(job, { i });
    await until(() => active === 4);
    release();
    await until(() => active === 0);
    expect(most).toBe(4);
  });

  it('a job sent in a transaction exists only if it commits, and wakes a sleeping worker at commit', async () => {
    const seen: string[] = [];
    const job = defineJob({ name: 'test.in-tx', payload: z.object({ tag: z.string() }), run: async (_ctx, { tag }) => void seen.push(tag) });
    // Polling every minute: only the wake-up at commit can start the job within the test.
    const jobs = await startJobs([job], { pollSeconds: 60 });
    await db
      .transaction()
      .execute(async (tx) => {
        await jobs.send(job, { tag: 'rolled back' }, { tx });
        throw new Error('rollback');
      })
      .catch(() => undefined);
    await db.transaction().execute(async (tx) => {
      await jobs.send(job, { tag: 'committed' }, { tx });
    });
    await until(() => seen.length > 0, 20_000);
    expect(seen).toEqual(['committed']);
  });

  it('a singleton key keeps a second job of the same key out while the first waits', async () => {
    const job = defineJob({
      name: 'test.singleton',
      payload: z.object({ key: z.string() }),
      options: { policy: 'stately' },
      singletonKey: ({ key }) => key,
      run: async () => undefined,
    });
    const { jobs, log } = newJobs([job]);
    await jobs.start(queueContext(jobs, log), { work: false });
    expect(await jobs.send(job, { key: 'a' })).not.toBeNull();
    expect(await jobs.send(job, { key: 'a' })).toBeNull();
    expect(await jobs.send(job, { key: 'b' })).not.toBeNull();
  });

  it('keeps only what the job allows of a failed payload: no mailed code or link outlives the job', async () => {
    const job = defineJob({
      name: 'test.secret-mail',
      payload: z.object({ to: z.string(), subject: z.string(), text: z.string() }),
      options: { retries: 0 },
      redact: (payload) => ({ to: (payload as { to: string }).to }),
      run: async () => {
        throw new Error('SMTP refused');
      },
    });
    const jobs = await startJobs([job]);
    const id = await jobs.send(job, { to: 'a@b.ru', subject: '123456 — код', text: 'код 123456, ссылка /password/reset/secret' });
    await until(async () => (await db.selectFrom('job_failures').select('id').where('job_id', '=', id ?? '').executeTakeFirst()) !== undefined, 20_000);
    const failure = await db.selectFrom('job_failures').select(['payload']).where('job_id', '=', id ?? '').executeTakeFirstOrThrow();
    expect(failure.payload).toEqual({ to: 'a@b.ru' });
    expect(mailJob.redact?.({ to: 'a@b.ru', subject: '482913 — код подтверждения почты Нейростудии', text: 'x', html: 'y' })).toEqual({ to: 'a@b.ru', subject: '•••••• — код подтверждения почты Нейростудии' });
  });
});

describe('the queue on a database that does not answer', () => {
  it('fails a statement of its own that waits past its statement limit instead of hanging on it', async () => {
    const job = defineJob({ name: 'test.limited', payload: z.object({ n: z.number() }), run: async () => undefined });
    // The queue's table made first without a short limit (its partition and indexes take a while on a busy machine).
    const made = newJobs([job]);
    await made.jobs.start(queueContext(made.jobs, made.log), { work: false });
    const { jobs, log } = newJobs([job], { statementTimeoutMs: 1_000 });
    await jobs.start(queueContext(jobs, log), { work: false });
    // The queue's table locked by another transaction until the send has settled. Without the
    // limit on pg-boss's connections the send waits for the lock: the server then ends the
    // locking transaction after 10 s idle, the send goes through, and the test fails.
    let settled: unknown;
    await db.transaction().execute(async (tx) => {
      await sql`set local idle_in_transaction_session_timeout = '10s'`.execute(tx);
      await sql`lock table pgboss.job in access exclusive mode`.execute(tx);
      settled = await jobs.send(job, { n: 1 }).then(
        () => 'sent',
        (err: unknown) => err,
      );
    });
    expect(settled).toMatchObject({ code: '57014' });
    // Once the database answers again, the same queue sends.
    await expect(jobs.send(job, { n: 2 })).resolves.toEqual(expect.any(String));
  });
});

describe('mail keeps up with bursts', () => {
  let t: TestApp;
  beforeAll(async () => {
    // A mail server that takes 300 ms per message: one at a time, 24 codes would take 7 s or more.
    t = await createTestApp({ smtpDelayMs: 300 });
  });
  afterAll(() => t.close());

  it('24 registrations at once get their codes, delivered many at a time', async () => {
    const pair = await csrfPair(t.app);
    const emails = Array.from({ length: 24 }, (_, i) => `burst${String(i)}-${String(Date.now())}@example.ru`);
    const results = await Promise.all(
      emails.map((email, i) =>
        call(t.app, {
          method: 'POST',
          url: '/api/new/register',
          payload: { email, password: 'correct-horse-battery', password_confirmation: 'correct-horse-battery', consent: true },
          cookies: { 'XSRF-TOKEN': pair.cookie },
          headers: { 'x-xsrf-token': pair.header },
          remoteAddress: `10.0.0.${String(i + 1)}`,
        }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(emails.map(() => 200));
    for (const email of emails) await t.smtp.waitFor(email, /код подтверждения/);
    expect(t.smtp.maxInFlight).toBeGreaterThanOrEqual(Math.min(mailJob.options.concurrency, 4));
  });
});

describe('npm run worker', () => {
  // Starts a worker process through tsx (its own waits allow 30 s to start and 20 s to deliver).
  it('runs the workers from the context alone: no HTTP server, no pages', { timeout: 90_000 }, async () => {
    const t = await createTestApp({ workers: false });
    try {
      // The hook ends the process if anything imports Fastify, its plugins, the app or the pages.
      const child = spawn(process.execPath, ['--import', path.resolve(import.meta.dirname, '../support/no-http.mjs'), '--import', 'tsx', path.resolve(import.meta.dirname, '../../src/worker.ts')], {
        env: { ...process.env, DATABASE_URL: t.config.databaseUrl, DATA_DIR: t.config.dataDir, SMTP_URL: `smtp://127.0.0.1:${String(t.smtp.port)}`, APP_SECRET: 'test-secret-test-secret-test-secret-0123', LOG_LEVEL: 'info', PORT: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      try {
        await until(() => output.includes('workers are running'), 30_000);
        // Mail enqueued by the web process (no workers of its own) is delivered by the worker process.
        await t.ctx.jobs.send(mailJob, { to: 'worker@example.ru', subject: 'Проверка', text: 'текст', html: '<p>текст</p>' });
        await t.smtp.waitFor('worker@example.ru', /Проверка/, 20_000);
        expect(output).not.toMatch(/the worker imported/);
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    } finally {
      await t.close();
    }
  });
});
