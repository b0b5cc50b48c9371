import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GENERATION_FAILURES, GENERATION_TEXTS, type Generation } from '@app/contracts';
import { completeRun, connectionOf, predictionOutcome } from '../../src/features/generations/generations.job.ts';
import { runOf } from '../../src/features/generations/generations.queries.ts';
import { webhookToken } from '../../src/features/generations/replicate-webhook-url.ts';
import { parsePrediction } from '../../src/providers/replicate.provider.ts';
import { FakeReplicate, fakeProviderEnv } from '../support/ai-fakes.ts';
import { createTestApp, finishedRun, jobEnded, productOn, runEffects, runStatus, startRun, until, userWithTokens, type TestApp, type TestUser } from '../support/index.ts';

/*
 * Runs on a Replicate-protocol connection with webhooks configured: the prediction is created
 * with the webhook, a signed webhook ends the run, polling stays the fallback, and whichever of
 * the two comes first ends it once.
 */

const KEY_ENV = 'FAKE_REPLICATE_API_TOKEN';
const WEBHOOK_PATH = '/api/replicate/webhook';
let fake: FakeReplicate;
let t: TestApp;
let product = 0;

beforeAll(async () => {
  fake = await new FakeReplicate().start();
  t = await createTestApp({ env: { ...fakeProviderEnv({ [KEY_ENV]: { key: fake.apiToken, url: fake.baseUrl } }), REPLICATE_WEBHOOK_SECRET: fake.webhookSecret, PUBLIC_URL: 'https://neurostudio.example', REPLICATE_WEBHOOK_POLL_SECONDS: '1' } });
  // The fake delivers its webhooks over HTTP to this address (PUBLIC_URL becomes it).
  await t.listen();
  product = await productOn(t.db, { protocol: 'replicate', baseUrl: fake.baseUrl, keyEnv: KEY_ENV }, { kind: 'video', providerModel: 'acme/clip-maker', mediaPriceTenths: 20 }, { variant: 'video', name: 'Клип (вебхук)' });
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});
beforeEach(() => {
  // Predictions stay where they are until a test moves them, so polls never end a run by surprise.
  fake.advanceOnPoll = false;
});

/** A run of a new user (with 5 media tokens) whose prediction the job has created and is polling: the user, the run's id and the prediction's. */
async function runningPrediction(prompt = 'Море ночью'): Promise<{ user: TestUser; gid: number; id: string }> {
  const user = await userWithTokens(t.db, 5);
  const res = await startRun(t.app, user, { product_id: product, prompt });
  expect(res.statusCode).toBe(200);
  const gid = (res.data.json as Generation).id;
  const id = await until(async () => (await t.db.selectFrom('generations').select('provider_ref').where('id', '=', gid).executeTakeFirstOrThrow()).provider_ref);
  return { user, gid, id };
}

/** The prediction's JSON as Replicate would send it once it ended: succeeded with its file, or failed with `error`. */
function ended(id: string, error?: string): string {
  const json = fake.predictions.get(id)?.json;
  if (!json) throw new Error(`no prediction ${id}`);
  const end = error === undefined ? { status: 'succeeded', output: [`${fake.baseUrl}/files/${id}/output.mp4`] } : { status: 'failed', error };
  return JSON.stringify({ ...json, ...end, completed_at: new Date().toISOString() });
}

/** Standard Webhooks headers over `body`, signed with `secret` at `timestamp` (Unix seconds). */
function signedHeaders(body: string, opts: { secret?: string; timestamp?: number; id?: string } = {}): Record<string, string> {
  const id = opts.id ?? `msg_${String(Math.random()).slice(2)}`;
  const timestamp = opts.timestamp ?? Math.floor(Date.now() / 1000);
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': FakeReplicate.sign(opts.secret ?? fake.webhookSecret, id, timestamp, body) };
}

/** The address run `gid`'s prediction was given: the route with the run and its token. */
const webhookAddress = (gid: number) => `${WEBHOOK_PATH}?run=${String(gid)}&token=${webhookToken(t.ctx.secrets.appSecret, gid)}`;

const sendWebhook = (gid: number, body: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: webhookAddress(gid), payload: body, headers: { 'content-type': 'application/json', ...headers } });

const downloads = (id: string) => fake.server.requests.filter((r) => r.path === `/files/${id}/output.mp4`).length;

/** Ends the run with its correctly signed completed webhook, and waits until its job stops polling. */
async function endBySignedWebhook(gid: number, id: string) {
  const body = ended(id);
  expect((await sendWebhook(gid, body, signedHeaders(body))).json()).toEqual({ result: 'finished' });
  await jobEnded(t.db, gid);
}

/** The run is untouched: still running, nothing stored, its tokens still held. */
async function expectUntouched(user: TestUser, gid: number) {
  const effects = await runEffects(t.app, t.db, user, gid);
  expect(effects.run.status).toBe('running');
  expect(effects.outputRows).toBe(0);
  expect(effects.hold?.status).toBe('held');
  expect(effects.ledger).toEqual([{ amount: -20, reason: 'generation_hold' }]);
}

describe('a signed webhook ends the run', () => {
  it('the prediction is created with the webhook; its completed webhook stores the output and settles once, and the poller then stops without storing again', async () => {
    const { user, gid, id } = await runningPrediction();
    const create = fake.server.requests.find((r) => r.method === 'POST' && r.path === '/v1/models/acme/clip-maker/predictions' && (r.json as { input: { prompt: string } }).input.prompt === 'Море ночью');
    expect(create?.json).toMatchObject({ webhook: `${t.baseUrl}${webhookAddress(gid)}`, webhook_events_filter: ['completed'] });

    const body = ended(id);
    const res = await sendWebhook(gid, body, signedHeaders(body));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ result: 'finished' });
    expect((await runStatus(t.app, user, gid)).status).toBe('succeeded');

    // The job polling it learns that the run ended and stops.
    await jobEnded(t.db, gid);
    const effects = await runEffects(t.app, t.db, user, gid);
    expect(effects.run).toMatchObject({ status: 'succeeded', progress: 100, refunded: false });
    expect(effects.outputs).toEqual([{ mime: 'video/mp4', body: fake.fileBytes }]);
    expect(downloads(id)).toBe(1);
    expect(effects.hold).toMatchObject({ status: 'settled', spent: 20 });
    expect(effects.ledger).toEqual([{ amount: -20, reason: 'generation_hold' }]);
    expect(effects.wallet.balance).toEqual({ ...effects.wallet.sums, media: 30 });

    // A poll that had seen the prediction end before the webhook's commit finishes through the same path: it stores nothing more.
    const run = await runOf(t.db, gid);
    if (!run) throw new Error('no run');
    const predictions = t.ctx.providers.predictions(connectionOf(run));
    expect(await completeRun(t.ctx, run, await predictionOutcome(predictions, parsePrediction(JSON.parse(body)), run.cost))).toBe(false);
    const after = await runEffects(t.app, t.db, user, gid);
    expect(after.outputRows).toBe(1);
    expect(after.ledger).toEqual(effects.ledger);
    expect(after.wallet).toEqual(effects.wallet);
  });

  it('a failed prediction’s webhook fails the run with why and gives its tokens back', async () => {
    const { user, gid, id } = await runningPrediction('Запрещённое');
    const body = ended(id, 'NSFW content detected');
    const res = await sendWebhook(gid, body, signedHeaders(body));
    expect(res.json()).toEqual({ result: 'finished' });
    await jobEnded(t.db, gid);
    const effects = await runEffects(t.app, t.db, user, gid);
    expect(effects.run).toMatchObject({ status: 'failed', refunded: true, error: `${GENERATION_FAILURES.contentPolicy}. ${GENERATION_TEXTS.refunded}`, outputs: [] });
    expect(effects.detail).toContain('NSFW content detected');
    expect(effects.ledger).toEqual([
      { amount: -20, reason: 'generation_hold' },
      { amount: 20, reason: 'generation_release' },
    ]);
    expect(effects.wallet.balance).toEqual({ ...effects.wallet.sums, media: 50 });
  });

  it('a prediction of no run of ours, or one not final yet, is acknowledged and changes nothing', async () => {
    const { user, gid, id } = await runningPrediction();
    // Bodies carry the prediction's input, the user's picture as a data URL among it: far over the 1 MB other routes take.
    const stranger = JSON.stringify({ id: 'not-ours-123', status: 'succeeded', input: { image: `data:image/png;base64,${'A'.repeat(8 * 1024 * 1024)}` }, output: [`${fake.baseUrl}/files/not-ours-123/output.mp4`] });
    expect((await sendWebhook(gid, stranger, signedHeaders(stranger))).json()).toEqual({ result: 'ignored' });
    const processing = JSON.stringify({ ...fake.predictions.get(id)?.json, status: 'processing' });
    expect((await sendWebhook(gid, processing, signedHeaders(processing))).json()).toEqual({ result: 'ignored' });
    await expectUntouched(user, gid);
    await endBySignedWebhook(gid, id);
  });
});

describe('webhooks that are refused', () => {
  it('a wrong, missing or mismatched signature: 401 with the error envelope, and nothing changes', async () => {
    const { user, gid, id } = await runningPrediction();
    const body = ended(id);
    const otherSecret = `whsec_${Buffer.from('another account entirely!').toString('base64')}`;
    const tampered = body.replace('"succeeded"', '"failed"');
    const attempts = [
      signedHeaders(body, { secret: otherSecret }),
      {},
      { ...signedHeaders(body), 'webhook-signature': 'v1,AAAA' },
    ];
    for (const headers of attempts) {
      const res = await sendWebhook(gid, body, headers);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ status: 'error', code: 'INVALID_SIGNATURE', text: 'Неверная подпись уведомления' });
    }
    // Signed over one body, sent with another.
    expect((await sendWebhook(gid, tampered, signedHeaders(body))).statusCode).toBe(401);
    await expectUntouched(user, gid);
    expect(downloads(id)).toBe(0);
    await endBySignedWebhook(gid, id);
  });

  it('an old timestamp is refused; a delivery sent again changes nothing', async () => {
    const { user, gid, id } = await runningPrediction();
    const body = ended(id);
    const old = await sendWebhook(gid, body, signedHeaders(body, { timestamp: Math.floor(Date.now() / 1000) - 10 * 60 }));
    expect(old.statusCode).toBe(401);
    await expectUntouched(user, gid);

    const headers = signedHeaders(body);
    expect((await sendWebhook(gid, body, headers)).json()).toEqual({ result: 'finished' });
    const once = await runEffects(t.app, t.db, user, gid);
    const again = await sendWebhook(gid, body, headers);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ result: 'ignored' });
    await jobEnded(t.db, gid);
    const after = await runEffects(t.app, t.db, user, gid);
    expect(after.outputRows).toBe(1);
    expect(after.ledger).toEqual([{ amount: -20, reason: 'generation_hold' }]);
    expect(after.wallet).toEqual(once.wallet);
    expect(downloads(id)).toBe(1);
  });

  it('with no secret configured every webhook is refused', async () => {
    const { user, gid, id } = await runningPrediction();
    const body = ended(id);
    const secret = t.config.replicate.webhookSecret;
    t.config.replicate.webhookSecret = undefined;
    try {
      expect((await sendWebhook(gid, body, signedHeaders(body))).statusCode).toBe(401);
    } finally {
      t.config.replicate.webhookSecret = secret;
    }
    await expectUntouched(user, gid);
    await endBySignedWebhook(gid, id);
  });
});

describe('the webhook and the poll racing', () => {
  it('both finishing the same run at once: one of them ends it, one output set, one charge', async () => {
    const { user, gid, id } = await runningPrediction();
    const body = ended(id);
    const run = await runOf(t.db, gid);
    if (!run) throw new Error('no run');
    const predictions = t.ctx.providers.predictions(connectionOf(run));
    // The poller's own ending (what it does once a poll sees the prediction succeeded) beside the webhook.
    const [webhook, polled] = await Promise.all([
      sendWebhook(gid, body, signedHeaders(body)),
      predictionOutcome(predictions, parsePrediction(JSON.parse(body)), run.cost).then((outcome) => completeRun(t.ctx, run, outcome)),
    ]);
    expect(webhook.statusCode).toBe(200);
    const winners = [webhook.json<{ result: string }>().result === 'finished', polled].filter(Boolean);
    expect(winners).toHaveLength(1);
    await jobEnded(t.db, gid);
    const effects = await runEffects(t.app, t.db, user, gid);
    expect(effects.run.status).toBe('succeeded');
    expect(effects.outputRows).toBe(1);
    expect(effects.ledger).toEqual([{ amount: -20, reason: 'generation_hold' }]);
    expect(effects.wallet.balance).toEqual({ ...effects.wallet.sums, media: 30 });
  });

  it('predictions whose last poll and webhook arrive together: every run ends once, one output set and one charge each', async () => {
    fake.advanceOnPoll = true;
    const user = await userWithTokens(t.db, 10);
    const started = await Promise.all(['Первый', 'Второй', 'Третий', 'Четвёртый'].map((prompt) => startRun(t.app, user, { product_id: product, prompt })));
    const ids = started.map((res) => (res.data.json as Generation).id);
    for (const gid of ids) expect((await finishedRun(t.app, user, gid)).status).toBe('succeeded');
    await fake.flushWebhooks();
    for (const gid of ids) await jobEnded(t.db, gid);
    const refs: (string | null)[] = [];
    for (const gid of ids) {
      const effects = await runEffects(t.app, t.db, user, gid);
      expect(effects.outputRows).toBe(1);
      expect(effects.ledger).toEqual([{ amount: -20, reason: 'generation_hold' }]);
      refs.push(effects.providerRef);
    }
    // Each prediction sent its completed webhook, and it was answered (finished, or ignored when the poll came first).
    const delivered = fake.deliveries.filter((d) => refs.includes((JSON.parse(d.body) as { id: string }).id));
    expect(delivered.map((d) => d.status)).toEqual([200, 200, 200, 200]);
    const state = await runEffects(t.app, t.db, user, ids[0] ?? 0);
    expect(state.wallet.balance).toEqual({ ...state.wallet.sums, media: 20 });
  }, 60_000);
});
