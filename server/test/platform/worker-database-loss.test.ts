import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailJob } from '../../src/mail/mail.job.ts';
import { createTestApp, DbProxy, until, type TestApp } from '../support/index.ts';

/*
 * The database goes away while a worker finishes a job: pg-boss 10 marks a job done (or failed)
 * without waiting for it, so the failed call has nobody to hear it. The worker must log it and
 * live on (the job stays active until its expiry and is run again), not end the process.
 */

let t: TestApp;
let proxy: DbProxy;
beforeAll(async () => {
  // The SMTP server holds each message 2 s: the job is still running when the database goes.
  t = await createTestApp({ workers: false, smtpDelayMs: 2_000 });
  const target = new URL(t.databaseUrl);
  proxy = new DbProxy({ host: target.hostname, port: Number(target.port || 5432) });
  await proxy.start();
});
afterAll(async () => {
  await proxy.stop();
  await t.close();
});

function startWorker(): { child: ChildProcess; output: string[]; ready: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, '../../src/worker.ts')], {
    env: { ...process.env, DATABASE_URL: proxy.url(t.databaseUrl), SMTP_URL: t.config.smtpUrl, DATA_DIR: t.config.dataDir, APP_SECRET: 'test-secret-test-secret-test-secret-0123', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output.push(d.toString());
      if (output.join('').includes('workers are running')) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the worker exited with ${String(code)}: ${output.join('')}`)));
  });
  return { child, output, ready };
}

const mail = (to: string) => ({ to, subject: 'Проверка', text: 'Текст', html: '<p>Текст</p>' });

describe('a worker whose database goes away as a job ends', () => {
  // A worker process started through tsx, then waits of 20 s and 30 s of its own.
  it('lives on: the failed completion is logged, and once the database is back it runs the next job', { timeout: 90_000 }, async () => {
    const worker = startWorker();
    try {
      await worker.ready;
      await t.ctx.jobs.send(mailJob, mail('first@example.ru'));
      await until(async () => t.smtp.inFlight > 0);
      // Every connection of the worker drops, and none can be made while the job ends.
      proxy.cut();
      await until(async () => t.smtp.messages.length > 0);
      const exited = new Promise<number | null>((resolve) => worker.child.once('exit', resolve));
      const outcome = await Promise.race([exited.then((code) => `exited with ${String(code)}`), until(async () => worker.output.join('').includes('with nobody waiting for it') && 'logged', 20_000)]);
      expect(outcome, worker.output.join('').slice(-3000)).toBe('logged');

      proxy.restore();
      await t.ctx.jobs.send(mailJob, mail('second@example.ru'));
      await t.smtp.waitFor('second@example.ru', /Проверка/, 30_000);
      expect(worker.child.exitCode).toBeNull();
    } finally {
      worker.child.kill('SIGKILL');
    }
  });
});
