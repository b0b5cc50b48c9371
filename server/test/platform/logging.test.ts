import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/logger.ts';
import { createMailer } from '../../src/mail/mailer.ts';
import { confirmationCodeMail } from '../../src/mail/templates.ts';
import { TestSmtp, call, createTestApp, type TestApp } from '../support/index.ts';

/** What a logger printed, line by line. */
function capture() {
  const lines: string[] = [];
  return { lines, output: { write: (chunk: string) => lines.push(...chunk.split('\n').filter(Boolean)) } };
}

describe('the log of requests', () => {
  let dev: TestApp;
  let prod: TestApp;
  const devLog = capture();
  const prodLog = capture();
  beforeAll(async () => {
    [dev, prod] = await Promise.all([
      createTestApp({ workers: false, log: createLogger({ env: 'development', logLevel: 'info' }, devLog.output) }),
      createTestApp({ workers: false, env: { NODE_ENV: 'production', ALLOW_SANDBOX: 'true' }, log: createLogger({ env: 'production', logLevel: 'info' }, prodLog.output) }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([dev.close(), prod.close()]);
  });

  it('outside production: one readable line a request — method, address, status and time', async () => {
    devLog.lines.length = 0;
    expect((await call(dev.app, { url: '/api/new/user?from=test' })).statusCode).toBe(401);
    expect((await call(dev.app, { url: '/readyz' })).statusCode).toBe(200);
    expect(devLog.lines).toHaveLength(2);
    expect(devLog.lines[0]).toMatch(/^\[\d{2}:\d{2}:\d{2}\] INFO: GET \/api\/new\/user\?from=test 401 \d+ ms$/);
    expect(devLog.lines[1]).toMatch(/^\[\d{2}:\d{2}:\d{2}\] INFO: GET \/readyz 200 \d+ ms$/);
  });

  it('in production: JSON lines, as Fastify writes them', async () => {
    prodLog.lines.length = 0;
    expect((await call(prod.app, { url: '/api/new/user' })).statusCode).toBe(401);
    const entries = prodLog.lines.map((line) => JSON.parse(line) as { msg?: string; req?: { url?: string }; res?: { statusCode?: number } });
    expect(entries.find((e) => e.msg === 'incoming request')?.req?.url).toBe('/api/new/user');
    expect(entries.find((e) => e.msg === 'request completed')?.res?.statusCode).toBe(401);
  });
});

describe('the log line of a mail', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-test-mail-log-'));
  const smtp = new TestSmtp();
  let smtpUrl = '';
  beforeAll(async () => {
    smtpUrl = await smtp.start();
  });
  afterAll(async () => {
    await smtp.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Sends a confirmation code through a mailer of `env` (to files, or SMTP) and answers what its log printed. */
  async function logOfCode(env: 'development' | 'production', code: string, smtp?: string): Promise<string> {
    const log = capture();
    const mailer = createMailer({ smtpUrl: smtp, from: 'Нейростудия <no-reply@example.ru>', dataDir, env, log: createLogger({ env, logLevel: 'info' }, log.output) });
    try {
      await mailer.send(confirmationCodeMail('anna@example.ru', code, 30));
    } finally {
      mailer.close();
    }
    expect(log.lines).toHaveLength(1);
    return log.lines[0] ?? '';
  }

  it('in development with mail to files shows the code, and the file to open', async () => {
    const line = await logOfCode('development', '482913');
    expect(line).toContain('mail to anna@example.ru: «482913 — код подтверждения почты Нейростудии»');
    expect(line).toContain(path.join(dataDir, 'mail'));
  });

  it('in production never shows the code, even with mail to files', async () => {
    const line = await logOfCode('production', '715204');
    expect(line).not.toContain('715204');
    expect(JSON.parse(line)).toMatchObject({ to: 'anna@example.ru', subject: '•••••• — код подтверждения почты Нейростудии', msg: 'mail written to file (SMTP_URL is not set)' });
  });

  it('with SMTP configured never shows the code, in development either', async () => {
    const line = await logOfCode('development', '390561', smtpUrl);
    expect(line).not.toContain('390561');
    expect(line).toContain('mail to anna@example.ru sent: «•••••• — код подтверждения почты Нейростудии»');
    await smtp.waitFor('anna@example.ru', /390561/);
  });
});
