import { Agent, request } from 'undici';
import { multipart, type Part } from '@app/server/testing';

/**
 * The load test's HTTP side: every request of every simulated user goes through nginx and is
 * recorded as a sample (its kind, when it started and ended, how it ended). Each user has its
 * own connections from its own loopback address (127.0.x.y), as different people's browsers
 * would, so per-address limits see different people.
 */

/** `ok`: 2xx (a stream: its `done`); `refused`: an answer the scenario expects at times (too few tokens, not cancellable…); `error`: anything else. */
export type Outcome = 'ok' | 'refused' | 'error';

export interface Sample {
  kind: string;
  /** Milliseconds since the recorder's origin (the start of the load phase). */
  start: number;
  end: number;
  outcome: Outcome;
  /** For refusals and errors: the status and code (`503 DATABASE_UNAVAILABLE`), the stream's error event or the network error. */
  detail: string;
}

export class Recorder {
  readonly samples: Sample[] = [];
  private origin = performance.now();

  /** Times count from now on (the load phase starts). */
  restart(): void {
    const shift = performance.now() - this.origin;
    for (const s of this.samples) {
      s.start -= shift;
      s.end -= shift;
    }
    this.origin = performance.now();
  }

  now(): number {
    return performance.now() - this.origin;
  }

  add(sample: Sample): void {
    this.samples.push(sample);
  }
}

/** The service's reply envelope. */
export interface Envelope {
  status?: string;
  json?: unknown;
  code?: string | number;
  text?: unknown;
}

export interface Reply {
  status: number;
  body: Envelope;
  headers: Record<string, string | string[] | undefined>;
}

export interface CallOptions {
  /** A JSON body. */
  json?: unknown;
  /** A multipart body (text fields and files). */
  parts?: Part[];
  /** A raw body with its headers (a signed notification). */
  raw?: { body: string; headers: Record<string, string> };
  /** Codes (or statuses) answered at times by design: recorded as `refused`, not errors. */
  expect?: (string | number)[];
  /** Send without the user's token (a guest, a webhook). */
  anonymous?: boolean;
  headers?: Record<string, string>;
}

const REQUEST_TIMEOUT_MS = 60_000;

/** A network failure's code (`ECONNRESET`, `UND_ERR_SOCKET`…), or its message. */
export const networkDetail = (err: unknown): string => {
  const e = err as { code?: unknown; cause?: { code?: unknown }; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : typeof e.cause?.code === 'string' ? e.cause.code : null;
  return `network ${code ?? String(e.message)}`;
};

const outcomeOf = (status: number, code: unknown, expect: (string | number)[] = []): Outcome =>
  status >= 200 && status < 300 ? 'ok' : expect.includes(status) || (typeof code === 'string' && expect.includes(code)) ? 'refused' : 'error';

/** One simulated person's HTTP client. */
export class Client {
  private readonly agent: Agent;
  token: string | null = null;

  constructor(
    private readonly base: string,
    localAddress: string,
    private readonly recorder: Recorder,
  ) {
    this.agent = new Agent({ localAddress, headersTimeout: REQUEST_TIMEOUT_MS, bodyTimeout: REQUEST_TIMEOUT_MS, keepAliveTimeout: 4_000 });
  }

  private headers(opts: CallOptions): Record<string, string> {
    const headers: Record<string, string> = { ...opts.headers };
    if (this.token && !opts.anonymous) headers.authorization = `Bearer ${this.token}`;
    return headers;
  }

  private body(opts: CallOptions, headers: Record<string, string>): string | Buffer | undefined {
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      return JSON.stringify(opts.json);
    }
    if (opts.parts) {
      const body = multipart(opts.parts);
      Object.assign(headers, body.headers);
      return body.payload;
    }
    if (opts.raw) {
      Object.assign(headers, opts.raw.headers);
      return opts.raw.body;
    }
    return undefined;
  }

  /** One request, recorded as `kind`; null when it failed on the network. */
  async call(kind: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, opts: CallOptions = {}): Promise<Reply | null> {
    const headers = this.headers(opts);
    const body = this.body(opts, headers);
    const start = this.recorder.now();
    try {
      const res = await request(`${this.base}${path}`, { method, headers, body, dispatcher: this.agent, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      const text = await res.body.text();
      let envelope: Envelope = {};
      try {
        envelope = JSON.parse(text) as Envelope;
      } catch {
        envelope = { text };
      }
      const outcome = outcomeOf(res.statusCode, envelope.code, opts.expect);
      this.recorder.add({ kind, start, end: this.recorder.now(), outcome, detail: outcome === 'ok' ? '' : `${String(res.statusCode)} ${String(envelope.code ?? '')}`.trim() });
      return { status: res.statusCode, body: envelope, headers: res.headers };
    } catch (err) {
      this.recorder.add({ kind, start, end: this.recorder.now(), outcome: 'error', detail: networkDetail(err) });
      return null;
    }
  }

  /**
   * A Server-Sent Events request (multipart body), its events handed to `onEvent` as they come;
   * recorded as `kind` from the request to the stream's end: `ok` once `done` came.
   */
  async stream(kind: string, path: string, parts: Part[], onEvent: (event: string, data: unknown) => void, expect: string[] = []): Promise<'done' | 'failed'> {
    const headers = this.headers({});
    const body = this.body({ parts }, headers);
    const start = this.recorder.now();
    const record = (outcome: Outcome, detail: string) => this.recorder.add({ kind, start, end: this.recorder.now(), outcome, detail });
    try {
      const res = await request(`${this.base}${path}`, { method: 'POST', headers, body, dispatcher: this.agent, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      if (res.statusCode !== 200 || !String(res.headers['content-type']).startsWith('text/event-stream')) {
        const text = await res.body.text();
        let code: string | number | undefined;
        try {
          code = (JSON.parse(text) as Envelope).code;
        } catch {
          code = undefined;
        }
        record(outcomeOf(res.statusCode, code, expect), `${String(res.statusCode)} ${code === undefined ? '' : String(code)}`.trim());
        return 'failed';
      }
      let buffer = '';
      let ended: { outcome: Outcome; detail: string } | null = null;
      for await (const chunk of res.body) {
        buffer += (chunk as Buffer).toString('utf8');
        let split = buffer.indexOf('\n\n');
        while (split >= 0) {
          const block = buffer.slice(0, split);
          buffer = buffer.slice(split + 2);
          split = buffer.indexOf('\n\n');
          if (block.startsWith(':')) continue;
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
          const raw = /^data: (.*)$/m.exec(block)?.[1];
          const data: unknown = raw === undefined ? undefined : JSON.parse(raw);
          if (event === 'done') ended = { outcome: 'ok', detail: '' };
          if (event === 'error') {
            const code = (data as Envelope | undefined)?.code;
            ended = { outcome: outcomeOf(500, code, expect), detail: `event ${String(code ?? '')}` };
          }
          onEvent(event, data);
        }
      }
      const outcome = ended ?? { outcome: 'error' as const, detail: 'stream ended without done' };
      record(outcome.outcome, outcome.detail);
      return outcome.outcome === 'ok' ? 'done' : 'failed';
    } catch (err) {
      record('error', networkDetail(err));
      return 'failed';
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** The loopback address of the `n`th simulated person: 127.0.1.1, 127.0.1.2, … (nginx sees it as the client's address). */
export const addressOf = (n: number): string => `127.0.${String(1 + Math.floor(n / 250))}.${String(1 + (n % 250))}`;
