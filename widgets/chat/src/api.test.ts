import { afterEach, describe, expect, it, vi } from 'vitest';
import { chatEndpoints } from '@app/contracts/browser';
import { chatApi } from './api.ts';

const done = 'event: start\ndata: {"chat_id":1,"message_id":2,"model":"Демо","user_message_id":1}\n\nevent: done\ndata: {}\n\n';

function stubFetch() {
  const fetchMock = vi.fn(async (url: string, _init?: RequestInit) => {
    if (url === '/sanctum/csrf-cookie') return new Response(null, { status: 204 });
    return new Response(done, { headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return () => fetchMock.mock.calls.find(([url]) => url === chatEndpoints.sendStream.path)?.[1] as unknown as RequestInit & { headers: Record<string, string> };
}

afterEach(() => vi.unstubAllGlobals());

describe('a streamed send', () => {
  it('goes as JSON without pictures (an empty file field included)', async () => {
    const sent = stubFetch();
    const events: string[] = [];
    await chatApi.send({ body: { ai_models_id: 3, message: 'Привет', chat_id: 7 }, files: { image_example: undefined } }, { onEvent: (e) => events.push(e.event) });
    expect(events).toEqual(['start', 'done']);
    expect(sent().headers['Content-Type']).toBe('application/json');
    expect(JSON.parse(sent().body as string)).toEqual({ ai_models_id: 3, message: 'Привет', chat_id: 7 });
  });

  it('goes as multipart with a picture, the picture under its field', async () => {
    const sent = stubFetch();
    const photo = new File([new Uint8Array([137, 80, 78, 71])], 'кот.png', { type: 'image/png' });
    await chatApi.send({ body: { ai_models_id: 3, message: 'Что на фото?' }, files: { image_example: undefined, image_example_2: photo } }, { onEvent: () => undefined });
    const form = sent().body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect(form.get('message')).toBe('Что на фото?');
    expect((form.get('image_example_2') as File).name).toBe('кот.png');
    expect(sent().headers).not.toHaveProperty('Content-Type');
  });
});
