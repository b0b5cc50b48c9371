import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogRoutes, PRODUCT_VARIANTS, type CatalogCategory, type ProductDetail } from '@app/contracts';
import { POSTCARD_TEMPLATE, seedAiCatalog, seedGenerationCatalog, seedProductExamples } from '../../src/db/seed.ts';
import { up as fixSeededTemplates } from '../../src/db/migrations/0070_seeded_templates_grammar.ts';
import { fillTemplate, joinPrompt, readProductFields } from '../../src/features/catalog/product-fields.ts';
import { call, createTestApp, newUser, type TestApp, type TestUser } from '../support/index.ts';

/* The generation catalogue's read calls: categories and products (?type=), one product with its price. */

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp({ workers: false });
  await seedAiCatalog(t.db);
  await seedGenerationCatalog(t.db);
  user = await newUser(t.db);
});
afterAll(() => t.close());

const get = (url: string, who: TestUser | null = user) => call(t.app, { url, token: who?.token });
const listed = async (query = '') => ((await get(`${catalogRoutes.products.path}${query}`)).data.json as { categories: CatalogCategory[] }).categories;

describe('GET /api/new/ai-products', () => {
  it('lists the seeded categories with products of every variant, each with its price', async () => {
    const categories = await listed();
    expect(categories.map((c) => c.name)).toEqual(['Изображения', 'Видео', 'Тексты']);
    const products = categories.flatMap((c) => c.products);
    expect(new Set(products.map((p) => p.variant))).toEqual(new Set(PRODUCT_VARIANTS));
    const picture = products.find((p) => p.variant === 'img');
    expect(picture).toMatchObject({ name: 'Картинка по описанию', model: 'Демо-художник', provider: 'Демо', price: { wallet: 'media', amount: 1, up_to: false }, example_url: null });
    expect(products.every((p) => p.example_url === null)).toBe(true);
    // Video: 0.5 a second for the first choice (4 seconds).
    expect(products.find((p) => p.variant === 'video')?.price).toEqual({ wallet: 'media', amount: 2, up_to: false });
    const text = products.find((p) => p.variant === 'text_1');
    expect(text?.price.wallet).toBe('words');
    expect(text?.price.up_to).toBe(true);
    expect(text?.price.amount).toBeGreaterThan(800);
  });

  it('filters by type: ?type=video shows video products only, image and text the others', async () => {
    expect((await listed('?type=video')).flatMap((c) => c.products.map((p) => p.variant))).toEqual(['video']);
    expect(new Set((await listed('?type=image')).flatMap((c) => c.products.map((p) => p.variant)))).toEqual(new Set(['img', 'img_2', 'img_3', 'img_4', 'mask']));
    expect((await listed('?type=text')).map((c) => c.name)).toEqual(['Тексты']);
    const bad = await get(`${catalogRoutes.products.path}?type=music`);
    expect(bad.statusCode).toBe(400);
    expect(bad.data.text).toEqual({ type: ['Тип: video, image или text'] });
  });

  it('hides inactive products, categories, models and connections', async () => {
    const video = await t.db.selectFrom('ai_products').select(['id', 'model_id']).where('variant', '=', 'video').executeTakeFirstOrThrow();
    await t.db.updateTable('ai_models').set({ active: false }).where('id', '=', video.model_id).execute();
    expect(await listed('?type=video')).toEqual([]);
    expect((await get(`/api/new/ai-products/${String(video.id)}`)).statusCode).toBe(404);
    await t.db.updateTable('ai_models').set({ active: true }).where('id', '=', video.model_id).execute();
    const texts = await t.db.selectFrom('ai_categories').select('id').where('name', '=', 'Тексты').executeTakeFirstOrThrow();
    await t.db.updateTable('ai_categories').set({ active: false }).where('id', '=', texts.id).execute();
    expect((await listed()).map((c) => c.name)).toEqual(['Изображения', 'Видео']);
    await t.db.updateTable('ai_categories').set({ active: true }).where('id', '=', texts.id).execute();
  });

  it('is for signed-in users', async () => {
    expect((await get(catalogRoutes.products.path, null)).statusCode).toBe(401);
    expect((await get('/api/new/ai-products/1', null)).statusCode).toBe(401);
  });
});

describe('GET /api/new/ai-products/{id}', () => {
  it('answers a template product with its fields, parameter choices priced each, and the inputs its screen asks for', async () => {
    const row = await t.db.selectFrom('ai_products').select('id').where('variant', '=', 'img_3').executeTakeFirstOrThrow();
    const res = await get(`/api/new/ai-products/${String(row.id)}`);
    expect(res.statusCode).toBe(200);
    const product = res.data.json as ProductDetail;
    expect(product).toMatchObject({ name: 'Открытка к празднику', category: 'Изображения', inputs: { prompt: false, fields: true, image: 'none', mask: false } });
    expect(product.fields.map((f) => [f.name, f.required])).toEqual([
      ['occasion', true],
      ['recipient', true],
      ['style', false],
    ]);
    expect(product.params.map((p) => p.label)).toEqual(['Квадрат 1024×1024', 'Портрет 768×1024', 'Пейзаж 1024×768']);
  });

  it('prices video by the chosen duration, and asks the mask screen for an image and a mask', async () => {
    const video = await t.db.selectFrom('ai_products').select('id').where('variant', '=', 'video').executeTakeFirstOrThrow();
    const detail = (await get(`/api/new/ai-products/${String(video.id)}`)).data.json as ProductDetail;
    expect(detail.params.map((p) => [p.value, p.price.amount])).toEqual([
      ['4', 2],
      ['8', 4],
    ]);
    expect(detail.inputs.image).toBe('optional');
    const mask = await t.db.selectFrom('ai_products').select('id').where('variant', '=', 'mask').executeTakeFirstOrThrow();
    expect(((await get(`/api/new/ai-products/${String(mask.id)}`)).data.json as ProductDetail).inputs).toEqual({ prompt: true, fields: false, image: 'required', mask: true });
  });

  it('answers 404 for an unknown product and 400 for a malformed id', async () => {
    const missing = await get('/api/new/ai-products/999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.data.text).toBe('Продукт не найден');
    expect((await get('/api/new/ai-products/abc')).statusCode).toBe(400);
    expect((await get('/api/new/ai-products/-1')).statusCode).toBe(400);
  });
});

describe('example images', () => {
  it('the seed draws one for every product; any signed-in user sees it, guests do not, the file route keeps it for admins', async () => {
    expect(await seedProductExamples(t.db, t.ctx.storage)).toBe(8);
    expect(await seedProductExamples(t.db, t.ctx.storage)).toBe(0);
    const products = (await listed()).flatMap((c) => c.products);
    expect(products.every((p) => p.example_url === `/api/new/ai-products/${String(p.id)}/example`)).toBe(true);
    const other = await newUser(t.db);
    const url = products[0]?.example_url ?? '';
    const image = await t.app.inject({ url, headers: { authorization: `Bearer ${other.token}` } });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['cache-control']).toBe('private, max-age=86400');
    expect((await t.app.inject({ url })).statusCode).toBe(401);
    const fileId = (await t.db.selectFrom('ai_products').select('example_file_id').where('id', '=', products[0]?.id ?? 0).executeTakeFirstOrThrow()).example_file_id;
    expect((await t.app.inject({ url: `/api/new/files/${String(fileId)}`, headers: { authorization: `Bearer ${other.token}` } })).statusCode).toBe(404);
    const bare = await t.db.insertInto('ai_products').values({ category_id: products[0]?.category_id ?? 0, variant: 'img', name: 'Без примера', model_id: (await t.db.selectFrom('ai_models').select('id').where('kind', '=', 'image').executeTakeFirstOrThrow()).id }).returning('id').executeTakeFirstOrThrow();
    const none = await t.app.inject({ url: `/api/new/ai-products/${String(bare.id)}/example`, headers: { authorization: `Bearer ${other.token}` } });
    expect(none.statusCode).toBe(404);
  });
});

describe('template fields', () => {
  it('reads stored fields tolerantly and fills the template', () => {
    expect(readProductFields('not json')).toEqual([]);
    expect(readProductFields([{ name: 'Bad Name' }, { name: 'ok', label: 'Поле' }, { name: 'ok' }, 'x'])).toEqual([{ name: 'ok', label: 'Поле', placeholder: '', multiline: false, required: true, max_length: 500 }]);
    expect(fillTemplate('Открытка к «{occasion}» для {who}, {missing}', { occasion: 'Новый год', who: 'друга' })).toBe('Открытка к «Новый год» для друга, {missing}');
  });

  it('an optional field left empty takes its label with it: no «Тон: .» or dangling comma', () => {
    const post = 'Напиши пост для соцсетей на тему «{topic}». Тон: {tone}. Добавь призыв к действию.';
    expect(fillTemplate(post, { topic: 'Открытие кофейни', tone: 'дружелюбный' })).toBe('Напиши пост для соцсетей на тему «Открытие кофейни». Тон: дружелюбный. Добавь призыв к действию.');
    expect(fillTemplate(post, { topic: 'Открытие кофейни', tone: '' })).toBe('Напиши пост для соцсетей на тему «Открытие кофейни». Добавь призыв к действию.');
    const card = 'Праздничная открытка к событию «{occasion}». Кому: {recipient}. Стиль: {style}';
    expect(fillTemplate(card, { occasion: 'День рождения', recipient: 'Бабушке Нине', style: '' })).toBe('Праздничная открытка к событию «День рождения». Кому: Бабушке Нине.');
    expect(fillTemplate(card, { occasion: 'День рождения', recipient: 'бабушка Нина', style: 'акварель' })).toBe('Праздничная открытка к событию «День рождения». Кому: бабушка Нина. Стиль: акварель');
  });

  it('a database seeded with the old postcard gets the new text; a template staff changed is left alone', async () => {
    const postcard = await t.db.selectFrom('ai_products').select(['id', 'category_id', 'model_id']).where('name', '=', 'Открытка к празднику').executeTakeFirstOrThrow();
    expect((await t.db.selectFrom('ai_products').select('prompt_template').where('id', '=', postcard.id).executeTakeFirstOrThrow()).prompt_template).toBe(POSTCARD_TEMPLATE);
    const old = 'Праздничная открытка к событию «{occasion}» для {recipient}, стиль: {style}';
    await t.db.updateTable('ai_products').set({ prompt_template: old }).where('id', '=', postcard.id).execute();
    const own = await t.db.insertInto('ai_products').values({ category_id: postcard.category_id, model_id: postcard.model_id, variant: 'img_3', name: 'Своя открытка', prompt_template: `${old} и блёстки`, active: false }).returning('id').executeTakeFirstOrThrow();
    await fixSeededTemplates(t.db as unknown as Parameters<typeof fixSeededTemplates>[0]);
    const templates = await t.db.selectFrom('ai_products').select(['id', 'prompt_template']).where('id', 'in', [postcard.id, own.id]).orderBy('id').execute();
    expect(templates).toEqual([{ id: postcard.id, prompt_template: POSTCARD_TEMPLATE }, { id: own.id, prompt_template: `${old} и блёстки` }]);
  });

  it('a lead-in and the user’s prompt join as sentences: never «кофейни:. Кофейня»', () => {
    expect(joinPrompt('Рекламный баннер для кофейни:', 'Кофейня у моря, утро')).toBe('Рекламный баннер для кофейни: Кофейня у моря, утро');
    expect(joinPrompt('Перерисовать фото в стиле примера', 'добавь снег')).toBe('Перерисовать фото в стиле примера. добавь снег');
    expect(joinPrompt('В стиле акварели.', 'кот')).toBe('В стиле акварели. кот');
    expect(joinPrompt('', 'кот')).toBe('кот');
    expect(joinPrompt('Фон: студия  ', '')).toBe('Фон: студия');
  });
});
