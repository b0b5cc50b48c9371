import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metric, multipart, newUser, scrape, startCluster, until, type Cluster, type Sample } from '../support/index.ts';

/*
 * The service as production runs it (nginx, a web process, a worker): Prometheus scrapes each
 * process on its own METRICS_PORT after real traffic — a payment in the sandbox, a chat answer,
 * a picture generated — and the figures moved by exactly what happened, each in the process that
 * did it. Nothing of it is reachable through nginx.
 */

let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster({ web: 1, env: { DEMO_WORD_DELAY_MS: '0', DEMO_STEP_DELAY_MS: '0' } });
}, 180_000);
afterAll(() => cluster.close(), 60_000);

const metricsOf = (name: string) => `http://127.0.0.1:${String(cluster.processes.get(name)?.metricsPort)}/metrics`;
const moved = (before: Sample[], after: Sample[], name: string, labels: Record<string, string> = {}) => metric(after, name, labels) - metric(before, name, labels);

async function api<T>(token: string, method: string, path: string, body?: { json?: unknown; multipart?: ReturnType<typeof multipart> }): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
  let payload: string | Uint8Array | undefined;
  if (body?.json !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body.json);
  } else if (body?.multipart) {
    Object.assign(headers, body.multipart.headers);
    payload = new Uint8Array(body.multipart.payload);
  }
  const res = await fetch(`${cluster.url}${path}`, { method, headers, ...(payload === undefined ? {} : { body: payload }) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${String(res.status)} ${text}`);
  return (JSON.parse(text) as { json: T }).json;
}

describe('metrics of the running service', () => {
  it('move in the web process and the worker by a payment, a chat answer and a run', { timeout: 120_000 }, async () => {
    const { db } = cluster;
    const user = await newUser(db);
    const trial = await db.selectFrom('tariffs').select('id').where('subscriptions_type', '=', 1).orderBy('sort').orderBy('id').executeTakeFirstOrThrow();
    const chatModel = await db.selectFrom('ai_models').select('id').where('name', '=', 'Демо-ассистент').executeTakeFirstOrThrow();
    const product = await db.selectFrom('ai_products').select('id').where('name', '=', 'Картинка по описанию').executeTakeFirstOrThrow();
    const [web0, worker0] = [await scrape(metricsOf('web1')), await scrape(metricsOf('worker'))];

    // A plan bought in the payment sandbox with a test card (the sandbox sends Check, Pay and Recurrent).
    const invoice = await api<{ payment_id: number; amount: number }>(user.token, 'GET', `/api/payment/cloudpayments/subscribe?id=${String(trial.id)}`);
    const charge = await api<{ success: boolean }>(user.token, 'POST', '/api/sandbox/cloudpayments/charge', { json: { payment_id: invoice.payment_id, card_number: '4242424242424242', exp: '12/35', cvv: '123' } });
    expect(charge.success).toBe(true);
    // A chat answer of the demo model, with the plan's words.
    await api(user.token, 'POST', '/api/new/chat', { multipart: multipart([{ name: 'ai_models_id', value: String(chatModel.id) }, { name: 'message', value: 'Привет! Что ты умеешь?' }]) });
    const words = (await db.selectFrom('chat_messages').select('words').where('user_id', '=', user.id).where('role', '=', 'assistant').executeTakeFirstOrThrow()).words;
    // A picture, run by the worker.
    const run = await api<{ id: number }>(user.token, 'POST', '/api/new/generations', { multipart: multipart([{ name: 'product_id', value: String(product.id) }, { name: 'prompt', value: 'Закат над морем' }]) });
    await until(async () => (await api<{ status: string }>(user.token, 'GET', `/api/new/generations/${String(run.id)}`)).status === 'succeeded');

    const web = await scrape(metricsOf('web1'));
    expect(moved(web0, web, 'neurostudio_payments_total', { kind: 'checkout', outcome: 'paid' })).toBe(1);
    expect(moved(web0, web, 'neurostudio_payments_roubles_total', { kind: 'checkout', outcome: 'paid' })).toBe(invoice.amount);
    expect(moved(web0, web, 'neurostudio_payment_notifications_total', { kind: 'check', outcome: 'accepted' })).toBe(1);
    expect(moved(web0, web, 'neurostudio_payment_notifications_total', { kind: 'pay', outcome: 'accepted' })).toBe(1);
    expect(moved(web0, web, 'neurostudio_chat_answers_total', { model: 'Демо-ассистент', outcome: 'done' })).toBe(1);
    expect(moved(web0, web, 'neurostudio_chat_words_total', { model: 'Демо-ассистент' })).toBe(words);
    expect(moved(web0, web, 'neurostudio_provider_request_duration_seconds_count', { provider: 'Демо', operation: 'chat_stream' })).toBe(1);
    expect(moved(web0, web, 'http_request_duration_seconds_count', { route: '/api/new/generations', method: 'POST', status: '200' })).toBe(1);
    expect(moved(web0, web, 'http_request_duration_seconds_count', { route: '/api/new/generations/:id' })).toBeGreaterThanOrEqual(1);
    // Runs are the worker's: none here.
    expect(moved(web0, web, 'neurostudio_generation_runs_total')).toBe(0);

    const worker = await until(async () => {
      const s = await scrape(metricsOf('worker'));
      return moved(worker0, s, 'neurostudio_jobs_total', { queue: 'generations.run', outcome: 'completed' }) === 1 && s;
    });
    expect(moved(worker0, worker, 'neurostudio_generation_runs_total', { variant: 'img', outcome: 'succeeded' })).toBe(1);
    expect(moved(worker0, worker, 'neurostudio_generation_run_duration_seconds_count', { variant: 'img', outcome: 'succeeded' })).toBe(1);
    expect(moved(worker0, worker, 'neurostudio_provider_request_duration_seconds_count', { provider: 'Демо', operation: 'image_generate' })).toBe(1);
    expect(moved(worker0, worker, 'neurostudio_chat_answers_total')).toBe(0);
    // The worker has no HTTP app, but the process's own figures and the database's.
    expect(worker.some((s) => s.name === 'http_request_duration_seconds_count')).toBe(false);
    for (const family of ['process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'neurostudio_job_queue_waiting', 'neurostudio_holds_open', 'neurostudio_db_pool_in_use']) {
      expect(worker.some((s) => s.name === family), family).toBe(true);
    }
  });

  it('is not reachable through nginx', async () => {
    const res = await fetch(`${cluster.url}/metrics`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('process_resident_memory_bytes');
  });
});
