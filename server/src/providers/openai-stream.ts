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
  let done = false;
  // Leaving this loop early (at `[DONE]`, on an error, or when the caller stops) cancels the body,
  // which closes the connection.
  for await (const bytes of res.body as AsyncIterable<Buffer>) {
    parser.feed(decoder.decode(bytes, { stream: true }));
    while (queue.length > 0) {
      const message = queue.shift() as EventSourceMessage;
      if (message.data.startsWith('[DONE]')) {
        done = true;
        break;
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
    if (done) break;
  }
}
