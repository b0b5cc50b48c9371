import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

type Handler = (req: RecordedRequest) => { status: number; body: unknown; delayMs?: number };

/** A tiny HTTP server for protocol fakes: records every request, answers through `handler`. */
export class FakeServer {
  readonly requests: RecordedRequest[] = [];
  private readonly server: http.Server;
  url = '';

  private handler: Handler;

  constructor(private readonly defaultHandler: Handler) {
    this.handler = defaultHandler;
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = text;
        }
        const recorded = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
        this.requests.push(recorded);
        const reply = this.handler(recorded);
        setTimeout(() => {
          res.writeHead(reply.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(reply.body));
        }, reply.delayMs ?? 0);
      });
    });
  }

  /** Answers with `handler` until `reset()`. */
  respond(handler: Handler): void {
    this.handler = handler;
  }

  reset(): void {
    this.handler = this.defaultHandler;
    this.requests.length = 0;
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${String((this.server.address() as AddressInfo).port)}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * CloudPayments' server API as its documentation describes it: POST JSON, HTTP Basic
 * `PublicId:ApiSecret` (401 otherwise), replies `{Success, Message, Model}`.
 */
export function fakeCloudPaymentsApi(publicId: string, apiSecret: string): FakeServer {
  const expected = `Basic ${Buffer.from(`${publicId}:${apiSecret}`).toString('base64')}`;
  return new FakeServer((req) => {
    if (req.headers.authorization !== expected) return { status: 401, body: { Success: false, Message: 'Unauthorized' } };
    if (req.method !== 'POST') return { status: 405, body: { Success: false, Message: 'Method not allowed' } };
    if (req.path === '/subscriptions/cancel') {
      const id = (req.body as { Id?: unknown } | undefined)?.Id;
      return typeof id === 'string' && id.startsWith('sc_') ? { status: 200, body: { Success: true, Message: null } } : { status: 200, body: { Success: false, Message: 'Subscription not found' } };
    }
    if (req.path === '/payments/refund') {
      const body = (req.body ?? {}) as { TransactionId?: unknown; Amount?: unknown };
      return typeof body.TransactionId === 'number' && typeof body.Amount === 'number' && body.Amount > 0
        ? { status: 200, body: { Success: true, Message: null, Model: { TransactionId: body.TransactionId + 1 } } }
        : { status: 200, body: { Success: false, Message: 'Invalid refund' } };
    }
    if (req.path === '/test') return { status: 200, body: { Success: true, Message: 'bd6353c3-0ed6-4a65-946f-083664bf8dbd' } };
    return { status: 404, body: { Success: false, Message: 'Not found' } };
  });
}

/** Telegram's Bot API: `/bot<token>/<method>`, replies `{ok, result}` or `{ok: false, error_code, description}`. */
export function fakeTelegramApi(token: string, members: Map<number, { status: string; is_member?: boolean }>): FakeServer {
  return new FakeServer((req) => {
    const match = /^\/bot([^/]+)\/(\w+)/.exec(req.path);
    if (match?.[1] !== token) return { status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } };
    const params = (req.body ?? {}) as Record<string, unknown>;
    switch (match[2]) {
      case 'getChatMember': {
        const member = members.get(Number(params.user_id));
        if (!member) return { status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: user not found' } };
        return { status: 200, body: { ok: true, result: { user: { id: Number(params.user_id), is_bot: false, first_name: 'Тест' }, ...member } } };
      }
      case 'sendMessage':
        return { status: 200, body: { ok: true, result: { message_id: 1, chat: { id: params.chat_id }, text: params.text } } };
      case 'getUpdates':
        return { status: 200, body: { ok: true, result: [] } };
      default:
        return { status: 404, body: { ok: false, error_code: 404, description: 'Not Found' } };
    }
  });
}
