import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** When the fake provider handled one chat request, by `performance.now()` of the bench process. */
export interface ProviderTiming {
  /** The request's headers arrived. */
  received: number;
  /** The first content chunk was written. */
  firstChunk: number;
  /** The response ended. */
  ended: number;
}

/**
 * An OpenAI-compatible streaming chat endpoint for the chat bench, in the bench's own process so
 * its clock is the client's: it answers `pieces` content chunks `gapMs` apart, then the usage
 * chunk and `[DONE]`, and records when it received the request, wrote the first chunk and ended.
 */
export class TimedFakeProvider {
  readonly timings: ProviderTiming[] = [];
  private readonly server: http.Server;
  baseUrl = '';

  constructor(
    readonly apiKey: string,
    private readonly pieces: readonly string[],
    private readonly gapMs: number,
  ) {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    this.server.keepAliveTimeout = 60_000;
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${String((this.server.address() as AddressInfo).port)}/v1`;
    return this.baseUrl;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const received = performance.now();
    for await (const _chunk of req) continue;
    if (req.headers.authorization !== `Bearer ${this.apiKey}` || req.url !== '/v1/chat/completions') {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'bad key or path', type: 'invalid_request_error', param: null, code: null } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (delta: Record<string, unknown>, finish: string | null, usage?: Record<string, number>) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'bench', choices: usage ? [] : [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
    let firstChunk = 0;
    for (const [i, piece] of this.pieces.entries()) {
      if (i > 0) await new Promise((r) => setTimeout(r, this.gapMs));
      res.write(chunk(i === 0 ? { role: 'assistant', content: piece } : { content: piece }, null));
      if (i === 0) firstChunk = performance.now();
    }
    res.write(chunk({}, 'stop'));
    res.write(chunk({}, null, { prompt_tokens: 40, completion_tokens: this.pieces.length, total_tokens: 40 + this.pieces.length }));
    res.end('data: [DONE]\n\n');
    this.timings.push({ received, firstChunk, ended: performance.now() });
  }
}
