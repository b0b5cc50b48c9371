import type { FastifyReply } from 'fastify';
import type { StreamSpec, z } from '@app/contracts';
import { eventSerializer } from './serializer.ts';

/** What a stream route's handler writes to. */
export interface SseSink<S extends StreamSpec> {
  /** Sends one event, serialized by the event's schema (and checked against it outside production). */
  send<K extends keyof S['events'] & string>(event: K, data: z.input<S['events'][K]>): void;
  /** Aborts when the client goes away (or the server closes): stop the work, keep what must be kept. */
  readonly signal: AbortSignal;
  /** Whether the stream has been opened (its first event went out). */
  readonly opened: boolean;
}

/**
 * A Server-Sent Events response. The stream opens at the first event, so a failure before it is
 * still answered as a normal error reply (a status and the envelope); after it, as an `error`
 * event. A comment line every `heartbeatSeconds` keeps it open; the client going away aborts
 * `signal`.
 */
export class SseStream<S extends StreamSpec> implements SseSink<S> {
  private readonly controller = new AbortController();
  private heartbeat: NodeJS.Timeout | null = null;
  private isOpen = false;
  private ended = false;

  constructor(
    private readonly reply: FastifyReply,
    private readonly spec: S,
    private readonly heartbeatSeconds: number,
    private readonly checkWithZod: boolean,
  ) {
    // The response closes when the connection does: before the end we wrote, the client left.
    reply.raw.on('close', () => {
      if (!this.ended) this.controller.abort(new Error('the client closed the stream'));
      this.stopHeartbeat();
    });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get opened(): boolean {
    return this.isOpen;
  }

  private open(): void {
    if (this.isOpen) return;
    this.isOpen = true;
    this.reply.hijack();
    const headers: Record<string, string | number | string[]> = {};
    for (const [name, value] of Object.entries(this.reply.getHeaders())) if (value !== undefined) headers[name] = value;
    this.reply.raw.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      // Proxies (nginx) must pass events through as they come.
      'x-accel-buffering': 'no',
    });
    this.reply.raw.flushHeaders();
    this.heartbeat = setInterval(() => this.write(': ping\n\n'), this.heartbeatSeconds * 1000);
    this.heartbeat.unref();
  }

  private write(chunk: string): void {
    if (this.ended || this.reply.raw.destroyed) return;
    this.reply.raw.write(chunk);
  }

  send<K extends keyof S['events'] & string>(event: K, data: z.input<S['events'][K]>): void {
    const schema = this.spec.events[event];
    if (!schema) throw new Error(`stream event ${event} is not in the route's contract`);
    const json = eventSerializer(schema, this.checkWithZod)(data);
    this.open();
    this.write(`event: ${event}\ndata: ${json}\n\n`);
  }

  /** Sends the error envelope as an `error` event (the stream is already open). */
  fail(envelope: { status: 'error'; text: unknown; code?: string }): void {
    this.open();
    this.write(`event: error\ndata: ${JSON.stringify(envelope)}\n\n`);
  }

  /** Gives the stream up before it opened: the failure goes out as an ordinary error reply. */
  discard(): void {
    this.ended = true;
    this.stopHeartbeat();
  }

  end(): void {
    if (this.ended) return;
    if (!this.isOpen && !this.reply.raw.destroyed) this.open();
    this.ended = true;
    this.stopHeartbeat();
    if (!this.reply.raw.destroyed) this.reply.raw.end();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }
}
