import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { OpenAiProvider } from '../../src/providers/openai.provider.ts';
import { ProviderError, type ChatEvent, type ChatRequest } from '../../src/providers/types.ts';
import type { ProviderNetwork } from '../../src/providers/provider-network.ts';
import { FakeOpenAi, TINY_PNG, networkFor } from '../support/ai-fakes.ts';

let fake: FakeOpenAi;
let provider: OpenAiProvider;
/** Reaches the fake as a configured private host. */
let network: ProviderNetwork;

beforeAll(async () => {
  fake = await new FakeOpenAi().start();
  network = networkFor([fake.baseUrl]);
  provider = new OpenAiProvider({ network, baseUrl: fake.baseUrl, apiKey: fake.apiKey, timeoutMs: 1500, streamIdleTimeoutMs: 300 });
});
afterAll(async () => {
  await fake.stop();
  await network.close();
});
beforeEach(() => fake.reset());

const request = (over: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', text: 'Отвечай кратко.' },
    { role: 'user', text: 'Привет!' },
  ],
  maxOutputTokens: 256,
  ...over,
});

async function collect(events: AsyncIterable<ChatEvent>): Promise<ChatEvent[]> {
  const out: ChatEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

async function failure(run: () => Promise<unknown>): Promise<ProviderError> {
  try {
    await run();
  } catch (e) {
    expect(e).toBeInstanceOf(ProviderError);
    return e as ProviderError;
  }
  throw new Error('expected a ProviderError');
}

const texts = (events: ChatEvent[]) => events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');

describe('chat', () => {
  test('non-streaming: the text, the usage and the finish reason; the request as OpenAI expects it', async () => {
    const png = TINY_PNG;
    const answer = await provider.completeChat(
      request({
        temperature: 0.3,
        params: { top_p: 0.9, seed: 7 },
        messages: [
          { role: 'system', text: 'Отвечай кратко.' },
          { role: 'user', text: 'Что на картинке?', images: [{ mime: 'image/png', data: png }] },
        ],
      }),
    );
    expect(answer).toEqual({ text: 'Привет! Чем помочь?', usage: { inputTokens: 12, outputTokens: 5 }, finishReason: 'stop' });
    const [body] = fake.chatBodies;
    expect(body).toMatchObject({ model: 'gpt-4o-mini', stream: false, max_completion_tokens: 256, temperature: 0.3, top_p: 0.9, seed: 7 });
    expect(body?.messages).toEqual([
      { role: 'system', content: 'Отвечай кратко.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Что на картинке?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
        ],
      },
    ]);
    expect(fake.server.requests[0]?.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
  });

  test('streaming: deltas, then the usage of the last chunk, then done; equal to the non-streaming text', async () => {
    const events = await collect(provider.streamChat(request()));
    expect(events).toEqual([
      { type: 'delta', text: 'Привет' },
      { type: 'delta', text: '! Чем' },
      { type: 'delta', text: ' помочь?' },
      { type: 'usage', inputTokens: 12, outputTokens: 5 },
      { type: 'done', finishReason: 'stop' },
    ]);
    expect(fake.chatBodies[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(texts(events)).toBe((await provider.completeChat(request())).text);
  });

  test('a length finish reason and the max_tokens field for servers that want it', async () => {
    fake.answer = { pieces: ['Очень', ' длинный'], finishReason: 'length', promptTokens: 3, completionTokens: 2 };
    const legacy = new OpenAiProvider({ network, baseUrl: fake.baseUrl, apiKey: fake.apiKey, maxTokensParam: 'max_tokens' });
    const events = await collect(legacy.streamChat(request({ maxOutputTokens: 2 })));
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'length' });
    expect(fake.chatBodies[0]).toMatchObject({ max_tokens: 2 });
    expect(fake.chatBodies[0]).not.toHaveProperty('max_completion_tokens');
    fake.answer = { pieces: ['Привет', '! Чем', ' помочь?'], finishReason: 'stop', promptTokens: 12, completionTokens: 5 };
  });

  test('429 is rate_limited, retryable, with the Retry-After delay; the SDK does not retry by itself', async () => {
    fake.behaviour = { kind: 'rate_limited', retryAfterSeconds: 7 };
    const e = await failure(() => provider.completeChat(request()));
    expect(e).toMatchObject({ kind: 'rate_limited', retryable: true, status: 429, retryAfterMs: 7000 });
    expect(e.userMessage).toBe('Ошибка при выполнении запроса');
    const s = await failure(() => collect(provider.streamChat(request())));
    expect(s).toMatchObject({ kind: 'rate_limited', retryable: true, status: 429, retryAfterMs: 7000, providerMessage: 'Rate limit reached for requests' });
    expect(fake.server.requests).toHaveLength(2);
  });

  test('500 is unavailable and retryable', async () => {
    fake.behaviour = { kind: 'server_error' };
    expect(await failure(() => provider.completeChat(request()))).toMatchObject({ kind: 'unavailable', retryable: true, status: 500 });
    expect(await failure(() => collect(provider.streamChat(request())))).toMatchObject({ kind: 'unavailable', status: 500 });
  });

  test('a wrong key is auth, a malformed request bad_request: neither retryable', async () => {
    const wrong = new OpenAiProvider({ network, baseUrl: fake.baseUrl, apiKey: 'sk-wrong' });
    expect(await failure(() => wrong.completeChat(request()))).toMatchObject({ kind: 'auth', retryable: false, status: 401 });
    expect(await failure(() => provider.completeChat(request({ messages: [] })))).toMatchObject({ kind: 'bad_request', retryable: false, status: 400 });
  });

  test('images in an assistant message are refused before any request', async () => {
    const e = await failure(() => provider.completeChat(request({ messages: [{ role: 'assistant', text: 'x', images: [{ mime: 'image/png', data: TINY_PNG }] }] })));
    expect(e.kind).toBe('bad_request');
    expect(fake.server.requests).toHaveLength(0);
  });

  test('a reply slower than the timeout is a retryable timeout, streaming or not', async () => {
    fake.behaviour = { kind: 'slow', delayMs: 10_000 };
    const quick = new OpenAiProvider({ network, baseUrl: fake.baseUrl, apiKey: fake.apiKey, timeoutMs: 200 });
    expect(await failure(() => quick.completeChat(request()))).toMatchObject({ kind: 'timeout', retryable: true });
    expect(await failure(() => collect(quick.streamChat(request())))).toMatchObject({ kind: 'timeout', retryable: true });
  });

  test('a stream broken midway: the deltas before the break arrive, then an unavailable error', async () => {
    fake.behaviour = { kind: 'broken_stream', afterChunks: 2 };
    const seen: ChatEvent[] = [];
    const e = await failure(async () => {
      for await (const event of provider.streamChat(request())) seen.push(event);
    });
    expect(e).toMatchObject({ kind: 'unavailable', retryable: true });
    expect(seen).toEqual([
      { type: 'delta', text: 'Привет' },
      { type: 'delta', text: '! Чем' },
    ]);
  });

  test('a stream that goes silent is a timeout after the idle limit', async () => {
    fake.behaviour = { kind: 'stalled_stream', afterChunks: 1 };
    const seen: ChatEvent[] = [];
    const e = await failure(async () => {
      for await (const event of provider.streamChat(request())) seen.push(event);
    });
    expect(e.kind).toBe('timeout');
    expect(seen).toEqual([{ type: 'delta', text: 'Привет' }]);
  });

  test('an error object inside the stream is unavailable', async () => {
    fake.behaviour = { kind: 'stream_error', afterChunks: 1 };
    expect(await failure(() => collect(provider.streamChat(request())))).toMatchObject({ kind: 'unavailable', retryable: true });
  });

  test('the error object inside a stream gives its message; a chunk that is not JSON is invalid_response', async () => {
    fake.behaviour = { kind: 'stream_error', afterChunks: 0 };
    expect(await failure(() => collect(provider.streamChat(request())))).toMatchObject({ kind: 'unavailable', providerMessage: 'The model is overloaded.' });
    fake.behaviour = { kind: 'malformed_chunk', afterChunks: 1 };
    const seen: ChatEvent[] = [];
    const e = await failure(async () => {
      for await (const event of provider.streamChat(request())) seen.push(event);
    });
    expect(e).toMatchObject({ kind: 'invalid_response' });
    expect(seen).toEqual([{ type: 'delta', text: 'Привет' }]);
  });

  test("a streamed call goes to the connection's base URL with its key and headers, as JSON", async () => {
    const withHeaders = new OpenAiProvider({ network, baseUrl: `${fake.baseUrl}/`, apiKey: fake.apiKey, headers: { 'X-Title': 'neurostudio' } });
    await collect(withHeaders.streamChat(request()));
    const [sent] = fake.server.requests;
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(sent?.headers).toMatchObject({ authorization: `Bearer ${fake.apiKey}`, 'x-title': 'neurostudio', 'content-type': 'application/json' });
  });

  test('a reply ended a moment after [DONE]: each answer is whole at once, and the connection serves the next calls', async () => {
    fake.behaviour = { kind: 'end_after_done', delayMs: 30 };
    // A network of its own: no connection of an earlier test to reuse.
    const own = networkFor([fake.baseUrl]);
    const alone = new OpenAiProvider({ network: own, baseUrl: fake.baseUrl, apiKey: fake.apiKey });
    try {
      const before = fake.server.connections;
      for (let i = 0; i < 5; i++) {
        expect((await collect(alone.streamChat(request()))).at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
        await fake.chatRequests[i]?.closed;
      }
      // Read to its end, a reply leaves its connection to the next call (two at most: a call may
      // start before the end of the one before it has been read); cancelled at [DONE], each reply
      // would close its connection and every call open a new one.
      expect(fake.server.connections - before).toBeLessThanOrEqual(2);
    } finally {
      await own.close();
    }
  });

  test('a reply never ended after [DONE]: the answer is whole at once, and its connection is closed after a while', async () => {
    fake.behaviour = { kind: 'open_after_done' };
    expect(await collect(provider.streamChat(request()))).toEqual([
      { type: 'delta', text: 'Привет' },
      { type: 'delta', text: '! Чем' },
      { type: 'delta', text: ' помочь?' },
      { type: 'usage', inputTokens: 12, outputTokens: 5 },
      { type: 'done', finishReason: 'stop' },
    ]);
    // The open reply would stay open for ever had the client not dropped the connection.
    await fake.chatRequests[0]?.closed;
  });

  test('an abort midway ends the stream with done/aborted and closes the request', async () => {
    fake.behaviour = { kind: 'stalled_stream', afterChunks: 2 };
    const controller = new AbortController();
    const events: ChatEvent[] = [];
    for await (const event of provider.streamChat(request({ signal: controller.signal }))) {
      events.push(event);
      if (event.type === 'delta') controller.abort();
    }
    expect(events).toEqual([
      { type: 'delta', text: 'Привет' },
      { type: 'done', finishReason: 'aborted' },
    ]);
    // The stalled reply would stay open for ever had the client not dropped the connection.
    await fake.server.requests[0]?.closed;
  });

  test('an abort before the reply: the stream ends aborted, a non-streaming call throws aborted', async () => {
    fake.behaviour = { kind: 'slow', delayMs: 10_000 };
    const streaming = new AbortController();
    setTimeout(() => streaming.abort(), 50);
    expect(await collect(provider.streamChat(request({ signal: streaming.signal })))).toEqual([{ type: 'done', finishReason: 'aborted' }]);
    const plain = new AbortController();
    setTimeout(() => plain.abort(), 50);
    expect(await failure(() => provider.completeChat(request({ signal: plain.signal })))).toMatchObject({ kind: 'aborted', retryable: false });
    const already = new AbortController();
    already.abort();
    expect(await failure(() => provider.completeChat(request({ signal: already.signal })))).toMatchObject({ kind: 'aborted' });
  });
});

describe('images', () => {
  // By path: a request of an earlier test aborted as it was sent (the fake runs in this process)
  // can still be recorded after the reset on a loaded machine.
  const imageRequests = () => fake.server.requests.filter((r) => r.path.includes('/images/'));
  test('generate: base64 images decoded, usage, the request body', async () => {
    const progress: number[] = [];
    const result = await provider.generate({ model: 'gpt-image-1', prompt: 'Кот в космосе', n: 2, size: '1024x1024', quality: 'low', onProgress: (p) => progress.push(p.step) });
    expect(result.images).toHaveLength(2);
    expect(result.images[0]).toEqual({ data: TINY_PNG, mime: 'image/png' });
    expect(result.usage).toEqual({ inputTokens: 50, outputTokens: 2112 });
    expect(progress).toEqual([1]);
    expect(imageRequests()[0]?.json).toEqual({ model: 'gpt-image-1', prompt: 'Кот в космосе', n: 2, size: '1024x1024', quality: 'low' });
  });

  test('DALL·E models are asked for b64_json', async () => {
    await provider.generate({ model: 'dall-e-3', prompt: 'Закат', n: 1, size: '1024x1024' });
    expect(imageRequests()[0]?.json).toMatchObject({ response_format: 'b64_json' });
  });

  test('edit: a multipart body with image[] parts and the mask, byte for byte', async () => {
    const first = TINY_PNG;
    const second = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('jpeg-ish bytes')]);
    const mask = Buffer.concat([TINY_PNG, Buffer.from([1, 2, 3])]);
    const result = await provider.edit({ model: 'gpt-image-1', prompt: 'Добавь шляпу', images: [first, second], mask, size: '1024x1024', n: 1, quality: 'high' });
    expect(result.images).toEqual([{ data: TINY_PNG, mime: 'image/png' }]);
    const parts = fake.edits[0] ?? [];
    const images = parts.filter((p) => p.name === 'image[]');
    expect(images.map((p) => [p.filename, p.type])).toEqual([
      ['image-1.png', 'image/png'],
      ['image-2.jpeg', 'image/jpeg'],
    ]);
    expect(images[0]?.value).toEqual(first);
    expect(images[1]?.value).toEqual(second);
    const maskPart = parts.find((p) => p.name === 'mask');
    expect(maskPart).toMatchObject({ filename: 'mask.png', type: 'image/png' });
    expect(maskPart?.value).toEqual(mask);
    expect(parts.filter((p) => typeof p.value === 'string').map((p) => [p.name, p.value])).toEqual(
      expect.arrayContaining([
        ['prompt', 'Добавь шляпу'],
        ['model', 'gpt-image-1'],
        ['n', '1'],
        ['size', '1024x1024'],
        ['quality', 'high'],
      ]),
    );
  });

  test('edit without a mask sends no mask part; bytes that are no image are refused locally', async () => {
    await provider.edit({ model: 'gpt-image-1', prompt: 'Стиль акварели', images: [TINY_PNG], size: '1024x1024', n: 1 });
    expect(fake.edits[0]?.some((p) => p.name === 'mask')).toBe(false);
    const e = await failure(() => provider.edit({ model: 'gpt-image-1', prompt: 'x', images: [Buffer.from('not an image')], size: '1024x1024', n: 1 }));
    expect(e.kind).toBe('bad_request');
    expect(fake.edits).toHaveLength(1);
  });

  test('image errors map like chat ones', async () => {
    fake.behaviour = { kind: 'rate_limited', retryAfterSeconds: 3 };
    expect(await failure(() => provider.generate({ model: 'gpt-image-1', prompt: 'x', n: 1, size: '1024x1024' }))).toMatchObject({ kind: 'rate_limited', retryAfterMs: 3000 });
    fake.behaviour = { kind: 'server_error' };
    expect(await failure(() => provider.edit({ model: 'gpt-image-1', prompt: 'x', images: [TINY_PNG], size: '1024x1024', n: 1 }))).toMatchObject({ kind: 'unavailable' });
    fake.behaviour = { kind: 'slow', delayMs: 10_000 };
    const quick = new OpenAiProvider({ network, baseUrl: fake.baseUrl, apiKey: fake.apiKey, imageTimeoutMs: 200 });
    expect(await failure(() => quick.generate({ model: 'gpt-image-1', prompt: 'x', n: 1, size: '1024x1024' }))).toMatchObject({ kind: 'timeout' });
  });
});
