import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ReplicateProvider } from '../../src/providers/replicate.provider.ts';
import { verifyReplicateWebhook } from '../../src/providers/replicate-webhook.ts';
import { FINAL_PREDICTION_STATUSES, ProviderError, type Prediction } from '../../src/providers/types.ts';
import type { ProviderNetwork } from '../../src/providers/provider-network.ts';
import { FakeReplicate, networkFor, startWebhookReceiver } from '../support/ai-fakes.ts';

let fake: FakeReplicate;
let provider: ReplicateProvider;
/** Reaches the fake and the two closed ports the tests name, as configured private hosts. */
let network: ProviderNetwork;

beforeAll(async () => {
  fake = await new FakeReplicate().start();
  network = networkFor([fake.baseUrl, 'http://127.0.0.1:9', 'http://127.0.0.1:1']);
  provider = new ReplicateProvider({ fetch: network.fetch, baseUrl: fake.baseUrl, apiToken: fake.apiToken, timeoutMs: 2000 });
});
afterAll(async () => {
  await fake.stop();
  await network.close();
});
beforeEach(() => {
  fake.server.requests.length = 0;
  fake.failWith = null;
  fake.outage = null;
  fake.advanceOnPoll = true;
  fake.chunkedFiles = false;
});

async function failure(run: () => Promise<unknown>): Promise<ProviderError> {
  try {
    await run();
  } catch (e) {
    expect(e).toBeInstanceOf(ProviderError);
    return e as ProviderError;
  }
  throw new Error('expected a ProviderError');
}

/** Polls until the prediction is final, as a job without webhooks would. */
async function pollToEnd(id: string): Promise<Prediction[]> {
  const seen: Prediction[] = [];
  for (let i = 0; i < 10; i += 1) {
    const p = await provider.get(id);
    seen.push(p);
    if (FINAL_PREDICTION_STATUSES.includes(p.status)) return seen;
  }
  throw new Error('the prediction never finished');
}

describe('predictions by polling', () => {
  test('create by owner/name, poll through processing with progress to succeeded, download the output', async () => {
    const created = await provider.create({ model: 'acme/video-gen', input: { prompt: 'Волны на закате', duration: 5 } });
    expect(created).toEqual({ id: created.id, status: 'starting', output: [], error: null });
    const req = fake.server.requests[0];
    expect(req?.method).toBe('POST');
    expect(req?.path).toBe('/v1/models/acme/video-gen/predictions');
    expect(req?.headers.authorization).toBe(`Bearer ${fake.apiToken}`);
    expect(req?.json).toEqual({ input: { prompt: 'Волны на закате', duration: 5 } });

    const seen = await pollToEnd(created.id);
    expect(seen.map((p) => [p.status, p.progress])).toEqual([
      ['processing', 0],
      ['processing', 0.5],
      ['succeeded', 1],
    ]);
    const done = seen.at(-1);
    expect(done?.output).toEqual([`${fake.baseUrl}/files/${created.id}/output.mp4`]);
    expect(fake.server.requests.filter((r) => r.method === 'GET').map((r) => r.path)).toEqual(Array.from({ length: 3 }, () => `/v1/predictions/${created.id}`));

    const file = await provider.download(done?.output[0] ?? '', { maxBytes: 1024 });
    expect(file).toEqual({ data: fake.fileBytes, mime: 'video/mp4' });
  });

  test('create by version: POST /v1/predictions with the version id, from owner/name:version or a bare id', async () => {
    const version = 'a'.repeat(64);
    await provider.create({ model: `acme/img:${version}`, input: { prompt: 'x' } });
    await provider.create({ model: version, input: { prompt: 'y' } });
    expect(fake.server.requests.map((r) => [r.path, r.json])).toEqual([
      ['/v1/predictions', { version, input: { prompt: 'x' } }],
      ['/v1/predictions', { version, input: { prompt: 'y' } }],
    ]);
  });

  test('a model name that is neither form is refused before any request', async () => {
    expect((await failure(() => provider.create({ model: '../../etc', input: {} }))).kind).toBe('bad_request');
    expect(fake.server.requests).toHaveLength(0);
  });

  test('a failed prediction carries the error and no output', async () => {
    fake.failWith = 'CUDA out of memory';
    const created = await provider.create({ model: 'acme/video-gen', input: { prompt: 'x' } });
    const end = (await pollToEnd(created.id)).at(-1);
    expect(end).toMatchObject({ status: 'failed', error: 'CUDA out of memory', output: [] });
  });

  test('cancel: the prediction comes back canceled and stays so', async () => {
    const created = await provider.create({ model: 'acme/video-gen', input: { prompt: 'x' } });
    await provider.get(created.id);
    const canceled = await provider.cancel(created.id);
    expect(canceled.status).toBe('canceled');
    expect(fake.server.requests.at(-1)).toMatchObject({ method: 'POST', path: `/v1/predictions/${created.id}/cancel` });
    expect((await provider.get(created.id)).status).toBe('canceled');
  });

  test('errors: unknown id, wrong token, throttling, outage, bad input', async () => {
    expect(await failure(() => provider.get('nope'))).toMatchObject({ kind: 'bad_request', status: 404 });
    const wrong = new ReplicateProvider({ fetch: network.fetch, baseUrl: fake.baseUrl, apiToken: 'r8_wrong' });
    expect(await failure(() => wrong.get('nope'))).toMatchObject({ kind: 'auth', retryable: false });
    fake.outage = { status: 429, retryAfterSeconds: 9 };
    expect(await failure(() => provider.create({ model: 'acme/v', input: {} }))).toMatchObject({ kind: 'rate_limited', retryable: true, retryAfterMs: 9000 });
    fake.outage = { status: 500 };
    expect(await failure(() => provider.get('x'))).toMatchObject({ kind: 'unavailable', retryable: true });
    fake.outage = null;
    const e = await failure(() => provider.create({ model: 'b'.repeat(64), input: null as unknown as Record<string, unknown> }));
    expect(e).toMatchObject({ kind: 'bad_request', status: 422 });
    expect(e.message).toContain('input is required');
  });

  test('an unreachable service is unavailable; an abort is aborted', async () => {
    const down = new ReplicateProvider({ fetch: network.fetch, baseUrl: 'http://127.0.0.1:9', apiToken: 'x' });
    expect(await failure(() => down.get('x'))).toMatchObject({ kind: 'unavailable', retryable: true });
    const controller = new AbortController();
    controller.abort();
    expect(await failure(() => provider.get('x', { signal: controller.signal }))).toMatchObject({ kind: 'aborted' });
  });

  test('downloads over the limit are refused, with or without content-length; the token goes only to the API origin', async () => {
    const created = await provider.create({ model: 'acme/video-gen', input: {} });
    const url = (await pollToEnd(created.id)).at(-1)?.output[0] ?? '';
    fake.fileBytes = Buffer.alloc(5000, 1);
    expect(await failure(() => provider.download(url, { maxBytes: 4999 }))).toMatchObject({ kind: 'invalid_response' });
    fake.chunkedFiles = true;
    expect(await failure(() => provider.download(url, { maxBytes: 4999 }))).toMatchObject({ kind: 'invalid_response' });
    expect((await provider.download(url, { maxBytes: 5000 })).data.length).toBe(5000);
    expect(fake.server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${fake.apiToken}`);
    const elsewhere = new ReplicateProvider({ fetch: network.fetch, baseUrl: 'http://127.0.0.1:1', apiToken: 'secret-token' });
    await elsewhere.download(url, { maxBytes: 5000 });
    expect(fake.server.requests.at(-1)?.headers.authorization).toBeUndefined();
    expect(await failure(() => provider.download('file:///etc/passwd', { maxBytes: 10 }))).toMatchObject({ kind: 'bad_request' });
    const inline = `data:video/mp4;base64,${Buffer.from('tiny clip').toString('base64')}`;
    expect(await provider.download(inline, { maxBytes: 9 })).toEqual({ data: Buffer.from('tiny clip'), mime: 'video/mp4' });
    expect(await failure(() => provider.download(inline, { maxBytes: 8 }))).toMatchObject({ kind: 'invalid_response' });
    fake.fileBytes = Buffer.from('fake mp4 bytes');
  });
});

describe('webhooks', () => {
  test('the webhook URL and events filter are sent; the signed webhooks verify with the account secret', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const secret = await provider.getWebhookSecret();
      expect(secret).toBe(fake.webhookSecret);
      fake.advanceOnPoll = false;
      const created = await provider.create({ model: 'acme/video-gen', input: { prompt: 'x' }, webhookUrl: receiver.url });
      expect(fake.server.requests.at(-1)?.json).toMatchObject({ webhook: receiver.url, webhook_events_filter: ['start', 'completed'] });
      for (let i = 0; i < 3; i += 1) fake.advance(created.id);
      await fake.flushWebhooks();
      // `start` and `completed` only: the `logs` step is filtered out.
      expect(receiver.received).toHaveLength(2);
      const [start, completed] = receiver.received;
      for (const hook of [start, completed]) {
        expect(hook && provider.verifyWebhook(hook.headers, hook.body, secret)).toBe(true);
      }
      expect(provider.parseWebhook(start?.body ?? '')).toMatchObject({ id: created.id, status: 'processing' });
      expect(provider.parseWebhook(completed?.body ?? '')).toMatchObject({ id: created.id, status: 'succeeded', output: [`${fake.baseUrl}/files/${created.id}/output.mp4`] });
    } finally {
      await receiver.stop();
    }
  });

  const secret = `whsec_${Buffer.from('a test secret of 24 bytes').toString('base64')}`;
  const body = JSON.stringify({ id: 'p1', status: 'succeeded', output: ['https://example.test/o.mp4'], error: null });
  const now = Date.UTC(2026, 0, 15, 12, 0, 0);
  const ts = Math.floor(now / 1000);
  const headers = (over: Record<string, string> = {}) => ({
    'webhook-id': 'msg_1',
    'webhook-timestamp': String(ts),
    'webhook-signature': FakeReplicate.sign(secret, 'msg_1', ts, body),
    ...over,
  });

  test('a valid signature verifies, from a string or a Buffer body', () => {
    expect(verifyReplicateWebhook(headers(), body, secret, now)).toBe(true);
    expect(verifyReplicateWebhook(headers(), Buffer.from(body), secret, now)).toBe(true);
  });

  test('a wrong secret fails', () => {
    const other = `whsec_${Buffer.from('another secret entirely!').toString('base64')}`;
    expect(verifyReplicateWebhook(headers(), body, other, now)).toBe(false);
  });

  test('a timestamp more than five minutes away fails, either way', () => {
    expect(verifyReplicateWebhook(headers(), body, secret, now + 5 * 60_000)).toBe(true);
    expect(verifyReplicateWebhook(headers(), body, secret, now + 5 * 60_000 + 1000)).toBe(false);
    expect(verifyReplicateWebhook(headers(), body, secret, now - 5 * 60_000 - 1000)).toBe(false);
    // A fresh timestamp on an old signature does not help.
    expect(verifyReplicateWebhook(headers({ 'webhook-timestamp': String(ts + 600) }), body, secret, now + 600_000)).toBe(false);
  });

  test('a tampered body or id fails', () => {
    expect(verifyReplicateWebhook(headers(), body.replace('succeeded', 'failed'), secret, now)).toBe(false);
    expect(verifyReplicateWebhook(headers({ 'webhook-id': 'msg_2' }), body, secret, now)).toBe(false);
  });

  test('several space-separated signatures: any one valid v1 entry is enough', () => {
    const good = FakeReplicate.sign(secret, 'msg_1', ts, body);
    const bad = FakeReplicate.sign(`whsec_${Buffer.from('rotated-out old secret!!').toString('base64')}`, 'msg_1', ts, body);
    expect(verifyReplicateWebhook(headers({ 'webhook-signature': `${bad} ${good}` }), body, secret, now)).toBe(true);
    expect(verifyReplicateWebhook(headers({ 'webhook-signature': `${bad} v2,${good.slice(3)}` }), body, secret, now)).toBe(false);
    expect(verifyReplicateWebhook(headers({ 'webhook-signature': bad }), body, secret, now)).toBe(false);
  });

  test('missing or malformed headers fail', () => {
    expect(verifyReplicateWebhook({ ...headers(), 'webhook-signature': undefined }, body, secret, now)).toBe(false);
    expect(verifyReplicateWebhook(headers({ 'webhook-timestamp': 'yesterday' }), body, secret, now)).toBe(false);
    expect(verifyReplicateWebhook(headers({ 'webhook-signature': 'v1,' }), body, secret, now)).toBe(false);
  });

  test('a webhook body that is not a prediction is invalid_response', async () => {
    expect(await failure(async () => provider.parseWebhook('{"hello":1}'))).toMatchObject({ kind: 'invalid_response' });
  });
});
