import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { Dispatcher } from 'undici';
import { errorFromStatus } from './provider-http.ts';
import type { ProviderRequest } from './provider-network.ts';
import { ProviderError } from './types.ts';

/** One `chat.completion.chunk` of a streamed answer, as far as the adapter reads it. */
export interface StreamedChunk {
  choices?: { index?: number; finish_reason?: string | null; delta?: { content?: string | null } }[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null;
  error?: unknown;
}

/** What a streamed chat call sends: where, with which headers and body. */
export interface StreamCall {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal;
  request: ProviderRequest;
  /** Names the call in errors: `chat gpt-4o (stream)`. */
  what: string;
}

/** The provider's own words in an OpenAI-style error body (`error.message`, or `error` itself when a server sends a string). */
export function providerMessage(error: unknown): string | undefined {
  if (typeof error === 'string') return error;
  const message = (error as { message?: unknown } | null | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

/** A reply's headers as a `Headers` (undici's `request` gives an object, a repeated header as an array). */
function headersOf(raw: Dispatcher.ResponseData['headers']): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  return headers;
}

/** The error for a non-2xx reply: its status, `Retry-After`, and the provider's message from a JSON body. */
async function statusError(res: Dispatcher.ResponseData, what: string): Promise<ProviderError> {
  const text = await res.body.text().catch(() => '');
  let said: string | undefined;
  try {
    said = providerMessage((JSON.parse(text) as { error?: unknown } | null)?.error);
  } catch {
    said = undefined;
  }
  return errorFromStatus(res.statusCode, headersOf(res.headers), what, said ?? text, { providerMessage: said });
}

/**
 * How long what follows `[DONE]` (normally only the end of the body, in the same packet) may take
 * to come before the connection is closed instead of kept for the next call.
 */
const REST_AFTER_DONE_MS = 1000;

/**
 * A streamed Chat Completions call (`stream: true`) read with undici's `request` and
 * eventsource-parser: the chunks as the server sends them, until `data: [DONE]` or the end of the
 * body. The official SDK serves every other call; on this path, once per chat message, its
 * request building and stream classes cost about half a millisecond a message, and fetch's web
 * streams and Request/Response objects about as much again (both measured in the chat bench);
 * the protocol is small: Server-Sent Events whose `data` is a chunk, an `{"error": …}` object, or
 * `[DONE]`. Errors are the SDK's, mapped as the adapter maps them: a status other than 2xx before
 * the stream (a redirect is not followed), an error object inside it (`unavailable`), malformed
 * JSON (`invalid_response`); the connection's own failures (refused, aborted) are thrown as they
 * come for the caller to map.
 *
 * At `[DONE]` the answer is complete and the generator ends at once; the body is still read to
 * its end behind it ({@link keepConnection}), so the connection serves the provider's next call
 * even when the reply's end comes in a packet of its own (cancelled there, the body took the
 * connection with it: a new TCP and TLS handshake for the next message).
 */
export async function* streamChunks(call: StreamCall): AsyncGenerator<StreamedChunk> {
  const res = await call.request(call.url, {
    method: 'POST',
    headers: { ...call.headers, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(call.body),
    signal: call.signal,
  });
  if (res.statusCode < 200 || res.statusCode > 299) throw await statusError(res, call.what);
  const queue: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => queue.push(message) });
  const decoder = new TextDecoder();
  const pieces = (res.body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  let complete = false;
  try {
    for (let read = await pieces.next(); read.done !== true; read = await pieces.next()) {
      parser.feed(decoder.decode(read.value, { stream: true }));
      while (queue.length > 0) {
        const message = queue.shift() as EventSourceMessage;
        if (message.data.startsWith('[DONE]')) {
          complete = true;
          keepConnection(res.body, pieces);
          return;
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(message.data);
        } catch (e) {
          throw new ProviderError('invalid_response', `${call.what}: malformed chunk (${(e as Error).message})`, { cause: e });
        }
        if (typeof parsed !== 'object' || parsed === null) throw new ProviderError('invalid_response', `${call.what}: a chunk that is not an object`);
        const chunk = parsed as StreamedChunk;
        if (message.event === 'error' || chunk.error) {
          const said = providerMessage(chunk.error) ?? providerMessage(chunk);
          throw new ProviderError('unavailable', `${call.what}: the provider reported an error in the stream${said ? ` (${said.slice(0, 300)})` : ''}`, said ? { providerMessage: said } : {});
        }
        yield chunk;
      }
    }
  } finally {
    // Left before `[DONE]` (an error, or the caller stopped): the body is cancelled, which closes the connection.
    if (!complete) await pieces.return?.();
  }
}

/**
 * Reads the rest of a body after `[DONE]` and drops it: a body read to its end leaves its
 * connection to the pool. One still open after {@link REST_AFTER_DONE_MS} (a server that does not
 * end its reply) is destroyed, closing the connection; its error is nobody's, the answer is whole.
 */
function keepConnection(body: Dispatcher.ResponseData['body'], pieces: AsyncIterator<Buffer>): void {
  const timer = setTimeout(() => body.destroy(), REST_AFTER_DONE_MS);
  timer.unref();
  void (async () => {
    while ((await pieces.next()).done !== true) continue;
  })()
    .catch(() => undefined)
    .finally(() => clearTimeout(timer));
}
