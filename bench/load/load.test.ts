import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productOn, startCluster, type Cluster } from '@app/server/testing';
import { loadConfig } from '../../server/src/config.ts';
import { hashPassword } from '../../server/src/features/accounts/passwords.ts';
import { resolveSecrets } from '../../server/src/lib/secrets.ts';
import { FakeOpenAi, FakeReplicate, fakeProviderEnv } from '../../server/test/support/ai-fakes.ts';
import { Recorder } from './client.ts';
import { runFaults, type FaultRecord } from './faults.ts';
import { checkInvariants, isDrained, leftOpen, pending, tally, type Check } from './invariants.ts';
import { chosenProfile } from './profile.ts';
import { buildReport, markdown, writeReport } from './report.ts';
import { simulateAdmin, simulateUser, type Person, type Tariff, type World } from './scenario.ts';

/*
 * The service as production runs it (nginx, two web processes, a worker, one PostgreSQL behind a
 * proxy that can freeze it, files on S3, mail over SMTP), under many simulated people at once
 * while processes are killed, the database's connections are killed and the database freezes,
 * and the AI providers fail and stall. Afterwards the money must add up and nothing may be left
 * hanging; the figures go to bench/report/load-<profile>.md. `LOAD_PROFILE=full` (`npm run
 * test:load`) is the 200-user run; the short one runs in `npm test`.
 */

const profile = chosenProfile();
const openai = await new FakeOpenAi('sk-load-fake-key').start();
const replicate = await new FakeReplicate('r8_load_fake_token').start();
openai.answer = { pieces: ['Коротко', ': начните', ' с малого', ', проверяйте', ' результат', ' и двигайтесь', ' дальше.'], finishReason: 'stop', promptTokens: 40, completionTokens: 12 };

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster({
    databaseProxy: true,
    env: {
      DEMO_WORD_DELAY_MS: '15',
      ...fakeProviderEnv({ LOAD_OPENAI_API_KEY: { key: openai.apiKey, url: openai.baseUrl }, LOAD_REPLICATE_API_TOKEN: { key: replicate.apiToken, url: replicate.baseUrl } }),
    },
  });
}, 180_000);
afterAll(async () => {
  await cluster.close();
  await Promise.all([openai.stop(), replicate.stop()]);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `count` people with one password (hashed once), confirmed, as `role`; numbered from `from`. */
async function people(count: number, role: 'user' | 'admin', from: number): Promise<Person[]> {
  const password = 'load-test-password-1';
  const hash = await hashPassword(password);
  const rows = await cluster.db
    .insertInto('users')
    .values(Array.from({ length: count }, (_, i) => ({ email: `load-${role}-${String(i)}@example.ru`, password_hash: hash, role, email_confirmed_at: new Date() })))
    .returning(['id', 'email'])
    .execute();
  return rows.map((r, i) => ({ id: r.id, email: r.email, password, n: from + i }));
}

/** The catalogue the people use: the demo chat model, and models and products on the provider fakes. */
async function catalogue(): Promise<Pick<World, 'chatModels' | 'products' | 'tariffs'>> {
  const db = cluster.db;
  const demo = await db.selectFrom('ai_models').select('id').where('name', '=', 'Демо-ассистент').executeTakeFirstOrThrow();
  // A short timeout, so a stalled provider fails an answer quickly.
  const chatConnection = await db
    .insertInto('provider_connections')
    .values({ name: 'Нагрузка: чат', protocol: 'openai', base_url: openai.baseUrl, api_key_env: 'LOAD_OPENAI_API_KEY', timeout_seconds: 3 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const fake = await db
    .insertInto('ai_models')
    .values({ name: 'Нагрузка: модель чата', kind: 'chat', connection_id: chatConnection.id, provider_model: 'gpt-load', max_output_tokens: 500 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const openaiConnection = { protocol: 'openai' as const, baseUrl: openai.baseUrl, keyEnv: 'LOAD_OPENAI_API_KEY' };
  const image = await productOn(db, openaiConnection, { kind: 'image', providerModel: 'gpt-image-1', mediaPriceTenths: 10 }, { variant: 'img', name: 'Нагрузка: картинка' });
  const text = await productOn(
    db,
    openaiConnection,
    { kind: 'text', providerModel: 'gpt-load', maxOutputTokens: 300 },
    { variant: 'text_1', name: 'Нагрузка: текст', promptTemplate: 'Напиши пост на тему «{topic}»', fields: [{ name: 'topic', label: 'Тема' }] },
  );
  const video = await productOn(
    db,
    { protocol: 'replicate', baseUrl: replicate.baseUrl, keyEnv: 'LOAD_REPLICATE_API_TOKEN' },
    { kind: 'video', providerModel: 'fake-owner/fake-video', mediaPriceTenths: 20 },
    { variant: 'video', name: 'Нагрузка: видео' },
  );
  const tariffs = await db.selectFrom('tariffs').select(['id', 'name', 'subscriptions_type']).execute();
  const tariff = (name: string): Tariff => {
    const row = tariffs.find((t) => t.name === name);
    if (!row) throw new Error(`no plan ${name}`);
    return { id: row.id, type: row.subscriptions_type };
  };
  return {
    chatModels: { demo: demo.id, fake: fake.id },
    products: { image, text, video },
    tariffs: { trial: tariff('Старт'), monthly: tariff('Бизнес'), wordsPack: tariff('Пакет слов'), mediaPack: tariff('Пакет медиа') },
  };
}

/** Every process answers its health check (nginx through itself). */
async function health(): Promise<Check> {
  const targets = [['nginx', `${cluster.url}/healthz`], ...[...cluster.processes.values()].map((p) => [p.name, `http://127.0.0.1:${String(p.healthPort)}/readyz`])] as const;
  const answers = await Promise.all(
    targets.map(async ([name, url]) => {
      const ok = await fetch(url, { signal: AbortSignal.timeout(5_000) }).then(
        (r) => r.ok,
        () => false,
      );
      return `${name} ${ok ? 'ok' : 'DOWN'}`;
    }),
  );
  return { name: 'every process answers its health check', ok: answers.every((a) => a.endsWith(' ok')), detail: answers.join(', ') };
}

describe(`load and faults (${profile.name})`, () => {
  it(
    `${String(profile.users)} users and ${String(profile.admins)} admins through the faults: balances equal their ledgers, every payment credited once, nothing left hanging`,
    async () => {
      const began = Date.now();
      const recorder = new Recorder();
      let running = true;
      const users = await people(profile.users - profile.newcomers, 'user', 0);
      const admins = await people(profile.admins, 'admin', profile.users);
      const newcomers: Person[] = Array.from({ length: profile.newcomers }, (_, i) => ({ id: 0, email: `load-new-${String(i)}@example.ru`, password: 'newcomer-password-1', n: users.length + i }));
      const world: World = {
        url: cluster.url,
        profile,
        recorder,
        cpSecret: resolveSecrets(loadConfig(cluster.env)).cloudpaymentsSecret,
        ...(await catalogue()),
        paid: [],
        mailedCode: (email) => cluster.smtp.confirmationCode(email),
        running: () => running,
      };

      const crowd = [...users.map((u) => simulateUser(world, u)), ...newcomers.map((u) => simulateUser(world, u, { newcomer: true })), ...admins.map((a) => simulateAdmin(world, a, users))];
      let faults: FaultRecord[];
      let faultsOver: number;
      let loadMs: number;
      try {
        // Everyone signs in and buys a plan during the ramp; the load phase (and its clock) starts after it.
        await sleep(profile.rampMs + 2_000);
        recorder.restart();
        faults = await runFaults(profile.faults, { cluster, openai, replicate, recorder });
        // From the last fault's end (a process answering again, the database thawed) no request may fail.
        faultsOver = Math.max(...faults.map((f) => f.end));
        loadMs = Math.max(profile.loadMs, faultsOver + profile.quietMs);
        await sleep(loadMs - recorder.now());
      } finally {
        running = false;
        await Promise.all(crowd);
      }

      // The work under way ends on its own: runs, answers (a killed process's are closed by the sweepers), refunds.
      const drainStart = Date.now();
      const drainedAt: Record<string, number | null> = { holds: null, runs: null, answers: null, refunds: null };
      for (;;) {
        const left = await pending(cluster.db);
        for (const [what, n] of Object.entries(left)) if (n === 0) drainedAt[what] ??= Date.now() - drainStart;
        if (isDrained(left) || Date.now() - drainStart > profile.drainMs) break;
        await sleep(1_000);
      }
      const drainMs = Date.now() - drainStart;

      const checks = [await health(), ...(await checkInvariants(cluster.db, world.paid))];
      const report = buildReport({ profile, loadMs, samples: recorder.samples, faults, faultsOver, drainMs, drainedAt, checks, tally: await tally(cluster.db), wallMs: Date.now() - began });
      const file = writeReport(report);
      const failed = checks.some((c) => !c.ok) || Object.keys(report.errorsAfterFaults).length > 0;
      const lines = (name: string) =>
        cluster
          .tail(name, 40)
          .split('\n')
          .map((l) => l.slice(0, 400))
          .join('\n');
      const logs = failed ? [...cluster.processes.keys()].map((name) => `--- ${name} (exit ${String(cluster.processes.get(name)?.child?.exitCode ?? 'none')}) ---\n${lines(name)}`).join('\n') : '';
      const open = failed ? `--- left open after the drain ---\n${await leftOpen(cluster.db)}\n` : '';
      const summary = `${markdown(report)}\nreport: ${file}\n${open}${logs}`;
      console.log(summary);

      expect(checks.filter((c) => !c.ok), summary).toEqual([]);
      expect(report.errorsAfterFaults, summary).toEqual({});
      expect(report.recoveries.filter((r) => r.recoveryMs === null), summary).toEqual([]);
    },
    profile.timeoutMs,
  );
});
