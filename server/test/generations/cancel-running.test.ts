import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Generation } from '@app/contracts';
import { cancelCharge } from '../../src/features/generations/cancel-run.ts';
import { completeRun } from '../../src/features/generations/generations.job.ts';
import { FakeReplicate, fakeProviderEnv } from '../support/ai-fakes.ts';
import { call, createTestApp, productOn, runEffects, startRun, until, userWithTokens, type TestApp, type TestUser } from '../support/index.ts';

/*
 * A video cancelled while its provider works: the prediction is cancelled at the provider, the run
 * keeps what the provider's time so far costs (its price times its progress) and gives the rest
 * back; a cancel racing the run's own end leaves one outcome and a balanced ledger.
 */

const KEY_ENV = 'FAKE_REPLICATE_API_TOKEN';
let fake: FakeReplicate;
let t: TestApp;
let video = 0;

beforeAll(async () => {
  fake = await new FakeReplicate().start();
  t = await createTestApp({ env: fakeProviderEnv({ [KEY_ENV]: { key: fake.apiToken, url: fake.baseUrl } }) });
  video = await productOn(t.db, { protocol: 'replicate', baseUrl: fake.baseUrl, keyEnv: KEY_ENV }, { kind: 'video', providerModel: 'acme/clip-maker', mediaPriceTenths: 20 }, { variant: 'video', name: 'Клип (Replicate)' });
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});
beforeEach(() => {
  fake.advanceOnPoll = false;
  fake.server.requests.length = 0;
});

/** A video run of `user` that its provider is halfway through (the poller has read 50 %): its id and prediction. */
async function halfwayRun(user: TestUser): Promise<{ id: number; prediction: string }> {
  const res = await startRun(t.app, user, { product_id: video, prompt: 'Волны у маяка' });
  const { id } = res.data.json as Generation;
  const prediction = await until(async () => (await t.db.selectFrom('generations').select('provider_ref').where('id', '=', id).executeTakeFirst())?.provider_ref);
  fake.advance(prediction);
  fake.advance(prediction);
  await until(async () => (await t.db.selectFrom('generations').select('progress').where('id', '=', id).executeTakeFirstOrThrow()).progress === 50);
  return { id, prediction };
}

const cancel = (user: TestUser, id: number) => call(t.app, { method: 'POST', url: `/api/new/generations/${String(id)}/cancel`, token: user.token, payload: {} });

describe('cancelling a video while its provider works', () => {
  it('the charge: the price times the provider’s progress, rounded up, never more than the hold, nothing before it started', () => {
    expect(cancelCharge(20, 0)).toBe(0);
    expect(cancelCharge(20, 50)).toBe(10);
    expect(cancelCharge(25, 33)).toBe(9);
    expect(cancelCharge(20, 100)).toBe(20);
    expect(cancelCharge(20, 250)).toBe(20);
  });

  it('stops the prediction at the provider and keeps half of the price at 50 %, the rest back; the poller stores nothing afterwards', async () => {
    const user = await userWithTokens(t.db, 5);
    const { id, prediction } = await halfwayRun(user);
    const res = await cancel(user, id);
    expect(res.statusCode, JSON.stringify(res.data)).toBe(200);
    expect(res.data.json).toMatchObject({ status: 'cancelled', refunded: false, cost: { wallet: 'media', amount: 1 } });
    expect(fake.server.requests.some((r) => r.method === 'POST' && r.path === `/v1/predictions/${prediction}/cancel`)).toBe(true);
    expect(fake.predictions.get(prediction)?.json.status).toBe('canceled');
    // The poller's next look finds the run ended and leaves it so.
    fake.advance(prediction);
    const effects = await runEffects(t.app, t.db, user, id);
    expect(effects.run.status).toBe('cancelled');
    expect(effects.outputRows).toBe(0);
    expect(effects.hold).toMatchObject({ status: 'settled', spent: 10 });
    expect(effects.wallet.balance).toEqual({ ...effects.wallet.sums, media: 40 });
    // A second cancel changes nothing.
    expect((await cancel(user, id)).data.json).toMatchObject({ status: 'cancelled', cost: { amount: 1 } });
    expect((await runEffects(t.app, t.db, user, id)).wallet.balance.media).toBe(40);
  });

  it('a cancel racing the run’s own end leaves one outcome, its hold closed once, and a balanced ledger', async () => {
    const user = await userWithTokens(t.db, 20);
    const outcomes: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { id } = await halfwayRun(user);
      const run = await t.db.selectFrom('generations').select(['id', 'user_id', 'product_name']).where('id', '=', id).executeTakeFirstOrThrow();
      const [cancelled, completed] = await Promise.all([
        cancel(user, id),
        completeRun(t.ctx, run, { files: [{ data: fake.fileBytes, mime: 'video/mp4' }], text: null, cost: 20 }),
      ]);
      const effects = await runEffects(t.app, t.db, user, id);
      outcomes.push(effects.run.status);
      if (effects.run.status === 'succeeded') {
        expect(completed).toBe(true);
        expect(cancelled.statusCode).toBe(409);
        expect(effects.hold).toMatchObject({ status: 'settled', spent: 20 });
        expect(effects.outputRows).toBe(1);
      } else {
        expect(effects.run.status).toBe('cancelled');
        expect(completed).toBe(false);
        expect(effects.hold).toMatchObject({ status: 'settled', spent: 10 });
        expect(effects.outputRows).toBe(0);
      }
      expect(effects.ledger.filter((l) => l.reason === 'generation_hold')).toHaveLength(1);
      expect(effects.wallet.balance).toEqual(effects.wallet.sums);
    }
    expect(outcomes).toHaveLength(4);
  });

  it('a picture on an OpenAI-style connection, answered in one request, still cannot be cancelled while it runs', async () => {
    const user = await userWithTokens(t.db, 5);
    const row = await t.db.insertInto('generations').values({ user_id: user.id, product_id: video, variant: 'img', product_name: 'Картинка', model_name: 'x', prompt: 'p', wallet: 'media', cost: 10, status: 'running' }).returning('id').executeTakeFirstOrThrow();
    const res = await cancel(user, row.id);
    expect(res.statusCode).toBe(409);
    expect(res.data.text).toBe('Эту генерацию уже не отменить');
  });
});
