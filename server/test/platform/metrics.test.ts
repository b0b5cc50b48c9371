import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRoutes, type Generation } from '@app/contracts';
import { seedAiCatalog, seedGenerationCatalog } from '../../src/db/seed.ts';
import { Metrics } from '../../src/lib/metrics/metrics.ts';
import { DATABASE_READ_EVERY_MS } from '../../src/lib/metrics/database-gauges.ts';
import { placeHold } from '../../src/features/wallet/wallet.queries.ts';
import { mailJob } from '../../src/mail/mail.job.ts';
import { ALL_JOBS } from '../../src/jobs/registry.ts';
import {
  call,
  createTestApp,
  finishedRun,
  metric,
  multipart,
  newUser,
  notify,
  parseMetrics,
  payFields,
  productOn,
  scrape,
  seedCatalog,
  startPayment,
  startRun,
  until,
  userWithTokens,
  type Catalog,
  type Sample,
  type TestApp,
} from '../support/index.ts';
import { FakeOpenAi, fakeProviderEnv, type OpenAiFakeBehaviour } from '../support/ai-fakes.ts';

/*
 * The figures of one process as Prometheus reads them from its own listener (METRICS_PORT):
 * requests by route pattern, open streams, chat answers, provider calls and their failures by
 * kind, runs, payments, refunds and notifications, mail and jobs, and the gauges read from the
 * database — at most every 15 s, whatever the scrapes.
 */

let t: TestApp;
let metricsUrl: string;
let catalog: Catalog;
const fake = new FakeOpenAi('sk-metrics-test');
const products: Record<string, number> = {};

beforeAll(async () => {
  await fake.start();
  t = await createTestApp({ env: { METRICS_PORT: '0', DEMO_WORD_DELAY_MS: '0', DEMO_STEP_DELAY_MS: '0', ...fakeProviderEnv({ FAKE_OPENAI_API_KEY: { key: fake.apiKey, url: fake.baseUrl } }) } });
  await t.listen();
  metricsUrl = `http://127.0.0.1:${String(t.ctx.metrics.port)}/metrics`;
  catalog = await seedCatalog(t.db);
  await seedAiCatalog(t.db);
  await seedGenerationCatalog(t.db);
  for (const row of await t.db.selectFrom('ai_products').select(['id', 'name']).execute()) products[row.name] = row.id;
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});

const demoModelId = async () => (await t.db.selectFrom('ai_models').select('id').where('name', '=', 'Демо-ассистент').executeTakeFirstOrThrow()).id;

async function chat(token: string, modelId: number, message: string) {
  const body = multipart([
    { name: 'ai_models_id', value: String(modelId) },
    { name: 'message', value: message },
  ]);
  return call(t.app, { method: 'POST', url: chatRoutes.send.path, token, payload: body.payload, headers: body.headers });
}

/** How much each figure moved between two scrapes. */
const moved = (before: Sample[], after: Sample[], name: string, labels: Record<string, string> = {}) => metric(after, name, labels) - metric(before, name, labels);

describe('the metrics listener', () => {
  it('serves /metrics on its own port in Prometheus’ text format, with the process’s own families; nothing else there', async () => {
    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const samples = parseMetrics(await res.text());
    for (const family of ['process_resident_memory_bytes', 'process_cpu_seconds_total', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_active_handles', 'process_open_fds']) {
      expect(samples.some((s) => s.name === family), family).toBe(true);
    }
    expect(samples.some((s) => s.name === 'neurostudio_db_pool_max' && s.value === 20)).toBe(true);
    const base = metricsUrl.replace('/metrics', '');
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/api/new/user`)).status).toBe(404);
    expect((await fetch(metricsUrl, { method: 'POST' })).status).toBe(404);
  });

  it('is not on the public port', async () => {
    expect((await fetch(`${t.baseUrl}/metrics`)).status).toBe(404);
    expect(await (await fetch(`${t.baseUrl}/metrics`)).text()).not.toContain('http_request_duration_seconds');
  });
});

describe('HTTP requests', () => {
  it('are timed by route pattern, method and status — never by the URL asked for', async () => {
    const user = await newUser(t.db);
    const before = await scrape(metricsUrl);
    expect((await fetch(`${t.baseUrl}/api/new/chat/987654`, { headers: { authorization: `Bearer ${user.token}` } })).status).toBe(404);
    expect((await fetch(`${t.baseUrl}/no-such-page-314159`)).status).toBe(404);
    expect((await fetch(`${t.baseUrl}/api/new/user`, { headers: { authorization: `Bearer ${user.token}` } })).status).toBe(200);
    const text = await (await fetch(metricsUrl)).text();
    const after = parseMetrics(text);
    expect(moved(before, after, 'http_request_duration_seconds_count', { route: '/api/new/chat/:id', method: 'GET', status: '404' })).toBe(1);
    expect(moved(before, after, 'http_request_duration_seconds_count', { route: 'unmatched', method: 'GET', status: '404' })).toBe(1);
    expect(moved(before, after, 'http_request_duration_seconds_count', { route: '/api/new/user', method: 'GET', status: '200' })).toBe(1);
    expect(moved(before, after, 'http_request_duration_seconds_bucket', { route: '/api/new/user', method: 'GET', status: '200', le: '+Inf' })).toBe(1);
    for (const raw of ['987654', '314159', user.email]) expect(text).not.toContain(raw);
    expect(text).not.toContain('no-such-page');
  });

  it('counts the requests under way and the event streams open, and lets them go when the streams end', async () => {
    const user = await userWithTokens(t.db, 0, 100_000);
    const model = await demoModelId();
    // A slow demo answer keeps its stream open while the process is scraped.
    const slow = await createTestApp({ shareDatabaseWith: t, env: { METRICS_PORT: '0', DEMO_WORD_DELAY_MS: '200' } });
    try {
      const base = await slow.listen();
      const url = `http://127.0.0.1:${String(slow.ctx.metrics.port)}/metrics`;
      const body = multipart([
        { name: 'ai_models_id', value: String(model) },
        { name: 'message', value: 'Расскажи длинную историю' },
      ]);
      const controller = new AbortController();
      const res = await fetch(`${base}${chatRoutes.sendStream.path}`, { method: 'POST', headers: { authorization: `Bearer ${user.token}`, ...body.headers }, body: body.payload, signal: controller.signal });
      expect(res.status).toBe(200);
      const open = await until(async () => {
        const s = await scrape(url);
        return metric(s, 'http_sse_streams_open') === 1 && s;
      });
      expect(metric(open, 'http_requests_in_flight')).toBeGreaterThanOrEqual(1);
      controller.abort();
      await until(async () => {
        const s = await scrape(url);
        return metric(s, 'http_sse_streams_open') === 0 && metric(s, 'http_requests_in_flight') === 0;
      });
      await until(async () => metric(await scrape(url), 'neurostudio_chat_answers_total', { outcome: 'done' }) === 1);
    } finally {
      await slow.close();
    }
  });
});

describe('chat answers and provider calls', () => {
  it('count an answer by model and outcome, the words charged, the first token’s delay and the provider call', async () => {
    const user = await userWithTokens(t.db, 0, 100_000);
    const before = await scrape(metricsUrl);
    const res = await chat(user.token, await demoModelId(), 'Привет! Как дела?');
    expect(res.statusCode).toBe(200);
    const words = (await t.db.selectFrom('chat_messages').select('words').where('user_id', '=', user.id).where('role', '=', 'assistant').executeTakeFirstOrThrow()).words;
    expect(words).toBeGreaterThan(0);
    const after = await scrape(metricsUrl);
    const model = { model: 'Демо-ассистент' };
    expect(moved(before, after, 'neurostudio_chat_answers_total', { ...model, outcome: 'done' })).toBe(1);
    expect(moved(before, after, 'neurostudio_chat_words_total', model)).toBe(words);
    expect(moved(before, after, 'neurostudio_chat_first_token_seconds_count', model)).toBe(1);
    expect(moved(before, after, 'neurostudio_provider_request_duration_seconds_count', { provider: 'Демо', operation: 'chat_stream' })).toBe(1);
    expect(moved(before, after, 'neurostudio_provider_errors_total')).toBe(0);
  });

  it('count failed calls by kind: 429, 5xx, a refusal, a connection set up wrong', async () => {
    const user = await userWithTokens(t.db, 0, 100_000);
    const conn = await t.db.insertInto('provider_connections').values({ name: 'Фейк', protocol: 'openai', base_url: fake.baseUrl, api_key_env: 'FAKE_OPENAI_API_KEY', timeout_seconds: 5 }).returning('id').executeTakeFirstOrThrow();
    const model = await t.db.insertInto('ai_models').values({ name: 'Фейк GPT', kind: 'chat', connection_id: conn.id, provider_model: 'gpt-fake', max_output_tokens: 100 }).returning('id').executeTakeFirstOrThrow();
    const before = await scrape(metricsUrl);
    const behaviours: OpenAiFakeBehaviour[] = [
      { kind: 'rate_limited', retryAfterSeconds: 1 },
      { kind: 'refuse', status: 503, message: 'overloaded', code: 'server_error' },
      { kind: 'refuse', status: 400, message: 'content policy', code: 'content_policy_violation' },
    ];
    for (const behaviour of behaviours) {
      fake.behaviour = behaviour;
      expect((await chat(user.token, model.id, 'Вопрос')).statusCode).toBe(502);
    }
    fake.reset();
    // Its key variable unset: nothing is sent, the connection is at fault.
    await t.db.updateTable('provider_connections').set({ api_key_env: 'UNSET_METRICS_API_KEY', updated_at: new Date() }).where('id', '=', conn.id).execute();
    t.ctx.models.clear();
    expect((await chat(user.token, model.id, 'Вопрос')).statusCode).toBe(502);
    const after = await scrape(metricsUrl);
    const errors = (kind: string) => moved(before, after, 'neurostudio_provider_errors_total', { provider: 'Фейк', kind });
    expect([errors('rate_limited'), errors('server_error'), errors('refused'), errors('misconfigured')]).toEqual([1, 1, 1, 1]);
    expect(moved(before, after, 'neurostudio_chat_answers_total', { model: 'Фейк GPT', outcome: 'failed' })).toBe(4);
    expect(moved(before, after, 'neurostudio_chat_words_total', { model: 'Фейк GPT' })).toBe(0);
  });
});

describe('generation runs', () => {
  it('count runs by the product’s variant and outcome, with their duration', async () => {
    const user = await userWithTokens(t.db, 10);
    const before = await scrape(metricsUrl);
    const res = await startRun(t.app, user, { product_id: products['Картинка по описанию'] ?? 0, prompt: 'Закат над морем' });
    expect(res.statusCode).toBe(200);
    expect((await finishedRun(t.app, user, (res.data.json as Generation).id)).status).toBe('succeeded');
    // A model its provider refuses: failed at once (not retried).
    const refused = await productOn(t.db, { protocol: 'openai', baseUrl: fake.baseUrl, keyEnv: 'FAKE_OPENAI_API_KEY' }, { kind: 'image', providerModel: 'gpt-image-fake', mediaPriceTenths: 10 }, { variant: 'img', name: 'Отказ' });
    fake.behaviour = { kind: 'refuse', status: 400, message: 'content policy', code: 'content_policy_violation' };
    const failed = await startRun(t.app, user, { product_id: refused, prompt: 'Нельзя' });
    expect((await finishedRun(t.app, user, (failed.data.json as Generation).id)).status).toBe('failed');
    fake.reset();
    const after = await scrape(metricsUrl);
    expect(moved(before, after, 'neurostudio_generation_runs_total', { variant: 'img', outcome: 'succeeded' })).toBe(1);
    expect(moved(before, after, 'neurostudio_generation_runs_total', { variant: 'img', outcome: 'failed' })).toBe(1);
    expect(moved(before, after, 'neurostudio_generation_run_duration_seconds_count', { variant: 'img' })).toBe(2);
    expect(moved(before, after, 'neurostudio_provider_errors_total', { provider: 'Отказ: подключение', operation: 'image_generate', kind: 'refused' })).toBe(1);
    expect(moved(before, after, 'neurostudio_jobs_total', { queue: 'generations.run', outcome: 'completed' })).toBe(2);
  });

  it('count a queued run its owner cancelled', async () => {
    const idle = await createTestApp({ shareDatabaseWith: t, workers: false, env: { METRICS_PORT: '0' } });
    try {
      const url = `http://127.0.0.1:${String(idle.ctx.metrics.port)}/metrics`;
      const user = await userWithTokens(t.db, 10);
      const res = await startRun(idle.app, user, { product_id: products['Картинка по описанию'] ?? 0, prompt: 'Отменю' });
      const run = res.data.json as Generation;
      // The shared database's workers may take it first: then it cannot be cancelled, and is not counted as such.
      const cancel = await call(idle.app, { method: 'POST', url: `/api/new/generations/${String(run.id)}/cancel`, token: user.token });
      expect(metric(await scrape(url), 'neurostudio_generation_runs_total', { variant: 'img', outcome: 'cancelled' })).toBe(cancel.statusCode === 200 ? 1 : 0);
    } finally {
      await idle.close();
    }
  });
});

describe('payments, refunds and CloudPayments’ notifications', () => {
  it('count a payment once with its roubles (not its repeat), a decline, a refund, a refused and a forged notification', async () => {
    const user = await newUser(t.db);
    const before = await scrape(metricsUrl);
    const invoice = await startPayment(t.app, user, catalog.monthly);
    const pay = payFields(invoice, user);
    expect((await notify(t.app, 'pay', pay)).code).toBe(0);
    expect((await notify(t.app, 'pay', pay)).code).toBe(0);
    const declined = await startPayment(t.app, user, catalog.wordsPack);
    expect((await notify(t.app, 'fail', payFields(declined, user, { Status: 'Declined', Reason: 'InsufficientFunds' }))).code).toBe(0);
    expect((await notify(t.app, 'refund', { TransactionId: pay.TransactionId + 1_000_000, PaymentTransactionId: pay.TransactionId, Amount: '100.00', Currency: 'RUB' })).code).toBe(0);
    expect((await notify(t.app, 'check', payFields(invoice, user, { Amount: '1.00' }))).code).toBe(12);
    expect((await notify(t.app, 'pay', pay, { secret: 'forged-secret' })).status).toBe(401);
    const after = await scrape(metricsUrl);
    const paid = { kind: 'checkout', outcome: 'paid' };
    expect(moved(before, after, 'neurostudio_payments_total', paid)).toBe(1);
    expect(moved(before, after, 'neurostudio_payments_roubles_total', paid)).toBe(invoice.amount);
    expect(moved(before, after, 'neurostudio_payments_total', { kind: 'checkout', outcome: 'declined' })).toBe(1);
    expect(moved(before, after, 'neurostudio_refunds_total', { kind: 'refund', outcome: 'applied' })).toBe(1);
    expect(moved(before, after, 'neurostudio_refunds_roubles_total', { kind: 'refund', outcome: 'applied' })).toBe(100);
    const notified = (kind: string, outcome: string) => moved(before, after, 'neurostudio_payment_notifications_total', { kind, outcome });
    expect([notified('pay', 'accepted'), notified('pay', 'duplicate'), notified('fail', 'accepted'), notified('refund', 'accepted'), notified('check', 'refused'), notified('pay', 'invalid_signature')]).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('has the payment series at zero from the start, so the first payment is an increase', async () => {
    const fresh = new Metrics({ db: t.db, queues: [], log: t.ctx.log });
    const samples = parseMetrics(await fresh.registry.metrics());
    for (const kind of ['checkout', 'renewal']) for (const outcome of ['paid', 'declined']) expect(samples.find((s) => s.name === 'neurostudio_payments_total' && s.labels.kind === kind && s.labels.outcome === outcome)?.value).toBe(0);
  });
});

describe('mail and jobs', () => {
  it('count mail sent and the jobs that sent it', async () => {
    const before = await scrape(metricsUrl);
    await t.ctx.jobs.send(mailJob, { to: 'metrics@example.ru', subject: 'Проверка', text: 'Текст', html: '<p>Текст</p>' });
    await t.smtp.waitFor('metrics@example.ru');
    const after = await until(async () => {
      const s = await scrape(metricsUrl);
      return moved(before, s, 'neurostudio_jobs_total', { queue: 'mail.send', outcome: 'completed' }) === 1 && s;
    });
    expect(moved(before, after, 'neurostudio_mail_messages_total', { outcome: 'sent' })).toBe(1);
    expect(moved(before, after, 'neurostudio_job_duration_seconds_count', { queue: 'mail.send' })).toBe(1);
  });
});

describe('gauges read from the database', () => {
  it('are read on scrape at most every 15 s: open holds and their age, each queue’s waiting jobs and the oldest one’s wait', async () => {
    let clock = 1_000_000;
    const metrics = new Metrics({ db: t.db, queues: ALL_JOBS.map((j) => j.name), log: t.ctx.log, now: () => clock });
    const user = await userWithTokens(t.db, 10);
    const holds = async () => metric(parseMetrics(await metrics.registry.metrics()), 'neurostudio_holds_open', { wallet: 'media' });
    const first = await holds();
    await placeHold(t.db, { userId: user.id, kind: 'media', amount: 10, idempotencyKey: `metrics-hold-${String(user.id)}` });
    // Within 15 s the figure is the one read before, however often it is scraped.
    expect(await holds()).toBe(first);
    expect(await holds()).toBe(first);
    // Then it is read again: what the database holds then, the hold placed above with it (runs of
    // the tests before may still be closing theirs, so the count is taken on both sides of the read).
    const openMedia = async () => Number((await t.db.selectFrom('wallet_holds').select((eb) => eb.fn.countAll<string>().as('n')).where('kind', '=', 'media').where('status', '=', 'held').executeTakeFirstOrThrow()).n);
    const fresh = await until(async () => {
      clock += DATABASE_READ_EVERY_MS;
      const before = await openMedia();
      const read = await holds();
      return before === (await openMedia()) && { before, read };
    });
    expect(fresh.read).toBe(fresh.before);
    expect(await holds()).toBe(fresh.read);
    const samples = parseMetrics(await metrics.registry.metrics());
    expect(metric(samples, 'neurostudio_holds_oldest_age_seconds', { wallet: 'media' })).toBeGreaterThanOrEqual(0);
    for (const job of ALL_JOBS) expect(samples.some((s) => s.name === 'neurostudio_job_queue_waiting' && s.labels.queue === job.name), job.name).toBe(true);
    expect(metric(samples, 'neurostudio_database_gauges_age_seconds')).toBe(0);
    clock += 5_000;
    expect(metric(parseMetrics(await metrics.registry.metrics()), 'neurostudio_database_gauges_age_seconds')).toBe(5);
  });

  it('report a queue’s waiting jobs and how long the oldest has waited', async () => {
    const idle = await createTestApp({ workers: false });
    try {
      await idle.ctx.jobs.send(mailJob, { to: 'queued@example.ru', subject: 'Ждёт', text: 'Текст', html: '<p>Текст</p>' }, { startAfter: new Date(Date.now() - 60_000) });
      const samples = parseMetrics(await idle.ctx.metrics.registry.metrics());
      expect(metric(samples, 'neurostudio_job_queue_waiting', { queue: 'mail.send' })).toBe(1);
      expect(metric(samples, 'neurostudio_job_queue_oldest_age_seconds', { queue: 'mail.send' })).toBeGreaterThanOrEqual(59);
      expect(metric(samples, 'neurostudio_job_queue_waiting', { queue: 'generations.run' })).toBe(0);
    } finally {
      await idle.close();
    }
  });
});
