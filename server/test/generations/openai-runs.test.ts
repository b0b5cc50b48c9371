import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GENERATION_FAILURES, GENERATION_TEXTS, type Generation } from '@app/contracts';
import { FakeOpenAi, TINY_PNG, fakeProviderEnv } from '../support/ai-fakes.ts';
import { pixelsOf } from '../support/images.ts';
import { createTestApp, finishedRun, productOn, runEffects, startRun, userWithTokens, type Part, type TestApp } from '../support/index.ts';

/* Runs of products whose models are on an OpenAI-compatible connection, through the API down to the protocol: a local fake of OpenAI's API answers. */

const KEY_ENV = 'FAKE_OPENAI_API_KEY';
let fake: FakeOpenAi;
let t: TestApp;
const products = { mask: 0, img: 0, text: 0, wrongKey: 0 };
/** The user's picture, the painted mask and the provider's answer: three different PNGs, so each can be told apart where it arrives. */
let picture: Buffer;
let answer: Buffer;
const mask = TINY_PNG;

const solid = (size: number, r: number, g: number, b: number) => sharp({ create: { width: size, height: size, channels: 3, background: { r, g, b } } }).png().toBuffer();
const file = (name: 'image' | 'mask', data: Buffer): Part => ({ name, file: { filename: `${name}.png`, type: 'image/png', data } });

beforeAll(async () => {
  fake = await new FakeOpenAi().start();
  t = await createTestApp({ env: fakeProviderEnv({ [KEY_ENV]: { key: fake.apiKey, url: fake.baseUrl }, WRONG_OPENAI_API_KEY: { key: 'sk-not-the-key', url: fake.baseUrl } }) });
  picture = await solid(2, 200, 30, 30);
  answer = await solid(3, 30, 30, 200);
  const connection = { protocol: 'openai' as const, baseUrl: fake.baseUrl, keyEnv: KEY_ENV };
  const image = { kind: 'image' as const, providerModel: 'gpt-image-1', mediaPriceTenths: 15 };
  products.mask = await productOn(t.db, connection, image, { variant: 'mask', name: 'Перерисовать область' });
  products.img = await productOn(t.db, connection, image, { variant: 'img', name: 'Картинка (OpenAI)' });
  products.text = await productOn(
    t.db,
    connection,
    { kind: 'text', providerModel: 'gpt-4o-mini', wordsPerToken: 2, maxOutputTokens: 300 },
    { variant: 'text_1', name: 'Пост (OpenAI)', promptTemplate: 'Напиши пост на тему «{topic}»', fields: [{ name: 'topic', label: 'Тема' }] },
  );
  products.wrongKey = await productOn(t.db, { ...connection, keyEnv: 'WRONG_OPENAI_API_KEY' }, image, { variant: 'img', name: 'Картинка (чужой ключ)' });
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});
beforeEach(() => {
  fake.reset();
  fake.image = Buffer.from(answer);
});

const requestsTo = (path: string) => fake.server.requests.filter((r) => r.method === 'POST' && r.path === path);

describe('image products on an OpenAI-compatible API', () => {
  it('a mask run sends the edit as multipart — image[], the mask PNG and the prompt — stores the answer and is charged once', async () => {
    const user = await userWithTokens(t.db, 5);
    const res = await startRun(t.app, user, { product_id: products.mask, prompt: 'Кот в шляпе' }, [file('image', picture), file('mask', mask)]);
    expect(res.statusCode).toBe(200);
    const done = await finishedRun(t.app, user, (res.data.json as Generation).id);
    expect(done).toMatchObject({ status: 'succeeded', refunded: false, error: null, cost: { wallet: 'media', amount: 1.5 } });

    expect(fake.edits).toHaveLength(1);
    const parts = fake.edits[0] ?? [];
    const images = parts.filter((p) => p.name === 'image[]');
    expect(images).toHaveLength(1);
    expect(images[0]?.value).toEqual(picture);
    const sentMask = parts.find((p) => p.name === 'mask');
    expect(sentMask).toMatchObject({ filename: 'mask.png', type: 'image/png' });
    // The mask as it was stored: its pixels (its transparency exactly), written anew without metadata.
    expect(await pixelsOf(Buffer.from(sentMask?.value ?? ''))).toEqual(await pixelsOf(mask));
    expect(parts.find((p) => p.name === 'prompt')?.value).toBe('Кот в шляпе');
    expect(parts.find((p) => p.name === 'model')?.value).toBe('gpt-image-1');
    // The size of the run's parameter (here the default) goes with the edit, so the answer has it.
    expect(parts.find((p) => p.name === 'size')?.value.toString()).toBe('1024x1024');
    expect(requestsTo('/v1/images/edits')[0]?.headers.authorization).toBe(`Bearer ${fake.apiKey}`);

    const effects = await runEffects(t.app, t.db, user, done.id);
    expect(effects.outputs).toEqual([{ mime: 'image/png', body: answer }]);
    expect(effects.hold).toMatchObject({ status: 'settled', amount: 15, spent: 15 });
    expect(effects.ledger).toEqual([{ amount: -15, reason: 'generation_hold' }]);
    expect(effects.wallet.balance).toEqual(effects.wallet.sums);
    expect(effects.wallet.balance.media).toBe(35);
  });

  it('an img run asks images/generations for the prompt and stores what it answers', async () => {
    const user = await userWithTokens(t.db, 5);
    const res = await startRun(t.app, user, { product_id: products.img, prompt: 'Маяк на скале' });
    const done = await finishedRun(t.app, user, (res.data.json as Generation).id);
    expect(done.status).toBe('succeeded');
    const requests = requestsTo('/v1/images/generations');
    expect(requests).toHaveLength(1);
    expect(requests[0]?.json).toMatchObject({ model: 'gpt-image-1', prompt: 'Маяк на скале', n: 1, size: '1024x1024' });
    expect(fake.edits).toEqual([]);
    const effects = await runEffects(t.app, t.db, user, done.id);
    expect(effects.outputs).toEqual([{ mime: 'image/png', body: answer }]);
    expect(effects.ledger).toEqual([{ amount: -15, reason: 'generation_hold' }]);
    expect(effects.wallet.balance).toEqual({ ...effects.wallet.sums, media: 35 });
  });

  it('a provider 500 is retried, and the run then succeeds with one output, charged once', async () => {
    fake.behaviour = { kind: 'server_error', times: 1 };
    const user = await userWithTokens(t.db, 5);
    const res = await startRun(t.app, user, { product_id: products.img, prompt: 'Второй раз' });
    // The retry waits out the job's backoff (5 s).
    const done = await finishedRun(t.app, user, (res.data.json as Generation).id, 60_000);
    expect(done.status).toBe('succeeded');
    expect(requestsTo('/v1/images/generations')).toHaveLength(2);
    const effects = await runEffects(t.app, t.db, user, done.id);
    expect(effects.attempts).toBe(2);
    expect(effects.outputs).toHaveLength(1);
    expect(effects.outputRows).toBe(1);
    expect(effects.ledger).toEqual([{ amount: -15, reason: 'generation_hold' }]);
    expect(effects.wallet.balance).toEqual({ ...effects.wallet.sums, media: 35 });
  }, 90_000);

  it('a prompt the safety system refuses fails the run at once, saying so; admins keep the provider’s words', async () => {
    fake.behaviour = { kind: 'refuse', status: 400, message: 'Your request was rejected as a result of our safety system.', code: 'content_policy_violation' };
    const user = await userWithTokens(t.db, 5);
    const res = await startRun(t.app, user, { product_id: products.img, prompt: 'Что-то запрещённое' });
    const done = await finishedRun(t.app, user, (res.data.json as Generation).id);
    expect(done).toMatchObject({ status: 'failed', refunded: true, error: `${GENERATION_FAILURES.contentPolicy}. ${GENERATION_TEXTS.refunded}` });
    expect(requestsTo('/v1/images/generations')).toHaveLength(1);
    const effects = await runEffects(t.app, t.db, user, done.id);
    expect(effects.detail).toContain('safety system');
    expect(effects.wallet.balance).toEqual({ ...effects.wallet.sums, media: 50 });
  });

  it('a failure that will not pass (the key is refused) ends the run at once: failed with why, its tokens back', async () => {
    const user = await userWithTokens(t.db, 5);
    const res = await startRun(t.app, user, { product_id: products.wrongKey, prompt: 'Не получится' });
    const done = await finishedRun(t.app, user, (res.data.json as Generation).id);
    expect(done).toMatchObject({ status: 'failed', refunded: true, error: `${GENERATION_FAILURES.notConfigured}. ${GENERATION_TEXTS.refunded}`, outputs: [] });
    expect(requestsTo('/v1/images/generations')).toHaveLength(1);
    const effects = await runEffects(t.app, t.db, user, done.id);
    expect(effects.attempts).toBe(1);
    expect(effects.detail).toMatch(/401|Incorrect API key/);
    expect(effects.hold).toMatchObject({ status: 'released' });
    expect(effects.ledger).toEqual([
      { amount: -15, reason: 'generation_hold' },
      { amount: 15, reason: 'generation_release' },
    ]);
    expect(effects.wallet.balance).toEqual({ ...effects.wallet.sums, media: 50 });
  });
});

describe('text products on an OpenAI-compatible API', () => {
  it('a text_1 run asks chat completions with the filled template and is charged by the tokens used', async () => {
    fake.answer = { pieces: ['Мы открылись', '! Ждём вас.'], finishReason: 'stop', promptTokens: 20, completionTokens: 8 };
    const user = await userWithTokens(t.db, 0, 5_000);
    const res = await startRun(t.app, user, { product_id: products.text, fields: JSON.stringify({ topic: 'Открытие кофейни' }) });
    const held = (res.data.json as Generation).cost.amount;
    const done = await finishedRun(t.app, user, (res.data.json as Generation).id);
    expect(done).toMatchObject({ status: 'succeeded', text: 'Мы открылись! Ждём вас.', cost: { wallet: 'words', amount: 56 } });

    expect(fake.chatBodies).toHaveLength(1);
    const body = fake.chatBodies[0] as { model: string; stream?: boolean; messages: { role: string; content: unknown }[] };
    expect(body.model).toBe('gpt-4o-mini');
    expect(body.stream).not.toBe(true);
    expect(JSON.stringify(body.messages)).toContain('Напиши пост на тему «Открытие кофейни»');

    const effects = await runEffects(t.app, t.db, user, done.id);
    expect(effects.hold).toMatchObject({ status: 'settled', amount: held, spent: 56 });
    expect(effects.ledger.reduce((sum, row) => sum + row.amount, 0)).toBe(-56);
    expect(effects.wallet.balance).toEqual({ ...effects.wallet.sums, words: 5_000 - 56 });
  });
});
