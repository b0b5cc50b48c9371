import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import pino from 'pino';
import PostalMime from 'postal-mime';
import { ConfigError, loadConfig, REPO_ROOT } from '../../src/config.ts';
import { createAdmin } from '../../src/features/accounts/admin-create.ts';
import { createMailer } from '../../src/mail/mailer.ts';
import { call, createTestApp, TestSmtp, type TestApp } from '../support/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { SMTP_URL: '' } });
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const mailDir = () => path.join(t.config.dataDir, 'mail');
const emlFiles = () => (fs.existsSync(mailDir()) ? fs.readdirSync(mailDir()).filter((f) => f.endsWith('.eml')) : []);

async function readEml(file: string): Promise<{ to: string; subject: string; text: string }> {
  const mail = await PostalMime.parse(fs.readFileSync(path.join(mailDir(), file)));
  return { to: mail.to?.[0]?.address ?? '', subject: mail.subject ?? '', text: mail.text ?? '' };
}

/** The `.eml` files to `to`, once there are `count` of them, each completely written. */
async function emlFilesTo(to: string, count: number): Promise<string[]> {
  return vi.waitFor(
    async () => {
      const files = emlFiles().filter((f) => f.endsWith(`-${to}.eml`));
      expect(files).toHaveLength(count);
      for (const file of files) expect((await readEml(file)).to).toBe(to);
      return files;
    },
    { timeout: 15_000, interval: 100 },
  );
}

describe('mail without SMTP_URL', () => {
  it('treats an empty SMTP_URL as unset', () => {
    expect(t.config.smtpUrl).toBeUndefined();
  });

  it('writes each message as one .eml file in DATA_DIR/mail and logs it; the code in it confirms the email', async () => {
    const info = vi.spyOn(t.ctx.log, 'info');
    const register = await call(t.app, {
      method: 'POST',
      url: '/api/new/register',
      payload: { email: 'local@example.ru', password: 'long-enough-1', password_confirmation: 'long-enough-1', consent: true },
      csrf: true,
    });
    expect(register.statusCode).toBe(200);
    const token = (register.data.json as { token: string }).token;

    const [first = ''] = await emlFilesTo('local@example.ru', 1);
    const mail = await readEml(first);
    expect(mail.to).toBe('local@example.ru');
    expect(mail.subject).toMatch(/^\d{6} — код подтверждения почты Нейростудии$/);
    const code = /^(\d{6})/.exec(mail.subject)?.[1] ?? '';
    expect(mail.text).toContain(`Ваш код подтверждения: ${code}`);

    // Outside production the log line shows the subject whole: the code is readable there.
    await vi.waitFor(() => expect(info).toHaveBeenCalledWith(`mail to local@example.ru: «${mail.subject}» (SMTP_URL is not set: ${path.join(mailDir(), first)})`));

    // A second message to the same address is a second file.
    await sql`update email_codes set created_at = created_at - interval '2 minutes'`.execute(t.db);
    expect((await call(t.app, { method: 'POST', url: '/api/new/confirm_email/resend', token })).statusCode).toBe(200);
    const second = (await emlFilesTo('local@example.ru', 2)).find((f) => f !== first) ?? '';
    const newCode = /^(\d{6})/.exec((await readEml(second)).subject)?.[1] ?? '';

    const confirmed = await call(t.app, { method: 'POST', url: '/api/confirm_email', payload: { code: newCode }, token });
    expect(confirmed.statusCode).toBe(200);
    expect(t.smtp.messages).toHaveLength(0);
  });

  it('never overwrites a message: two to one address in the same millisecond are two files', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-test-mail-'));
    try {
      const mailer = createMailer({ smtpUrl: undefined, from: 'Нейростудия <no-reply@example.ru>', dataDir, env: 'test', log: pino({ level: 'silent' }) });
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-03-01T10:00:00.000Z'));
      await mailer.send({ to: 'same@example.ru', subject: 'Первое', text: 'один', html: '<p>один</p>' });
      await mailer.send({ to: 'same@example.ru', subject: 'Второе', text: 'два', html: '<p>два</p>' });
      mailer.close();
      const files = fs.readdirSync(path.join(dataDir, 'mail'));
      expect(files).toHaveLength(2);
      for (const file of files) expect(file).toMatch(/\.eml$/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps a hostile address inside the mail directory', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-test-mail-'));
    try {
      const mailer = createMailer({ smtpUrl: undefined, from: 'no-reply@example.ru', dataDir, env: 'test', log: pino({ level: 'silent' }) });
      await mailer.send({ to: '../../../etc/evil@example.ru', subject: 's', text: 't', html: '<p>t</p>' });
      mailer.close();
      expect(fs.readdirSync(dataDir)).toEqual(['mail']);
      expect(fs.readdirSync(path.join(dataDir, 'mail'))).toHaveLength(1);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('mail over SMTP when the connection breaks', () => {
  it('a send whose connection the server resets fails as an error (the mail job tries again), and the process goes on', async () => {
    // A mail server that greets, then resets the connection at the first command.
    const server = net.createServer((socket) => {
      socket.on('error', () => undefined);
      socket.write('220 mail.example ESMTP\r\n');
      socket.once('data', () => socket.resetAndDestroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${String((server.address() as net.AddressInfo).port)}`, from: 'a@example.ru', dataDir: t.config.dataDir, env: 'test', log: pino({ level: 'silent' }) });
    try {
      const failure = await mailer.send({ to: 'user@example.ru', subject: 'Тема', text: 'Текст', html: '<p>Текст</p>' }).then(
        () => null,
        (err: unknown) => err as { code?: string; message?: string },
      );
      expect(failure?.code).toBe('ESOCKET');
      expect(failure?.message).toMatch(/ECONNRESET/);
    } finally {
      mailer.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('the test mail server lives on when a client resets its connection mid-session', async () => {
    const smtp = new TestSmtp();
    const url = await smtp.start();
    try {
      const socket = net.connect(smtp.port, '127.0.0.1');
      await new Promise((resolve) => socket.once('data', resolve));
      socket.write('EHLO client.example\r\n');
      await new Promise((resolve) => socket.once('data', resolve));
      socket.resetAndDestroy();
      const mailer = createMailer({ smtpUrl: url, from: 'a@example.ru', dataDir: t.config.dataDir, env: 'test', log: pino({ level: 'silent' }) });
      await mailer.send({ to: 'after@example.ru', subject: 'После обрыва', text: 'Текст', html: '<p>Текст</p>' });
      mailer.close();
      expect((await smtp.waitFor('after@example.ru')).subject).toBe('После обрыва');
    } finally {
      await smtp.stop();
    }
  });
});

describe('createAdmin (npm run admin:create)', () => {
  const roleOf = async (email: string) => (await t.db.selectFrom('users').select(['role', 'email_confirmed_at']).where('email', '=', email).executeTakeFirst()) ?? null;
  const login = (email: string, password: string) => call(t.app, { method: 'POST', url: '/api/new/login', payload: { email, password }, csrf: true });

  it('creates a confirmed admin with a temporary password that signs in; a second run changes nothing', async () => {
    const result = await createAdmin(t.db, 'New.Admin@Example.ru');
    expect(result.outcome).toBe('created');
    expect(result.email).toBe('new.admin@example.ru');
    expect(result.outcome === 'created' ? result.password.length : 0).toBeGreaterThanOrEqual(12);
    const row = await roleOf('new.admin@example.ru');
    expect(row?.role).toBe('admin');
    expect(row?.email_confirmed_at).not.toBeNull();
    const res = await login('new.admin@example.ru', result.outcome === 'created' ? result.password : '');
    expect(res.statusCode).toBe(200);
    expect(res.data.json).toMatchObject({ user: { role: 'admin', email_confirmed: true } });
    expect(await createAdmin(t.db, 'new.admin@example.ru')).toEqual({ outcome: 'already', email: 'new.admin@example.ru' });
  });

  it.each(['not-an-email', '', '   ', 'a@', `${'a'.repeat(300)}@example.ru`, "x'; drop table users; --@example.ru"])('rejects %j and creates nothing', async (email) => {
    const before = await t.db.selectFrom('users').select(t.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    await expect(createAdmin(t.db, email)).rejects.toThrow(/^Некорректный email/);
    const after = await t.db.selectFrom('users').select(t.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('the CLI prints the result in Russian, and fails with a message on a bad email', async () => {
    const run = promisify(execFile);
    const env = { PATH: process.env.PATH ?? '', DATABASE_URL: t.config.databaseUrl ?? '', DATA_DIR: t.config.dataDir, APP_SECRET: 'test-secret-test-secret-test-secret-0123', LOG_LEVEL: 'silent' };
    const script = path.join(REPO_ROOT, 'server/src/cli/admin-create.ts');
    const ok = await run(process.execPath, ['--import', 'tsx', script, 'cli.admin@example.ru'], { env, cwd: REPO_ROOT });
    expect(ok.stdout).toMatch(/^Создан администратор cli\.admin@example\.ru\. Временный пароль: \S{12,}\n/);
    // What comes next: the password, then the second factor.
    expect(ok.stdout.split('\n')[1]).toBe('При первом входе он сменит временный пароль, затем подключит второй фактор — код из приложения-аутентификатора (QR-код покажет админка) и резервные коды; до этого админка не откроется.');
    expect((await roleOf('cli.admin@example.ru'))?.role).toBe('admin');
    const bad = await run(process.execPath, ['--import', 'tsx', script, 'nope'], { env, cwd: REPO_ROOT }).catch((err: unknown) => err as { code: number; stderr: string });
    expect(bad).toMatchObject({ code: 1 });
    expect((bad as { stderr: string }).stderr).toContain('Некорректный email: nope');
  }, 60_000);
});

describe('loadConfig', () => {
  const fails = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
    throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
  };

  it('has local defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, host: '127.0.0.1', publicUrl: 'http://localhost:3000', databaseUrl: undefined, smtpUrl: undefined, rateLimitPerMinute: 600, trustProxy: false });
    expect(config.dataDir).toBe(path.join(REPO_ROOT, '.data'));
    expect(config.cloudpayments.sandbox).toBe(true);
    expect(config.telegram.sandbox).toBe(true);
  });

  it('reads an empty variable as unset', () => {
    const config = loadConfig({
      PORT: '',
      DATABASE_URL: '',
      SMTP_URL: ' ',
      RATE_LIMIT_PER_MINUTE: '',
      DATABASE_POOL_SIZE: '',
      LOG_LEVEL: '',
      NODE_ENV: '',
      TRUST_PROXY: '',
      CLOUDPAYMENTS_PUBLIC_ID: '',
      CLOUDPAYMENTS_API_SECRET: '',
      PUBLIC_URL: '',
    });
    expect(config).toMatchObject({ port: 3000, databaseUrl: undefined, smtpUrl: undefined, rateLimitPerMinute: 600, databasePoolSize: 10, logLevel: 'info', env: 'development' });
    expect(config.cloudpayments.sandbox).toBe(true);
  });

  it('reads the values it is given', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://app:pw@db:5432/app',
      SMTP_URL: 'smtps://user:pw@mail.example.ru:465',
      PUBLIC_URL: 'https://neurostudio.example/',
      CLOUDPAYMENTS_PUBLIC_ID: 'pk_live',
      CLOUDPAYMENTS_API_SECRET: 'secret',
      TRUST_PROXY: 'true',
    });
    expect(config).toMatchObject({ port: 8080, databaseUrl: 'postgres://app:pw@db:5432/app', smtpUrl: 'smtps://user:pw@mail.example.ru:465', publicUrl: 'https://neurostudio.example', trustProxy: true });
    expect(config.cloudpayments).toMatchObject({ sandbox: false, publicId: 'pk_live', apiSecret: 'secret' });
  });

  it('believes X-Forwarded-* from the proxies it is given, and only from them', () => {
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', '::1']);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ WORKER_HEALTH_PORT: '9100' }).workerHealthPort).toBe(9100);
  });

  it('behind a proxy the client address is the proxy’s word, but nobody else’s', async () => {
    const app = await createTestApp({
      workers: false,
      env: { TRUST_PROXY: '127.0.0.1' },
      routes: (a) => {
        a.get('/test/ip', { schema: { hide: true } }, async (req) => ({ ip: req.ip }));
      },
    });
    try {
      const ip = async (remoteAddress: string) => (await app.app.inject({ url: '/test/ip', remoteAddress, headers: { 'x-forwarded-for': '203.0.113.9' } })).json<{ ip: string }>().ip;
      expect(await ip('127.0.0.1')).toBe('203.0.113.9');
      expect(await ip('198.51.100.7')).toBe('198.51.100.7');
    } finally {
      await app.close();
    }
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '3.5'],
    ['DATABASE_URL', 'http://x'],
    ['DATABASE_URL', 'not a url'],
    ['SMTP_URL', 'http://mail.example.ru'],
    ['PUBLIC_URL', 'ftp://example.ru'],
    ['APP_SECRET', 'too-short'],
    ['LOG_LEVEL', 'loud'],
    ['TRUST_PROXY', 'maybe'],
    ['TRUST_PROXY', '127.0.0.1,300.1.1.1'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['WORKER_HEALTH_PORT', '0'],
    ['NODE_ENV', 'staging'],
    ['RATE_LIMIT_PER_MINUTE', '0'],
    ['SSE_STREAMS_PER_USER', '0'],
    ['SSE_STREAMS_PER_USER', 'много'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['REDIS_URL', 'not a url'],
    ['REDIS_KEY_PREFIX', 'два слова'],
    ['DATABASE_POOL_SIZE', '-1'],
  ])('rejects %s=%j naming the variable', (name, value) => {
    expect(fails({ [name]: value })).toMatch(new RegExp(`^  ${name}: `, 'm'));
  });

  it.each<Record<string, string>>([{ CLOUDPAYMENTS_PUBLIC_ID: 'pk_live' }, { CLOUDPAYMENTS_API_SECRET: 'secret' }])('rejects only one of the CloudPayments keys: %j', (env) => {
    const message = fails(env);
    expect(message).toContain('CLOUDPAYMENTS_PUBLIC_ID');
    expect(message).toContain('CLOUDPAYMENTS_API_SECRET');
  });

  it('takes a Replicate webhook secret only in Replicate’s form and with PUBLIC_URL, where the webhook must be reachable', () => {
    const secret = `whsec_${Buffer.from('a signing key of some length').toString('base64')}`;
    expect(loadConfig({}).replicate).toEqual({ webhookSecret: undefined, webhookPollSeconds: 30 });
    expect(loadConfig({ REPLICATE_WEBHOOK_SECRET: secret, PUBLIC_URL: 'https://neurostudio.example', REPLICATE_WEBHOOK_POLL_SECONDS: '10' }).replicate).toEqual({ webhookSecret: secret, webhookPollSeconds: 10 });
    expect(fails({ REPLICATE_WEBHOOK_SECRET: secret })).toMatch(/^ {2}REPLICATE_WEBHOOK_SECRET: needs PUBLIC_URL/m);
    expect(fails({ REPLICATE_WEBHOOK_SECRET: 'not-a-secret', PUBLIC_URL: 'https://neurostudio.example' })).toMatch(/^ {2}REPLICATE_WEBHOOK_SECRET: must be/m);
    expect(fails({ REPLICATE_WEBHOOK_POLL_SECONDS: '0' })).toMatch(/^ {2}REPLICATE_WEBHOOK_POLL_SECONDS: /m);
  });

  it('needs APP_SECRET in production', () => {
    expect(fails({ NODE_ENV: 'production', ALLOW_SANDBOX: 'true' })).toMatch(/^ {2}APP_SECRET: /m);
    expect(loadConfig({ NODE_ENV: 'production', APP_SECRET: 'x'.repeat(32), ALLOW_SANDBOX: 'true' }).env).toBe('production');
  });

  it('refuses the payment and Telegram sandboxes in production unless ALLOW_SANDBOX=true', () => {
    const secret = { NODE_ENV: 'production', APP_SECRET: 'x'.repeat(32) };
    const message = fails(secret);
    expect(message).toMatch(/^ {2}CLOUDPAYMENTS_PUBLIC_ID: .*ALLOW_SANDBOX/m);
    expect(message).toMatch(/^ {2}TELEGRAM_BOT_TOKEN: .*ALLOW_SANDBOX/m);
    expect(fails({ ...secret, ALLOW_SANDBOX: 'false' })).toContain('CLOUDPAYMENTS_PUBLIC_ID');
    const real = loadConfig({ ...secret, CLOUDPAYMENTS_PUBLIC_ID: 'pk_live', CLOUDPAYMENTS_API_SECRET: 's', TELEGRAM_BOT_TOKEN: '1:x' });
    expect(real.cloudpayments.sandbox).toBe(false);
    expect(real.telegram.sandbox).toBe(false);
    const demo = loadConfig({ ...secret, ALLOW_SANDBOX: 'true' });
    expect(demo.cloudpayments.sandbox).toBe(true);
    // Development keeps the sandboxes by default.
    expect(loadConfig({}).cloudpayments.sandbox).toBe(true);
  });

  it('names every wrong variable at once', () => {
    const message = fails({ PORT: 'abc', DATABASE_URL: 'http://x' });
    expect(message).toMatch(/^ {2}PORT: /m);
    expect(message).toMatch(/^ {2}DATABASE_URL: /m);
  });
});
