import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATION_FAILURES, GENERATION_TEXTS, type Generation } from '@app/contracts';
import { seedAiCatalog, seedGenerationCatalog } from '../../src/db/seed.ts';
import { generationJob } from '../../src/features/generations/generations.job.ts';
import { placeHold } from '../../src/features/wallet/wallet.queries.ts';
import { call, createTestApp, finishedRun, newAdmin, newUser, parseEvents, startRun, userWithTokens, walletState, type Part, type TestApp, type TestUser } from '../support/index.ts';
import { TINY_PNG } from '../support/ai-fakes.ts';

/* Runs of catalogue products on the demo provider: start (hold + job in one transaction), progress to the result, costs, refusals, cancel, history. */

let t: TestApp;
const products: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp({ env: { DEMO_STEP_DELAY_MS: '0' } });
  await seedAiCatalog(t.db);
  await seedGenerationCatalog(t.db);
  for (const row of await t.db.selectFrom('ai_products').select(['id', 'variant', 'name']).execute()) products[row.name] = row.id;
});
afterAll(() => t.close());

const id = (name: string) => {
  const value = products[name];
  if (value === undefined) throw new Error(`no product ${name}`);
  return value;
};

const userWith = (media: number, words = 0) => userWithTokens(t.db, media, words);
const start = (user: TestUser | undefined, fields: Record<string, string | number>, files: Part[] = []) => startRun(t.app, user, fields, files);
const png = (name: 'image' | 'mask'): Part => ({ name, file: { filename: `${name}.png`, type: 'image/png', data: TINY_PNG } });
const finished = (user: TestUser, gid: number) => finishedRun(t.app, user, gid);

describe('starting a run and getting its result', () => {
  it('a picture from a description: queued at once with its price held, then an image only its owner can read', async () => {
    const user = await userWith(5);
    const res = await start(user, { product_id: id('Картинка по описанию'), prompt: 'Закат над морем', param: 'landscape' });
    expect(res.statusCode).toBe(200);
    const queued = res.data.json as Generation;
    expect(queued).toMatchObject({ status: 'queued', variant: 'img', cost: { wallet: 'media', amount: 1 }, prompt: 'Закат над морем' });
    expect((await walletState(t.db, user.id)).balance.media).toBe(40);

    const done = await finished(user, queued.id);
    expect(done).toMatchObject({ status: 'succeeded', progress: 100, refunded: false, error: null });
    expect(done.outputs).toHaveLength(1);
    const file = await t.app.inject({ url: done.outputs[0]?.url ?? '', headers: { authorization: `Bearer ${user.token}` } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    // Downloaded, it is named after the product and the run, with the PNG's extension.
    const download = await t.app.inject({ url: done.outputs[0]?.download_url ?? '', headers: { authorization: `Bearer ${user.token}` } });
    expect(download.headers['content-disposition']).toBe(`attachment; filename="________ __ ________ ${String(queued.id)}-1.png"; filename*=UTF-8''${encodeURIComponent(`Картинка по описанию ${String(queued.id)}-1.png`)}`);
    const stranger = await newUser(t.db);
    expect((await t.app.inject({ url: done.outputs[0]?.url ?? '', headers: { authorization: `Bearer ${stranger.token}` } })).statusCode).toBe(404);
    expect((await call(t.app, { url: `/api/new/generations/${String(queued.id)}`, token: stranger.token })).statusCode).toBe(404);
    const state = await walletState(t.db, user.id);
    expect(state.balance).toEqual(state.sums);
    expect(state.balance.media).toBe(40);
  });

  it('streams a run’s progress as Server-Sent Events, ending with the run; another user’s run is not found', async () => {
    const user = await userWith(5);
    const g = (await start(user, { product_id: id('Картинка по описанию'), prompt: 'Лес' })).data.json as Generation;
    const res = await call(t.app, { url: `/api/new/generations/${String(g.id)}/events`, token: user.token });
    expect(res.headers['content-type']).toContain('text/event-stream');
    const events = parseEvents(res.body).events;
    expect(events[0]?.event).toBe('progress');
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { id: g.id, status: 'succeeded' } });
    const stranger = await newUser(t.db);
    expect((await call(t.app, { url: `/api/new/generations/${String(g.id)}/events`, token: stranger.token })).statusCode).toBe(404);
  });

  it('a template product fills its prompt from the fields; a missing required field is a field error', async () => {
    const user = await userWith(5);
    const missing = await start(user, { product_id: id('Открытка к празднику'), fields: JSON.stringify({ occasion: 'Новый год' }) });
    expect(missing.statusCode).toBe(400);
    expect(missing.data.text).toEqual({ 'fields.recipient': ['Заполните поле «Кому»'] });
    const bad = await start(user, { product_id: id('Открытка к празднику'), fields: '[1,2' });
    expect(bad.data.text).toEqual({ fields: ['Поля должны быть объектом JSON'] });
    const res = await start(user, { product_id: id('Открытка к празднику'), fields: JSON.stringify({ occasion: 'Новый год', recipient: 'другу' }) });
    const g = res.data.json as Generation;
    // The optional style left empty takes its label with it: no «стиль: » at the end.
    expect(g.prompt).toBe('Праздничная открытка к событию «Новый год». Кому: другу.');
    expect((await finished(user, g.id)).status).toBe('succeeded');
  });

  it('the mask product needs an image and a mask, and repaints with them', async () => {
    const user = await userWith(5);
    const noMask = await start(user, { product_id: id('Заменить часть картинки'), prompt: 'Кот' }, [png('image')]);
    expect(noMask.data.text).toEqual({ mask: ['Закрасьте область, которую нужно изменить'] });
    const noImage = await start(user, { product_id: id('Заменить часть картинки'), prompt: 'Кот' });
    expect(noImage.data.text).toEqual({ image: ['Загрузите изображение'] });
    const res = await start(user, { product_id: id('Заменить часть картинки'), prompt: 'Кот' }, [png('image'), png('mask')]);
    expect(res.statusCode).toBe(200);
    expect((await finished(user, (res.data.json as Generation).id)).outputs).toHaveLength(1);
  });

  it('a mask run answers the size chosen and paid for: a 512×512 picture at «Квадрат 1024×1024» comes back 1024×1024', async () => {
    const user = await userWith(5);
    const picture = await sharp({ create: { width: 512, height: 512, channels: 3, background: { r: 40, g: 120, b: 200 } } }).png().toBuffer();
    // Painted: the left half fully transparent.
    const maskRaw = Buffer.alloc(512 * 512 * 4, 255);
    for (let y = 0; y < 512; y += 1) for (let x = 0; x < 256; x += 1) maskRaw[(y * 512 + x) * 4 + 3] = 0;
    const mask = await sharp(maskRaw, { raw: { width: 512, height: 512, channels: 4 } }).png().toBuffer();
    const file = (name: 'image' | 'mask', data: Buffer): Part => ({ name, file: { filename: `${name}.png`, type: 'image/png', data } });
    const res = await start(user, { product_id: id('Заменить часть картинки'), prompt: 'Луна', param: 'square' }, [file('image', picture), file('mask', mask)]);
    expect(res.statusCode).toBe(200);
    const done = await finished(user, (res.data.json as Generation).id);
    expect(done.status).toBe('succeeded');
    const output = await t.app.inject({ url: done.outputs[0]?.url ?? '', headers: { authorization: `Bearer ${user.token}` } });
    const { data, info } = await sharp(output.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([1024, 1024]);
    // The unpainted right half is the picture's own colour, pixel for pixel; the painted half was repainted.
    const at = (x: number, y: number) => [...data.subarray((y * 1024 + x) * info.channels, (y * 1024 + x) * info.channels + 3)];
    for (const [x, y] of [[600, 10], [1023, 1023], [800, 512]] as const) expect(at(x, y)).toEqual([40, 120, 200]);
    expect(at(100, 100)).not.toEqual([40, 120, 200]);
  });

  it('a text product answers text and is charged by the tokens used, at most what it held', async () => {
    const user = await userWith(0, 10_000);
    const res = await start(user, { product_id: id('Пост для соцсетей'), fields: JSON.stringify({ topic: 'Открытие кофейни' }) });
    expect(res.statusCode).toBe(200);
    const held = (res.data.json as Generation).cost.amount;
    const done = await finished(user, (res.data.json as Generation).id);
    expect(done.status).toBe('succeeded');
    expect(done.text).toContain('Открытие кофейни');
    expect(done.cost.amount).toBeGreaterThan(0);
    expect(done.cost.amount).toBeLessThanOrEqual(held);
    const state = await walletState(t.db, user.id);
    expect(state.balance).toEqual(state.sums);
    expect(state.balance.words).toBe(10_000 - done.cost.amount);
  });

  it('a video from a description, priced by its duration', async () => {
    const user = await userWith(10);
    const res = await start(user, { product_id: id('Видео по описанию'), prompt: 'Волны у берега', param: '8' });
    expect((res.data.json as Generation).cost).toEqual({ wallet: 'media', amount: 4 });
    const done = await finished(user, (res.data.json as Generation).id);
    expect(done.status).toBe('succeeded');
    expect(done.outputs[0]?.mime).toMatch(/^(video\/mp4|image\/webp)$/);
    const download = await t.app.inject({ url: done.outputs[0]?.download_url ?? '', headers: { authorization: `Bearer ${user.token}` } });
    const extension = done.outputs[0]?.mime === 'video/mp4' ? 'mp4' : 'webp';
    expect(download.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent(`Видео по описанию ${String(done.id)}-1.${extension}`)}`);
    expect((await walletState(t.db, user.id)).balance.media).toBe(60);
  }, 60_000);
});

describe('refusals, failures and cancelling', () => {
  it('too few tokens: 402 and nothing stored', async () => {
    const user = await userWith(0.5);
    const res = await start(user, { product_id: id('По вашему образцу'), prompt: 'Ярче' }, [png('image')]);
    expect(res.statusCode).toBe(402);
    expect(await t.db.selectFrom('generations').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('files').select('id').where('owner_id', '=', user.id).execute()).toEqual([]);
    expect((await walletState(t.db, user.id)).balance.media).toBe(5);
  });

  it('validates the request: unknown product, unknown parameter, files a product does not take, guests', async () => {
    const user = await userWith(5);
    expect((await start(user, { product_id: 999_999, prompt: 'x' })).data.text).toEqual({ product_id: ['Этот продукт недоступен'] });
    expect((await start(user, { product_id: id('Картинка по описанию'), prompt: 'x', param: 'huge' })).data.text).toEqual({ param: ['Выберите параметр из списка'] });
    expect((await start(user, { product_id: id('Картинка по описанию'), prompt: 'x' }, [png('image')])).data.text).toEqual({ image: ['Этому продукту изображение не нужно'] });
    expect((await start(user, { product_id: id('Картинка по описанию'), prompt: '  ' })).data.text).toEqual({ prompt: ['Опишите, что нужно получить'] });
    expect((await start(undefined, { product_id: id('Картинка по описанию'), prompt: 'x' })).statusCode).toBe(401);
    const unconfirmed = await newUser(t.db, { confirmed: false });
    expect((await start(unconfirmed, { product_id: id('Картинка по описанию'), prompt: 'x' })).statusCode).toBe(403);
  });

  it('a provider that cannot be called fails the run with why, and its tokens come back', async () => {
    const user = await userWith(5);
    const broken = await t.db.insertInto('provider_connections').values({ name: 'Без ключа', protocol: 'openai', base_url: 'http://127.0.0.1:9/v1', api_key_env: 'MISSING_API_KEY' }).returning('id').executeTakeFirstOrThrow();
    const model = await t.db.insertInto('ai_models').values({ name: 'Сломанная', kind: 'image', connection_id: broken.id, provider_model: 'x', media_price_tenths: 10 }).returning('id').executeTakeFirstOrThrow();
    const category = await t.db.selectFrom('ai_categories').select('id').executeTakeFirstOrThrow();
    const product = await t.db.insertInto('ai_products').values({ category_id: category.id, variant: 'img', name: 'Сломанный продукт', model_id: model.id }).returning('id').executeTakeFirstOrThrow();
    const res = await start(user, { product_id: product.id, prompt: 'Что-нибудь' });
    const done = await finished(user, (res.data.json as Generation).id);
    expect(done).toMatchObject({ status: 'failed', refunded: true, error: `${GENERATION_FAILURES.notConfigured}. ${GENERATION_TEXTS.refunded}`, outputs: [] });
    const state = await walletState(t.db, user.id);
    expect(state.balance).toEqual(state.sums);
    expect(state.balance.media).toBe(50);
  });

  it('a run whose connection was switched off after it was queued fails as not set up, its tokens back; admins read why', async () => {
    const user = await userWith(5);
    const demo = await t.db.insertInto('provider_connections').values({ name: 'Выключаемое демо', protocol: 'demo' }).returning('id').executeTakeFirstOrThrow();
    const model = await t.db.insertInto('ai_models').values({ name: 'Скоро выключат', kind: 'image', connection_id: demo.id, provider_model: 'demo', media_price_tenths: 10 }).returning('id').executeTakeFirstOrThrow();
    const category = await t.db.selectFrom('ai_categories').select('id').executeTakeFirstOrThrow();
    const product = await t.db.insertInto('ai_products').values({ category_id: category.id, variant: 'img', name: 'Продукт на выключенном', model_id: model.id }).returning('id').executeTakeFirstOrThrow();
    // Queued as the start stores it, switched off before a worker took it.
    const row = await t.db
      .insertInto('generations')
      .values({ user_id: user.id, product_id: product.id, model_id: model.id, variant: 'img', product_name: 'Продукт на выключенном', model_name: 'Скоро выключат', prompt: 'Ждёт', wallet: 'media', cost: 10 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const hold = await placeHold(t.db, { userId: user.id, kind: 'media', amount: 10, idempotencyKey: `generation:${String(row.id)}` });
    await t.db.updateTable('generations').set({ hold_id: hold.id }).where('id', '=', row.id).execute();
    await t.db.updateTable('provider_connections').set({ active: false }).where('id', '=', demo.id).execute();
    await t.ctx.jobs.send(generationJob, { generationId: row.id });
    const done = await finished(user, row.id);
    expect(done).toMatchObject({ status: 'failed', refunded: true, error: `${GENERATION_FAILURES.notConfigured}. ${GENERATION_TEXTS.refunded}`, outputs: [] });
    const admin = await newAdmin(t.db);
    const listed = (await call(t.app, { url: `/api/admin/generations?q=${encodeURIComponent('Продукт на выключенном')}`, token: admin.token })).data.json as { data: { error: string; error_detail: string }[] };
    expect(listed.data[0]?.error_detail).toBe('connection Выключаемое демо is switched off');
    const state = await walletState(t.db, user.id);
    expect(state.balance).toEqual(state.sums);
    expect(state.balance.media).toBe(50);
  });

  it('cancels a queued run (its tokens back), refuses to cancel a finished one, and hides others’ runs', async () => {
    const user = await userWith(5);
    const product = id('Картинка по описанию');
    // A run still queued (its job not picked up): made directly, as the start would.
    const row = await t.db
      .insertInto('generations')
      .values({ user_id: user.id, product_id: product, variant: 'img', product_name: 'Картинка по описанию', model_name: 'Демо-художник', prompt: 'Ждёт', wallet: 'media', cost: 10 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const hold = await placeHold(t.db, { userId: user.id, kind: 'media', amount: 10, idempotencyKey: `generation:${String(row.id)}` });
    await t.db.updateTable('generations').set({ hold_id: hold.id }).where('id', '=', row.id).execute();
    const stranger = await newUser(t.db);
    expect((await call(t.app, { method: 'POST', url: `/api/new/generations/${String(row.id)}/cancel`, token: stranger.token, payload: {} })).statusCode).toBe(404);
    const res = await call(t.app, { method: 'POST', url: `/api/new/generations/${String(row.id)}/cancel`, token: user.token, payload: {} });
    expect(res.data.json).toMatchObject({ status: 'cancelled', refunded: true });
    expect((await walletState(t.db, user.id)).balance.media).toBe(50);

    const ran = (await start(user, { product_id: product, prompt: 'Готово' })).data.json as Generation;
    await finished(user, ran.id);
    const late = await call(t.app, { method: 'POST', url: `/api/new/generations/${String(ran.id)}/cancel`, token: user.token, payload: {} });
    expect(late.statusCode).toBe(409);
    expect(late.data.text).toBe('Эту генерацию уже не отменить');
  });
});

describe('concurrency and history', () => {
  it('20 runs started at once with tokens for 5: exactly 5 run, the rest get 402, balance = ledger', async () => {
    const user = await userWith(5);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => start(user, { product_id: id('Картинка по описанию'), prompt: `Картинка ${String(i)}` })));
    const accepted = results.filter((r) => r.statusCode === 200).map((r) => (r.data.json as Generation).id);
    expect(accepted).toHaveLength(5);
    expect(results.filter((r) => r.statusCode === 402)).toHaveLength(15);
    for (const gid of accepted) expect((await finished(user, gid)).status).toBe('succeeded');
    const state = await walletState(t.db, user.id);
    expect(state.balance).toEqual(state.sums);
    expect(state.balance.media).toBe(0);

    const page = (await call(t.app, { url: '/api/new/generations?type=image&page=1', token: user.token })).data.json as { data: Generation[]; last_page: number };
    expect(page.last_page).toBe(1);
    expect(page.data.map((g) => g.id)).toEqual([...accepted].sort((a, b) => b - a));
    expect(((await call(t.app, { url: '/api/new/generations?type=video', token: user.token })).data.json as { data: unknown[] }).data).toEqual([]);
    expect((await call(t.app, { url: '/api/new/generations?type=music', token: user.token })).statusCode).toBe(400);
  }, 60_000);
});
