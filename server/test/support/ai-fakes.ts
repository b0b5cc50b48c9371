import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createProviderNetwork, type Lookup, type ProviderNetwork } from '../../src/providers/provider-network.ts';

/** A request as a raw fake saw it: the body as bytes, and parsed when it was JSON. */
export interface RawRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  json: unknown;
  /** Settles when the reply's connection is closed (finished, or dropped by either side). */
  closed: Promise<void>;
}

type RawHandler = (req: RawRequest, res: http.ServerResponse) => void | Promise<void>;

/**
 * Like `FakeServer` in fakes.ts, but the handler writes the reply itself, so a fake can stream
 * (SSE), stall, or destroy the socket halfway. Records every request.
 */
export class RawFakeServer {
  readonly requests: RawRequest[] = [];
  url = '';
  /** Connections accepted so far (a client that keeps its connection alive opens one for many requests). */
  connections = 0;
  private readonly server: http.Server;
  private readonly sockets = new Set<Socket>();

  constructor(handler: RawHandler) {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        let json: unknown;
        if (req.headers['content-type']?.startsWith('application/json')) {
          try {
            json = JSON.parse(body.toString('utf8'));
          } catch {
            json = undefined;
          }
        }
        const closed = new Promise<void>((resolve) => res.on('close', resolve));
        const recorded: RawRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json, closed };
        this.requests.push(recorded);
        Promise.resolve(handler(recorded, res)).catch((e: unknown) => {
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(String(e));
        });
      });
    });
    this.server.on('connection', (socket) => {
      this.connections += 1;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${String((this.server.address() as AddressInfo).port)}`;
    return this.url;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** `127.0.0.1:<port>` of a fake's URL: what a test configures as a key's host and as a private host. */
export const hostOf = (url: string): string => new URL(url).host;

/**
 * The environment that lets provider keys reach fakes on 127.0.0.1, the way a deployment
 * configures an internal provider: each key (when given), its `<VAR>_HOSTS` (its fake's
 * host:port), and every fake's host:port (with `alsoPrivate`) in `PROVIDER_PRIVATE_HOSTS`.
 */
export function fakeProviderEnv(keys: Record<string, { key?: string; url: string }>, alsoPrivate: string[] = []): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, { key, url }] of Object.entries(keys)) {
    if (key !== undefined) env[name] = key;
    env[`${name}_HOSTS`] = hostOf(url);
  }
  env.PROVIDER_PRIVATE_HOSTS = [...new Set([...Object.values(keys).map((k) => hostOf(k.url)), ...alsoPrivate.map(hostOf)])].join(',');
  return env;
}

/** A provider network (as the registry makes one) that reaches these fakes' host:port as configured private hosts, and nothing else private. */
export function networkFor(urls: string[], lookup?: Lookup): ProviderNetwork {
  return createProviderNetwork({ privateHosts: urls.map((u) => ({ host: new URL(u).hostname, port: Number(new URL(u).port) })), ...(lookup ? { lookup } : {}) });
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

/** A 1×1 transparent PNG, what the fake image endpoints answer unless told otherwise. */
export const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** How the fake OpenAI API misbehaves (for every endpoint unless said otherwise). */
export type OpenAiFakeBehaviour =
  | { kind: 'ok' }
  /** 429 with `Retry-After` and OpenAI's error body. */
  | { kind: 'rate_limited'; retryAfterSeconds: number }
  /** `status` with OpenAI's error body (`message`, `code`): a refusal such as the safety system's 400. */
  | { kind: 'refuse'; status: number; message: string; code: string }
  /** 500 with OpenAI's error body; after `times` of them (when given) the fake answers normally again. */
  | { kind: 'server_error'; times?: number }
  /** Sends nothing (not even headers) for `delayMs`, then answers normally. */
  | { kind: 'slow'; delayMs: number }
  /** Streams only: destroys the socket after `afterChunks` content chunks. */
  | { kind: 'broken_stream'; afterChunks: number }
  /** Streams only: after `afterChunks` content chunks sends nothing more, keeping the connection open. */
  | { kind: 'stalled_stream'; afterChunks: number }
  /** Streams only: the whole answer and `[DONE]`, but the reply is never ended (until the client closes the connection). */
  | { kind: 'open_after_done' }
  /** Streams only: the whole answer and `[DONE]`, the reply ended `delayMs` later (in a packet of its own). */
  | { kind: 'end_after_done'; delayMs: number }
  /** Streams only: an `error` object in place of the next chunk (as OpenAI reports failures mid-stream). */
  | { kind: 'stream_error'; afterChunks: number }
  /** Streams this many content chunks, then a `data:` line that is not JSON. */
  | { kind: 'malformed_chunk'; afterChunks: number };

/** The answer the fake chat gives: its pieces become the stream's content chunks. */
export interface FakeChatAnswer {
  pieces: string[];
  finishReason: 'stop' | 'length';
  /** Not always a count: a provider may leave it out or send something else. */
  promptTokens: number | undefined | string;
  completionTokens: number;
  /** A usage chunk (the prompt counted, nothing written yet) before the content, as servers that send running totals do. */
  usageFirst?: boolean;
}

/** A multipart part of an image edit as the fake received it. */
export interface RecordedPart {
  name: string;
  /** Files only. */
  filename?: string;
  /** Files only. */
  type?: string;
  /** A field's text, or a file's bytes. */
  value: string | Buffer;
}

/**
 * A multipart/form-data body split into its parts (RFC 7578): `--boundary` lines, each part's
 * headers, a blank line and its bytes. Parts with a filename keep their bytes, fields become text.
 */
export function parseMultipart(body: Buffer, contentType: string): RecordedPart[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const delimiter = Buffer.from(`--${boundary?.[1] ?? boundary?.[2] ?? ''}`);
  const parts: RecordedPart[] = [];
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString('latin1') === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    // The part sits between the CRLF after this delimiter and the CRLF before the next one.
    const part = body.subarray(start + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    const head = part.subarray(0, split).toString('utf8');
    const value = part.subarray(split + 4);
    const name = /name="([^"]*)"/.exec(head)?.[1] ?? '';
    const filename = /filename="([^"]*)"/.exec(head)?.[1];
    const type = /^content-type:\s*(.+)$/im.exec(head)?.[1]?.trim();
    parts.push(filename === undefined ? { name, value: value.toString('utf8') } : { name, filename, ...(type ? { type } : {}), value: Buffer.from(value) });
    at = next;
  }
  return parts;
}

const openAiError = (message: string, type: string, code: string | null, param: string | null = null) => ({ error: { message, type, param, code } });

/**
 * OpenAI's API as its reference documents it, on 127.0.0.1: `POST /v1/chat/completions`
 * (JSON, or SSE `chat.completion.chunk`s with `choices[].delta`, a last usage chunk when
 * `stream_options.include_usage`, then `data: [DONE]`), `POST /v1/images/generations` (JSON,
 * `data[].b64_json`) and `POST /v1/images/edits` (multipart, recorded part by part), Bearer
 * auth; misbehaves as `behaviour` says.
 */
export class FakeOpenAi {
  readonly server: RawFakeServer;
  behaviour: OpenAiFakeBehaviour = { kind: 'ok' };
  answer: FakeChatAnswer = { pieces: ['Привет', '! Чем', ' помочь?'], finishReason: 'stop', promptTokens: 12, completionTokens: 5 };
  /** What the image endpoints answer with (each of the `n` images). */
  image = TINY_PNG;
  /** The multipart parts of every `/images/edits` request, in order. */
  readonly edits: RecordedPart[][] = [];
  private readonly pending = new Set<NodeJS.Timeout>();

  constructor(readonly apiKey = 'sk-test-fake') {
    this.server = new RawFakeServer((req, res) => this.handle(req, res));
  }

  /** The base URL to give the SDK (`…/v1`). */
  get baseUrl(): string {
    return `${this.server.url}/v1`;
  }

  /** The chat requests so far, each with when its connection closed. */
  get chatRequests(): RawRequest[] {
    return this.server.requests.filter((r) => r.path === '/v1/chat/completions');
  }

  /** The JSON bodies of the chat requests so far. */
  get chatBodies(): Record<string, unknown>[] {
    return this.server.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.json as Record<string, unknown>);
  }

  async start(): Promise<this> {
    await this.server.start();
    return this;
  }

  async stop(): Promise<void> {
    for (const t of this.pending) clearTimeout(t);
    await this.server.stop();
  }

  reset(): void {
    this.behaviour = { kind: 'ok' };
    this.server.requests.length = 0;
    this.edits.length = 0;
  }

  private later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.pending.delete(t);
      fn();
    }, ms);
    this.pending.add(t);
  }

  private async handle(req: RawRequest, res: http.ServerResponse): Promise<void> {
    if (req.headers.authorization !== `Bearer ${this.apiKey}`) {
      sendJson(res, 401, openAiError('Incorrect API key provided: sk-***.', 'invalid_request_error', 'invalid_api_key'));
      return;
    }
    const b = this.behaviour;
    if (b.kind === 'rate_limited') {
      sendJson(res, 429, openAiError('Rate limit reached for requests', 'requests', 'rate_limit_exceeded'), { 'retry-after': String(b.retryAfterSeconds) });
      return;
    }
    if (b.kind === 'refuse') {
      sendJson(res, b.status, openAiError(b.message, 'invalid_request_error', b.code));
      return;
    }
    if (b.kind === 'server_error') {
      if (b.times !== undefined && --b.times <= 0) this.behaviour = { kind: 'ok' };
      sendJson(res, 500, openAiError('The server had an error while processing your request.', 'server_error', null));
      return;
    }
    const answer = () => {
      // A slow reply whose client gave up meanwhile.
      if (res.socket === null || res.socket.destroyed) return;
      if (req.method === 'POST' && req.path === '/v1/chat/completions') this.chat(req, res);
      else if (req.method === 'POST' && req.path === '/v1/images/generations') this.generations(req, res);
      else if (req.method === 'POST' && req.path === '/v1/images/edits') this.imageEdits(req, res);
      else sendJson(res, 404, openAiError(`Invalid URL (${req.method} ${req.path})`, 'invalid_request_error', null));
    };
    if (b.kind === 'slow') this.later(b.delayMs, answer);
    else answer();
  }

  private chat(req: RawRequest, res: http.ServerResponse): void {
    const body = req.json as { model?: unknown; messages?: unknown; stream?: unknown; stream_options?: { include_usage?: unknown } } | undefined;
    if (typeof body?.model !== 'string') return sendJson(res, 400, openAiError('you must provide a model parameter', 'invalid_request_error', null, 'model'));
    if (!Array.isArray(body.messages) || body.messages.length === 0) {
      return sendJson(res, 400, openAiError("Invalid 'messages': empty array.", 'invalid_request_error', 'empty_array', 'messages'));
    }
    const id = `chatcmpl-${randomBytes(6).toString('hex')}`;
    const created = Math.floor(Date.now() / 1000);
    const { pieces, finishReason, promptTokens, completionTokens } = this.answer;
    const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: typeof promptTokens === 'number' ? promptTokens + completionTokens : completionTokens };
    if (body.stream !== true) {
      return sendJson(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: pieces.join(''), refusal: null }, logprobs: null, finish_reason: finishReason }],
        usage,
        system_fingerprint: null,
      });
    }
    const includeUsage = body.stream_options?.include_usage === true;
    const chunk = (delta: Record<string, unknown>, finish: string | null) =>
      `data: ${JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created,
        model: body.model,
        system_fingerprint: null,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
        ...(includeUsage ? { usage: null } : {}),
      })}\n\n`;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.write(chunk({ role: 'assistant', content: '', refusal: null }, null));
    if (includeUsage && this.answer.usageFirst) {
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, system_fingerprint: null, choices: [], usage: { ...usage, completion_tokens: 0 } })}\n\n`);
    }
    const b = this.behaviour;
    const cutAt = b.kind === 'broken_stream' || b.kind === 'stalled_stream' || b.kind === 'stream_error' || b.kind === 'malformed_chunk' ? b.afterChunks : Infinity;
    let sent = 0;
    for (const piece of pieces) {
      if (sent === cutAt) break;
      res.write(chunk({ content: piece }, null));
      sent += 1;
    }
    if (sent === cutAt) {
      if (b.kind === 'broken_stream') res.write('', () => res.socket?.destroy());
      else if (b.kind === 'stream_error') {
        res.end(`data: ${JSON.stringify(openAiError('The model is overloaded.', 'server_error', null))}\n\n`);
      } else if (b.kind === 'malformed_chunk') res.end('data: {"choices": [\n\n');
      // stalled: nothing more is sent until the client gives up.
      return;
    }
    res.write(chunk({}, finishReason));
    if (includeUsage) res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, system_fingerprint: null, choices: [], usage })}\n\n`);
    if (b.kind === 'open_after_done') res.write('data: [DONE]\n\n');
    else if (b.kind === 'end_after_done') res.write('data: [DONE]\n\n', () => this.later(b.delayMs, () => res.end()));
    else res.end('data: [DONE]\n\n');
  }

  private imagesReply(n: number) {
    return {
      created: Math.floor(Date.now() / 1000),
      background: 'opaque',
      output_format: 'png',
      quality: 'medium',
      size: '1024x1024',
      data: Array.from({ length: n }, () => ({ b64_json: this.image.toString('base64') })),
      usage: { input_tokens: 50, output_tokens: 1056 * n, total_tokens: 50 + 1056 * n, input_tokens_details: { image_tokens: 0, text_tokens: 50 } },
    };
  }

  private generations(req: RawRequest, res: http.ServerResponse): void {
    const body = req.json as { prompt?: unknown; n?: unknown } | undefined;
    if (typeof body?.prompt !== 'string' || body.prompt === '') return sendJson(res, 400, openAiError("Missing required parameter: 'prompt'.", 'invalid_request_error', 'missing_required_parameter', 'prompt'));
    sendJson(res, 200, this.imagesReply(typeof body.n === 'number' ? body.n : 1));
  }

  private imageEdits(req: RawRequest, res: http.ServerResponse): void {
    const type = req.headers['content-type'] ?? '';
    if (!type.startsWith('multipart/form-data')) return sendJson(res, 400, openAiError('Expected multipart/form-data', 'invalid_request_error', null));
    const parts = parseMultipart(req.body, type);
    this.edits.push(parts);
    const field = (name: string) => parts.find((p) => p.name === name)?.value;
    if (!parts.some((p) => (p.name === 'image' || p.name === 'image[]') && Buffer.isBuffer(p.value))) {
      return sendJson(res, 400, openAiError("Missing required parameter: 'image'.", 'invalid_request_error', 'missing_required_parameter', 'image'));
    }
    const mask = field('mask');
    if (mask !== undefined && !(Buffer.isBuffer(mask) && mask.subarray(0, 8).equals(TINY_PNG.subarray(0, 8)))) {
      return sendJson(res, 400, openAiError('Invalid mask image format - mask image must be a PNG file.', 'invalid_request_error', 'invalid_image_format', 'mask'));
    }
    const n = Number(field('n') ?? 1);
    sendJson(res, 200, this.imagesReply(Number.isInteger(n) && n > 0 ? n : 1));
  }
}

/** A prediction as the fake Replicate keeps it (its JSON, as the API answers it). */
interface FakePredictionState {
  json: Record<string, unknown> & { id: string; status: string };
  webhook?: string;
  events: string[];
  failWith: string | null;
  step: number;
}

/** A webhook delivery the fake made. */
export interface WebhookDelivery {
  url: string;
  status: number;
  body: string;
}

/**
 * Replicate's HTTP API on 127.0.0.1: `POST /v1/models/{owner}/{name}/predictions`,
 * `POST /v1/predictions {version}`, `GET /v1/predictions/{id}`, `POST /v1/predictions/{id}/cancel`,
 * `GET /v1/webhooks/default/secret`, `GET /v1/account`, Bearer auth, output files under `/files/`. A prediction
 * moves one step on each poll (or on `advance`): starting → processing (tqdm logs 0%, then 50%)
 * → succeeded (or failed with `failWith`). With a webhook it POSTs the prediction, signed with
 * `webhookSecret` the Standard Webhooks way, for the events in its `webhook_events_filter`.
 */
export class FakeReplicate {
  readonly server: RawFakeServer;
  readonly webhookSecret = `whsec_${randomBytes(24).toString('base64')}`;
  readonly predictions = new Map<string, FakePredictionState>();
  readonly deliveries: WebhookDelivery[] = [];
  /** Predictions created while this is set fail with it as their error. */
  failWith: string | null = null;
  /** Whether each GET moves the prediction one step (otherwise only `advance` does). */
  advanceOnPoll = true;
  /** Answers every API call with 429 (`Retry-After`) or 500 while set. */
  outage: { status: 429 | 500; retryAfterSeconds?: number } | null = null;
  /** The bytes of every output file. */
  fileBytes: Buffer = Buffer.from('fake mp4 bytes');
  /** The `content-type` output files are served with. */
  fileType = 'video/mp4';
  /** Serve output files without `content-length` (chunked), so a client must count. */
  chunkedFiles = false;
  private readonly inFlight = new Set<Promise<void>>();
  private counter = 0;

  constructor(readonly apiToken = 'r8_test_fake') {
    this.server = new RawFakeServer((req, res) => this.handle(req, res));
  }

  get baseUrl(): string {
    return this.server.url;
  }

  async start(): Promise<this> {
    await this.server.start();
    return this;
  }

  async stop(): Promise<void> {
    await this.flushWebhooks();
    await this.server.stop();
  }

  /** Waits for the webhook deliveries under way. */
  async flushWebhooks(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }

  /**
   * Signs a webhook body the way Replicate does: `v1,` + base64 HMAC-SHA256 of
   * `${id}.${timestamp}.${body}` keyed with the base64-decoded secret after `whsec_`.
   */
  static sign(secret: string, id: string, timestamp: number, body: string): string {
    const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    return `v1,${createHmac('sha256', key).update(`${id}.${String(timestamp)}.${body}`).digest('base64')}`;
  }

  /** Moves a prediction one step on, sending the webhooks its filter asks for. */
  advance(id: string): void {
    const p = this.predictions.get(id);
    if (!p || ['succeeded', 'failed', 'canceled'].includes(p.json.status)) return;
    p.step += 1;
    const now = new Date().toISOString();
    if (p.step === 1) {
      Object.assign(p.json, { status: 'processing', started_at: now, logs: '  0%|          | 0/10 [00:00<?, ?it/s]\n' });
      this.notify(p, 'start');
    } else if (p.step === 2) {
      p.json.logs = `${String(p.json.logs)} 50%|█████     | 5/10 [00:02<00:02, 2.50it/s]\n`;
      this.notify(p, 'logs');
    } else if (p.failWith !== null) {
      Object.assign(p.json, { status: 'failed', error: p.failWith, completed_at: now });
      this.notify(p, 'completed');
    } else {
      Object.assign(p.json, {
        status: 'succeeded',
        output: [`${this.baseUrl}/files/${id}/output.mp4`],
        logs: `${String(p.json.logs)}100%|██████████| 10/10 [00:04<00:00, 2.50it/s]\n`,
        completed_at: now,
        metrics: { predict_time: 4.2 },
      });
      this.notify(p, 'completed');
    }
  }

  private notify(p: FakePredictionState, event: string): void {
    if (!p.webhook || !p.events.includes(event)) return;
    const url = p.webhook;
    const body = JSON.stringify(p.json);
    const id = `msg_${randomBytes(12).toString('hex')}`;
    const timestamp = Math.floor(Date.now() / 1000);
    const delivery = fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': FakeReplicate.sign(this.webhookSecret, id, timestamp, body),
      },
      body,
    })
      .then(async (res) => {
        await res.body?.cancel();
        this.deliveries.push({ url, status: res.status, body });
      })
      .catch(() => {
        this.deliveries.push({ url, status: 0, body });
      });
    this.inFlight.add(delivery);
    void delivery.finally(() => this.inFlight.delete(delivery));
  }

  private create(req: RawRequest, res: http.ServerResponse, model: string | null): void {
    const body = req.json as { version?: unknown; input?: unknown; webhook?: unknown; webhook_events_filter?: unknown } | undefined;
    if (!body || typeof body.input !== 'object' || body.input === null) {
      return sendJson(res, 422, { title: 'Input validation failed', detail: '- input: input is required', status: 422 });
    }
    if (model === null && (typeof body.version !== 'string' || !/^[0-9a-f]{16,128}$/.test(body.version))) {
      return sendJson(res, 422, { title: 'Invalid version or not permitted', detail: 'The specified version does not exist (or perhaps you do not have permission to use it?)', status: 422 });
    }
    this.counter += 1;
    const id = `fake${String(this.counter).padStart(4, '0')}${randomBytes(4).toString('hex')}`;
    const webhook = typeof body.webhook === 'string' ? body.webhook : undefined;
    const events = Array.isArray(body.webhook_events_filter) ? body.webhook_events_filter.map(String) : ['start', 'output', 'logs', 'completed'];
    const json = {
      id,
      model: model ?? 'owner/versioned-model',
      version: typeof body.version === 'string' ? body.version : 'hidden',
      input: body.input,
      logs: '',
      output: null,
      data_removed: false,
      error: null,
      status: 'starting',
      created_at: new Date().toISOString(),
      urls: { cancel: `${this.baseUrl}/v1/predictions/${id}/cancel`, get: `${this.baseUrl}/v1/predictions/${id}`, web: `https://replicate.com/p/${id}` },
      ...(webhook ? { webhook, webhook_events_filter: events } : {}),
    };
    this.predictions.set(id, { json, ...(webhook ? { webhook } : {}), events, failWith: this.failWith, step: 0 });
    sendJson(res, 201, json);
  }

  private handle(req: RawRequest, res: http.ServerResponse): void {
    const path = req.path.split('?')[0] ?? '';
    const file = /^\/files\/([^/]+)\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && file) {
      if (!this.predictions.has(file[1] ?? '')) return sendJson(res, 404, { detail: 'Not found.', status: 404 });
      res.writeHead(200, { 'content-type': this.fileType, ...(this.chunkedFiles ? {} : { 'content-length': String(this.fileBytes.length) }) });
      res.end(this.fileBytes);
      return;
    }
    if (req.headers.authorization !== `Bearer ${this.apiToken}`) {
      return sendJson(res, 401, { title: 'Unauthenticated', detail: 'You did not pass a valid authentication token', status: 401 });
    }
    if (this.outage) {
      const retry: Record<string, string> = this.outage.retryAfterSeconds === undefined ? {} : { 'retry-after': String(this.outage.retryAfterSeconds) };
      const title = this.outage.status === 429 ? 'Request was throttled' : 'Internal Server Error';
      return sendJson(res, this.outage.status, { title, detail: title, status: this.outage.status }, retry);
    }
    const byModel = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(path);
    if (req.method === 'POST' && byModel) return this.create(req, res, `${byModel[1] ?? ''}/${byModel[2] ?? ''}`);
    if (req.method === 'POST' && path === '/v1/predictions') return this.create(req, res, null);
    if (req.method === 'GET' && path === '/v1/webhooks/default/secret') return sendJson(res, 200, { key: this.webhookSecret });
    if (req.method === 'GET' && path === '/v1/account') return sendJson(res, 200, { type: 'user', username: 'fake-owner', name: 'Fake Owner', github_url: null });
    const one = /^\/v1\/predictions\/([^/]+)(\/cancel)?$/.exec(path);
    const p = one ? this.predictions.get(one[1] ?? '') : undefined;
    if (!one || !p) return sendJson(res, 404, { detail: 'Not found.', status: 404 });
    if (req.method === 'GET' && !one[2]) {
      if (this.advanceOnPoll) this.advance(p.json.id);
      return sendJson(res, 200, p.json);
    }
    if (req.method === 'POST' && one[2]) {
      if (!['succeeded', 'failed', 'canceled'].includes(p.json.status)) {
        Object.assign(p.json, { status: 'canceled', completed_at: new Date().toISOString() });
        this.notify(p, 'completed');
      }
      return sendJson(res, 200, p.json);
    }
    sendJson(res, 405, { detail: 'Method not allowed', status: 405 });
  }
}

/** A receiver of webhooks for tests: records each request's headers and raw body, answers 200. */
export async function startWebhookReceiver(): Promise<{ url: string; received: RawRequest[]; stop: () => Promise<void> }> {
  const server = new RawFakeServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
  });
  const url = await server.start();
  return { url: `${url}/webhooks/replicate`, received: server.requests, stop: () => server.stop() };
}
