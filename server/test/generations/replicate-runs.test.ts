import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Generation } from '@app/contracts';
import { FakeReplicate, TINY_PNG, fakeProviderEnv } from '../support/ai-fakes.ts';
import { dataUrlBytes, pixelsOf } from '../support/images.ts';
import { createTestApp, finishedRun, productOn, runEffects, startRun, until, userWithTokens, type Part, type TestApp } from '../support/index.ts';

/* Runs of products whose models are on a Replicate-protocol connection, with no webhook configured: the prediction is created, then polled to its end. */

const KEY_ENV = 'FAKE_REPLICATE_API_TOKEN';
let fake: FakeReplicate;
let t: TestApp;
const products = { video: 0, image: 0 };

beforeAll(async () => {
  fake = await new FakeReplicate().start();
  t = await createTestApp({ env: fakeProviderEnv({ [KEY_ENV]: { key: fake.apiToken, url: fake.baseUrl } }) });
  const connection = { protocol: 'replicate' as const, baseUrl: fake.baseUrl, keyEnv: KEY_ENV };
  products.video = await productOn(t.db, connection, { kind: 'video', providerModel: 'acme/clip-maker', mediaPriceTenths: 20 }, { variant: 'video', name: 'Клип (Replicate)' });
  products.image = await productOn(t.db, connection, { kind: 'image', providerModel: 'acme/painter', mediaPriceTenths: 10 }, { variant: 'img_2', name: 'Перерисовать (Replicate)' });
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});
beforeEach(() => {
  fake.server.requests.length = 0;
  fake.failWith = null;
  fake.outage = null;
  fake.fileType = 'video/mp4';
});

const creations = (model: string) => fake.server.requests.filter((r) => r.method === 'POST' && r.path === `/v1/models/${model}/predictions`);

describe('a prediction polled to its end', () => {
  it('a video run creates a prediction without a webhook, polls it to success, and stores the downloaded output, charged once', async () => {
    const user = await userWithTokens(t.db, 5);
    const res = await startRun(t.app, user, { product_id: products.video, prompt: 'Волны у маяка' });
    const done = await finishedRun(t.app, user, (res.data.json as Generation).id);
    expect(done).toMatchObject({ status: 'succeeded', progress: 100, refunded: false, cost: { wallet: 'media', amount: 2 } });

    const created = creations('acme/clip-maker');
    expect(created).toHaveLength(1);
    expect(created[0]?.headers.authorization).toBe(`Bearer ${fake.apiToken}`);
    expect(created[0]?.json).toEqual({ input: { prompt: 'Волны у маяка' } });
    const effects = await runEffects(t.app, t.db, user, done.id);
    const prediction = fake.predictions.get(effects.providerRef ?? '');
    expect(prediction?.json.status).toBe('succeeded');
    expect(fake.server.requests.filter((r) => r.method === 'GET' && r.path === `/v1/predictions/${prediction?.json.id ?? ''}`).length).toBeGreaterThanOrEqual(3);
    expect(fake.server.requests.some((r) => r.path === `/files/${prediction?.json.id ?? ''}/output.mp4`)).toBe(true);

    expect(effects.outputs).toEqual([{ mime: 'video/mp4', body: fake.fileBytes }]);
    expect(effects.ledger).toEqual([{ amount: -20, reason: 'generation_hold' }]);
    expect(effects.hold).toMatchObject({ status: 'settled', spent: 20 });
    expect(effects.wallet.balance).toEqual({ ...effects.wallet.sums, media: 30 });
  });

  it('an image product on Replicate runs as a prediction too, the user’s picture sent as a data URL', async () => {
    fake.fileType = 'image/png';
    const user = await userWithTokens(t.db, 5);
    const picture: Part = { name: 'image', file: { filename: 'photo.png', type: 'image/png', data: TINY_PNG } };
    const res = await startRun(t.app, user, { product_id: products.image, prompt: 'В стиле акварели' }, [picture]);
    const done = await finishedRun(t.app, user, (res.data.json as Generation).id);
    expect(done.status).toBe('succeeded');
    const input = (creations('acme/painter')[0]?.json as { input: { prompt: string; image: string } }).input;
    expect(input.prompt).toBe('В стиле акварели');
    expect(input.image).toMatch(/^data:image\/png;base64,/);
    // The picture as it was stored: its pixels, written anew without metadata.
    expect(await pixelsOf(dataUrlBytes(input.image))).toEqual(await pixelsOf(TINY_PNG));
    const effects = await runEffects(t.app, t.db, user, done.id);
    expect(effects.outputs).toEqual([{ mime: 'image/png', body: fake.fileBytes }]);
    expect(effects.wallet.balance).toEqual({ ...effects.wallet.sums, media: 40 });
  });

  it('a failed prediction fails the run with why; its tokens come back', async () => {
    fake.failWith = 'CUDA out of memory';
    const user = await userWithTokens(t.db, 5);
    const res = await startRun(t.app, user, { product_id: products.video, prompt: 'Слишком длинный клип' });
    const done = await finishedRun(t.app, user, (res.data.json as Generation).id);
    expect(done).toMatchObject({ status: 'failed', refunded: true, error: 'Не удалось выполнить генерацию. Токены возвращены на баланс', outputs: [] });
    const effects = await runEffects(t.app, t.db, user, done.id);
    expect(effects.detail).toContain('CUDA out of memory');
    expect(effects.attempts).toBe(1);
    expect(effects.outputRows).toBe(0);
    expect(effects.ledger).toEqual([
      { amount: -20, reason: 'generation_hold' },
      { amount: 20, reason: 'generation_release' },
    ]);
    expect(effects.wallet.balance).toEqual({ ...effects.wallet.sums, media: 50 });
  });

  it('a poll the API refuses (500) is retried, and the retry picks the same prediction up instead of paying for another', async () => {
    fake.advanceOnPoll = false;
    try {
      const user = await userWithTokens(t.db, 5);
      const res = await startRun(t.app, user, { product_id: products.video, prompt: 'Рассвет' });
      const gid = (res.data.json as Generation).id;
      const id = await until(async () => (await t.db.selectFrom('generations').select('provider_ref').where('id', '=', gid).executeTakeFirstOrThrow()).provider_ref);
      fake.outage = { status: 500 };
      // The first attempt fails on the outage (its error noted) and waits for its retry (5 s): the prediction ends meanwhile.
      await until(async () => (await runEffects(t.app, t.db, user, gid)).detail);
      fake.outage = null;
      for (let step = 0; step < 3; step += 1) fake.advance(id);
      const done = await finishedRun(t.app, user, gid, 60_000);
      expect(done.status).toBe('succeeded');
      expect(creations('acme/clip-maker')).toHaveLength(1);
      const effects = await runEffects(t.app, t.db, user, gid);
      expect(effects.attempts).toBe(2);
      expect(effects.outputRows).toBe(1);
      expect(effects.ledger).toEqual([{ amount: -20, reason: 'generation_hold' }]);
    } finally {
      fake.advanceOnPoll = true;
    }
  }, 90_000);
});
