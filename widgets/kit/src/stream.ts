import { createParser } from 'eventsource-parser';
import { UNKNOWN_ERROR_MESSAGE, type ClientRoute, type RequestOf, type RouteContract, type StreamEventOf, type StreamSpec } from '@app/contracts/browser';
import { ApiError, failure, send } from './api.ts';

export interface StreamOptions<R extends RouteContract> {
  /** Each event as it arrives, typed from the route's contract. */
  onEvent: (event: StreamEventOf<R>) => void;
  /** Aborting stops reading and closes the connection (the server learns it through its own signal). */
  signal?: AbortSignal;
}

/**
 * Calls a `stream` route and delivers its Server-Sent Events as they arrive. Over fetch, not
 * EventSource, because EventSource cannot send the bearer token (or a body). A failure before
 * the stream opens rejects with its ApiError (status and message, as `call` would); an `error`
 * event rejects with the ApiError it carries; the promise resolves when the server ends the stream.
 */
export async function stream<R extends RouteContract & { stream: StreamSpec }>(route: ClientRoute<R>, request: RequestOf<R>, options: StreamOptions<R>): Promise<void> {
  const res = await send(route, request, { accept: 'text/event-stream', signal: options.signal });
  if (!res.ok || !res.headers.get('content-type')?.includes('text/event-stream')) throw await failure(res);
  if (!res.body) throw new ApiError(res.status, undefined, UNKNOWN_ERROR_MESSAGE);
  // Set from the parser's callback: read after each chunk.
  const state: { failed: ApiError | null } = { failed: null };
  const parser = createParser({
    onEvent: (message) => {
      if (state.failed) return;
      let data: unknown;
      try {
        data = JSON.parse(message.data);
      } catch {
        state.failed = new ApiError(res.status, undefined, UNKNOWN_ERROR_MESSAGE);
        return;
      }
      if (message.event === 'error') {
        const envelope = (data ?? {}) as { text?: unknown; code?: unknown };
        state.failed = new ApiError(500, typeof envelope.code === 'string' ? envelope.code : undefined, envelope.text ?? UNKNOWN_ERROR_MESSAGE);
        return;
      }
      options.onEvent({ event: message.event ?? 'message', data } as StreamEventOf<R>);
    },
  });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(value);
      if (state.failed) break;
    }
  } catch (err) {
    if (options.signal?.aborted) throw err;
    throw new ApiError(0, 'NETWORK', 'Соединение прервалось. Проверьте интернет и попробуйте снова');
  } finally {
    // An error event ends the call: close the connection rather than read the rest.
    if (state.failed) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  if (state.failed) throw state.failed;
}
