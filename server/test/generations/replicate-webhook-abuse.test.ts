import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookToken } from '../../src/features/generations/replicate-webhook-url.ts';
import { createTestApp, streamUpload, type StreamedUpload, type TestApp } from '../support/index.ts';

/*
 * The Replicate webhook reads no body it has not authorised: without the secret, the signature
 * headers or the token of its run in the address, a request is answered 401 (and one over the
 * limit 413) before its body is read, and the connection closes — so a flood of large unsigned
 * posts costs the server no memory.
 */

const WEBHOOK_PATH = '/api/replicate/webhook';
const SECRET = `whsec_${Buffer.from('webhook-abuse-test-secret-0123456789').toString('base64')}`;
const MB = 1024 * 1024;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ workers: false, env: { REPLICATE_WEBHOOK_SECRET: SECRET, PUBLIC_URL: 'https://neurostudio.example' } });
  await t.listen();
});
afterAll(() => t.close());

const now = () => Math.floor(Date.now() / 1000);
/** Standard Webhooks headers anyone can write: they only look signed. */
const forgedHeaders = (timestamp = now()) => ({ 'webhook-id': `msg_${String(Math.random()).slice(2)}`, 'webhook-timestamp': String(timestamp), 'webhook-signature': 'v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' });
const address = (run: number, token = webhookToken(t.ctx.secrets.appSecret, run)) => `${WEBHOOK_PATH}?run=${String(run)}&token=${token}`;

const upload = (path: string, headers: Record<string, string>, bodyBytes: number) =>
  streamUpload(t.baseUrl, { path, headers: { 'content-type': 'application/json', ...headers }, bodyBytes, head: Buffer.from('{"id":"') });

function expectRefusedUnread(res: StreamedUpload, bodyBytes: number, status: 401 | 413) {
  expect(res.status).toBe(status);
  expect(JSON.parse(res.body)).toEqual(status === 401 ? { status: 'error', code: 'INVALID_SIGNATURE', text: 'Неверная подпись уведомления' } : { status: 'error', code: 'PAYLOAD_TOO_LARGE', text: 'Слишком большой запрос' });
  expect(res.headers.connection).toBe('close');
  expect(res.finishedSending).toBe(false);
  expect(res.sentBytes).toBeLessThan(bodyBytes);
}

/** The collector (`gc()`) when it can be had. */
function collector(): (() => void) | undefined {
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

describe('an unauthorised webhook is refused before its body is read', () => {
  it('20 concurrent 45 MB posts without the secret’s token: each 401 before it is sent, and the server’s memory grows by a few MB at most', async () => {
    const bodyBytes = 45 * MB;
    const kinds: Record<string, string>[] = [];
    const paths: string[] = [];
    for (let i = 0; i < 20; i++) {
      // No headers at all; headers that only look signed; those on an address with a wrong token, or with another run's token.
      const kind = i % 4;
      kinds.push(kind === 0 ? {} : forgedHeaders());
      paths.push(kind < 2 ? WEBHOOK_PATH : kind === 2 ? address(7, 'x'.repeat(43)) : `${WEBHOOK_PATH}?run=8&token=${webhookToken(t.ctx.secrets.appSecret, 7)}`);
    }
    const gc = collector();
    gc?.();
    const before = process.memoryUsage();
    const peak = { rss: before.rss, arrayBuffers: before.arrayBuffers };
    const sample = setInterval(() => {
      const m = process.memoryUsage();
      peak.rss = Math.max(peak.rss, m.rss);
      peak.arrayBuffers = Math.max(peak.arrayBuffers, m.arrayBuffers);
    }, 2);
    let replies: StreamedUpload[];
    try {
      replies = await Promise.all(paths.map((path, i) => upload(path, kinds[i] ?? {}, bodyBytes)));
    } finally {
      clearInterval(sample);
    }
    gc?.();
    const after = process.memoryUsage();
    const growth = { rss: Math.max(peak.rss, after.rss) - before.rss, arrayBuffers: Math.max(peak.arrayBuffers, after.arrayBuffers) - before.arrayBuffers };
    const sent = replies.reduce((sum, r) => sum + r.sentBytes, 0);
    console.log(
      `20 × 45 MB unsigned webhook posts: peak growth rss ${(growth.rss / MB).toFixed(1)} MB, arrayBuffers ${(growth.arrayBuffers / MB).toFixed(2)} MB (gc ${gc ? 'exposed' : 'not exposed'}); ` +
        `the clients had written ${(sent / MB).toFixed(1)} MB of 900 MB when refused`,
    );
    for (const res of replies) expectRefusedUnread(res, bodyBytes, 401);
    expect(growth.arrayBuffers).toBeLessThan(8 * MB);
    expect(growth.rss).toBeLessThan(8 * MB);
  });

  it('a valid token but no signature headers, or a timestamp out of tolerance: 401 at once', async () => {
    const bodyBytes = 10 * MB;
    expectRefusedUnread(await upload(address(3), {}, bodyBytes), bodyBytes, 401);
    expectRefusedUnread(await upload(address(3), forgedHeaders(now() - 10 * 60), bodyBytes), bodyBytes, 401);
  });

  it('a valid token and headers with a declared body over 48 MB: 413 at once', async () => {
    const bodyBytes = 49 * MB;
    expectRefusedUnread(await upload(address(3), forgedHeaders(), bodyBytes), bodyBytes, 413);
  });

  it('with no secret configured even a valid token is refused at once', async () => {
    const secret = t.config.replicate.webhookSecret;
    t.config.replicate.webhookSecret = undefined;
    try {
      expectRefusedUnread(await upload(address(3), forgedHeaders(), 10 * MB), 10 * MB, 401);
    } finally {
      t.config.replicate.webhookSecret = secret;
    }
  });

  it('a valid token and headers: the body is read, and the signature over it decides (401 for a forged one)', async () => {
    const body = JSON.stringify({ id: 'p1', status: 'succeeded', output: [] });
    const res = await t.app.inject({ method: 'POST', url: address(3), payload: body, headers: { 'content-type': 'application/json', ...forgedHeaders() } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ status: 'error', code: 'INVALID_SIGNATURE', text: 'Неверная подпись уведомления' });
  });
});
