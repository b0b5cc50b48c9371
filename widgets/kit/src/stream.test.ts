import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineRoute, z } from '@app/contracts';
import { chatEndpoints, type ClientRoute } from '@app/contracts/browser';
import { ApiError, call } from './api.ts';
import { stream } from './stream.ts';

const contract = defineRoute({
  method: 'POST',
  path: '/api/test/stream',
  access: 'user',
  summary: 'test',
  tags: [],
  body: z.object({ text: z.string() }),
  stream: { events: { delta: z.object({ text: z.string() }), done: z.object({ words: z.number() }) } },
  response: z.null(),
});
/** The route as a widget holds it (its endpoint, typed by the contract). */
const route: ClientRoute<typeof contract> = contract;

/** A response whose body arrives in the given pieces (cut anywhere, as the network does). */
function eventStream(pieces: string[], status = 200): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
  return new Response(body, { status, headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
}

function stubFetch(reply: Response | ((init: RequestInit) => Promise<Response>)) {
  const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
    if (url === '/sanctum/csrf-cookie') return new Response(null, { status: 204 });
    return typeof reply === 'function' ? reply(init) : reply;
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe('stream', () => {
  it('delivers typed events in order, whatever the chunk boundaries, and skips heartbeat comments', async () => {
    window.localStorage.setItem('auth_token', 'ns_stream');
    const fetchMock = stubFetch(eventStream(['event: del', 'ta\ndata: {"text":"При', 'вет"}\n\n: ping\n\n', 'event: delta\ndata: {"text":", мир"}\n\nevent: done\ndata: {"words":3}\n\n']));
    const events: unknown[] = [];
    await stream(route, { body: { text: 'hi' } }, { onEvent: (e) => events.push(e) });
    expect(events).toEqual([
      { event: 'delta', data: { text: 'Привет' } },
      { event: 'delta', data: { text: ', мир' } },
      { event: 'done', data: { words: 3 } },
    ]);
    const init = fetchMock.mock.calls.find(([url]) => url === route.path)?.[1];
    expect(init?.headers).toMatchObject({ Accept: 'text/event-stream', Authorization: 'Bearer ns_stream' });
  });

  it('rejects with the server’s message when the stream carries an error event', async () => {
    stubFetch(eventStream(['event: delta\ndata: {"text":"a"}\n\nevent: error\ndata: {"status":"error","text":"Ошибка при выполнении запроса","code":"PROVIDER_FAILED"}\n\n']));
    const events: unknown[] = [];
    const failure = await stream(route, { body: { text: 'x' } }, { onEvent: (e) => events.push(e) }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).message).toBe('Ошибка при выполнении запроса');
    expect((failure as ApiError).code).toBe('PROVIDER_FAILED');
    expect(events).toHaveLength(1);
  });

  it('a refusal before the stream opens is an ApiError with its status and text', async () => {
    stubFetch(new Response(JSON.stringify({ status: 'error', text: 'Недостаточно токенов', code: 'INSUFFICIENT_TOKENS' }), { status: 402, headers: { 'content-type': 'application/json' } }));
    const failure = await stream(route, { body: { text: 'x' } }, { onEvent: () => undefined }).catch((err: unknown) => err);
    expect(failure).toMatchObject({ status: 402, code: 'INSUFFICIENT_TOKENS', message: 'Недостаточно токенов' });
  });

  it('aborting stops the call and rejects with the abort, not a network error', async () => {
    const controller = new AbortController();
    stubFetch(
      (init) =>
        new Promise((_resolve, reject) => {
          // As fetch does: an already aborted signal rejects at once, a later abort when it comes.
          const abort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
          if (init.signal?.aborted) abort();
          init.signal?.addEventListener('abort', abort);
        }),
    );
    const pending = stream(route, { body: { text: 'x' } }, { onEvent: () => undefined, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('multipart calls', () => {
  it('sends the route’s fields and files as one FormData, files under their field names', async () => {
    const fetchMock = stubFetch(new Response(JSON.stringify({ status: 'success', json: { chat_id: 1, message: 'ok', model: 'Демо' } }), { headers: { 'content-type': 'application/json' } }));
    const photo = new File([new Uint8Array([137, 80, 78, 71])], 'кот.png', { type: 'image/png' });
    await call(chatEndpoints.send, { body: { ai_models_id: 3, message: 'Что на фото?', chat_id: 7 }, files: { image_example: photo } });
    const init = fetchMock.mock.calls.find(([url]) => url === chatEndpoints.send.path)?.[1];
    expect(init?.body).toBeInstanceOf(FormData);
    const form = init?.body as FormData;
    expect(form.get('ai_models_id')).toBe('3');
    expect(form.get('message')).toBe('Что на фото?');
    expect(form.get('chat_id')).toBe('7');
    expect((form.get('image_example') as File).name).toBe('кот.png');
    expect(init?.headers).not.toHaveProperty('Content-Type');
  });
});
