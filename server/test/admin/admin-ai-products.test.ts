import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminAiCategory, AdminAiProduct } from '@app/contracts';
import { createTestApp, multipart, newAdmin, newUser, type Part, type TestApp, type TestUser } from '../support/index.ts';
import { TINY_PNG } from '../support/ai-fakes.ts';
import { adminCalls, catalogState, expectRefused, fieldErrorsOf, json, type Page } from './admin-ai-support.ts';
import { TINY_JPEG, pixelsOf } from '../support/images.ts';

/*
 * The admin's generation catalogue: categories and products (every field, the model of the
 * variant's kind, template fields as the runtime reads them), example images stored as the
 * service's own files, deletion (or switching off when runs refer to a product); every change
 * audited with who, before and after; refusals in Russian that change nothing.
 */

let t: TestApp;
let admin: TestUser;
let api: ReturnType<typeof adminCalls>;
const models: Record<'image' | 'video' | 'text' | 'chat', number> = { image: 0, video: 0, text: 0, chat: 0 };
let category: number;

const JPEG = TINY_JPEG;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');

beforeAll(async () => {
  t = await createTestApp({ workers: false });
  admin = await newAdmin(t.db);
  api = adminCalls(t, admin);
  const demo = await t.db.insertInto('provider_connections').values({ name: 'Демо', protocol: 'demo' }).returning('id').executeTakeFirstOrThrow();
  for (const kind of ['image', 'video', 'text', 'chat'] as const) {
    models[kind] = (await t.db.insertInto('ai_models').values({ name: `Демо ${kind}`, kind, connection_id: demo.id, provider_model: `demo-${kind}`, media_price_tenths: 10 }).returning('id').executeTakeFirstOrThrow()).id;
  }
  category = (await t.db.insertInto('ai_categories').values({ name: 'Основная' }).returning('id').executeTakeFirstOrThrow()).id;
});
afterAll(() => t.close());

const template = {
  category_id: 0,
  variant: 'img_3',
  name: 'Открытка',
  description: 'Праздничная открытка',
  prompt_template: 'Открытка к празднику «{occasion}» для {recipient}',
  fields: [
    { name: 'occasion', label: 'Праздник', placeholder: 'День рождения', max_length: 100 },
    { name: 'recipient', label: 'Кому', required: false, multiline: true },
  ],
  model_id: 0,
  sort: 5,
  active: true,
};
const newTemplate = (over: Record<string, unknown> = {}) => ({ ...template, category_id: category, model_id: models.image, ...over });

async function created(body: Record<string, unknown>): Promise<AdminAiProduct> {
  const res = await api.post('/api/admin/ai-products', body);
  expect(res.statusCode, res.body).toBe(200);
  return (json(res) as AdminAiProduct);
}

const uploadExample = (id: number, file: Part['file'], token = admin.token) => {
  const body = multipart(file ? [{ name: 'image', file }] : [{ name: 'note', value: 'без файла' }]);
  return t.app.inject({ method: 'POST', url: `/api/admin/ai-products/${String(id)}/example`, payload: body.payload, headers: { ...body.headers, authorization: `Bearer ${token}` } });
};

/** A run of `productId` in someone's history. */
async function runOf(productId: number): Promise<void> {
  const user = await newUser(t.db);
  await t.db
    .insertInto('generations')
    .values({ user_id: user.id, product_id: productId, model_id: models.image, variant: 'img', product_name: 'Запуск', model_name: 'Демо', wallet: 'media', status: 'succeeded' })
    .execute();
}

describe('AI products: create, read, list', () => {
  it('says when users do not see a product that is on (its model’s connection, model or category is off), and its price as the catalogue shows it', async () => {
    const product = await created(newTemplate());
    expect(product.hidden_because).toBeNull();
    expect(product.price).toMatchObject({ wallet: 'media', up_to: false });
    const model = await t.db.selectFrom('ai_models').select('connection_id').where('id', '=', models.image).executeTakeFirstOrThrow();
    await t.db.updateTable('provider_connections').set({ active: false }).where('id', '=', model.connection_id).execute();
    try {
      const read = json(await api.get(`/api/admin/ai-products/${String(product.id)}`)) as AdminAiProduct;
      expect(read).toMatchObject({ active: true, hidden_because: 'connection' });
      const listed = json(await api.get(`/api/admin/ai-products?q=${encodeURIComponent(product.name)}`)) as { data: AdminAiProduct[] };
      expect(listed.data.find((p) => p.id === product.id)?.hidden_because).toBe('connection');
      // Saved again: the reply says so, so the editor can warn.
      expect((json(await api.patch(`/api/admin/ai-products/${String(product.id)}`, { sort: 7 })) as AdminAiProduct).hidden_because).toBe('connection');
      // Switched off itself, it is simply off.
      expect((json(await api.patch(`/api/admin/ai-products/${String(product.id)}`, { active: false })) as AdminAiProduct).hidden_because).toBeNull();
    } finally {
      await t.db.updateTable('provider_connections').set({ active: true }).where('id', '=', model.connection_id).execute();
    }
  });

  it('creates a product with every field; reads it back as the runtime reads it; the audit log has who and what', async () => {
    const product = await created(newTemplate());
    expect(product).toMatchObject({
      category_id: category,
      category: 'Основная',
      variant: 'img_3',
      name: 'Открытка',
      description: 'Праздничная открытка',
      prompt_template: 'Открытка к празднику «{occasion}» для {recipient}',
      model_id: models.image,
      model: 'Демо image',
      model_kind: 'image',
      example_url: null,
      sort: 5,
      active: true,
    });
    expect(product.fields).toEqual([
      { name: 'occasion', label: 'Праздник', placeholder: 'День рождения', multiline: false, required: true, max_length: 100 },
      { name: 'recipient', label: 'Кому', placeholder: '', multiline: true, required: false, max_length: 500 },
    ]);
    expect((json(await api.get(`/api/admin/ai-products/${String(product.id)}`)) as AdminAiProduct)).toEqual(product);
    const [audit] = await api.audit('ai_product', product.id);
    expect(audit).toMatchObject({ action: 'ai_product.create', actor_id: admin.id, actor_email: admin.email, before: null, after: { name: 'Открытка', variant: 'img_3', model_id: models.image, fields: product.fields } });
    // The log names the records the values refer to, as they are called now.
    const modelName = (await t.db.selectFrom('ai_models').select('name').where('id', '=', models.image).executeTakeFirstOrThrow()).name;
    const categoryName = (await t.db.selectFrom('ai_categories').select('name').where('id', '=', product.category_id).executeTakeFirstOrThrow()).name;
    expect(audit?.names).toEqual({ [`model_id:${String(models.image)}`]: modelName, [`category_id:${String(product.category_id)}`]: categoryName });
    // A user sees it in the catalogue, with its fields.
    const user = await newUser(t.db);
    const detail = await api.as(user.token).get(`/api/new/ai-products/${String(product.id)}`);
    expect(detail.statusCode).toBe(200);
    expect((json(detail) as { fields: unknown }).fields).toEqual(product.fields);
  });

  it('lists 20 a page with last_page, searches by name (% and _ as themselves), filters by category and variant, sorts by a named column', async () => {
    const tag = crypto.randomBytes(3).toString('hex');
    const other = (json(await api.post('/api/admin/ai-categories', { name: `Другая ${tag}` })) as AdminAiCategory);
    for (let i = 0; i < 21; i++) await created({ category_id: category, variant: 'img', name: `${tag} картинка ${String(i).padStart(2, '0')}`, model_id: models.image });
    await created({ category_id: other.id, variant: 'video', name: `${tag}_видео`, model_id: models.video });
    const first = (json(await api.get(`/api/admin/ai-products?q=${tag}&sort=name&dir=asc`)) as Page<AdminAiProduct>);
    expect(first.last_page).toBe(2);
    expect(first.data).toHaveLength(20);
    expect(first.data[0]?.name).toBe(`${tag} картинка 00`);
    const second = (json(await api.get(`/api/admin/ai-products?q=${tag}&sort=name&dir=asc&page=2`)) as Page<AdminAiProduct>);
    expect(second.data.map((p) => p.name)).toEqual([`${tag} картинка 20`, `${tag}_видео`]);
    expect((json(await api.get(`/api/admin/ai-products?q=${tag}_`)) as Page<AdminAiProduct>).data.map((p) => p.name)).toEqual([`${tag}_видео`]);
    expect((json(await api.get('/api/admin/ai-products?q=%25')) as Page<AdminAiProduct>).data).toEqual([]);
    expect((json(await api.get(`/api/admin/ai-products?category_id=${String(other.id)}`)) as Page<AdminAiProduct>).data.map((p) => p.name)).toEqual([`${tag}_видео`]);
    expect((json(await api.get(`/api/admin/ai-products?q=${tag}&variant=video`)) as Page<AdminAiProduct>).data).toHaveLength(1);
    const newest = (json(await api.get(`/api/admin/ai-products?q=${tag}&sort=id&dir=desc`)) as Page<AdminAiProduct>);
    expect(newest.data[0]?.name).toBe(`${tag}_видео`);
  });

  it('refuses unknown sorts, variants, directions, pages and ids in Russian', async () => {
    for (const query of ['sort=prompt_template', 'dir=up', 'page=0', 'variant=img_9', 'category_id=abc', `q=${'x'.repeat(201)}`]) {
      expectRefused(await api.get(`/api/admin/ai-products?${query}`), query);
    }
    for (const id of ['abc', '0', '-1', '1.5', '99999999999']) expectRefused(await api.get(`/api/admin/ai-products/${id}`), id);
    const missing = await api.get('/api/admin/ai-products/2147483647');
    expect(missing.statusCode).toBe(404);
    expect(missing.data.text).toBe('Продукт не найден');
  });
});

describe('AI products: what the editor may not send', () => {
  it('refuses missing, malformed and hostile products in Russian, per field, storing nothing', async () => {
    const before = await catalogState(t.db);
    const cases: [string, Record<string, unknown>, string][] = [
      ['no name', newTemplate({ name: undefined }), 'name'],
      ['blank name', newTemplate({ name: '   ' }), 'name'],
      ['long name', newTemplate({ name: 'я'.repeat(101) }), 'name'],
      ['unknown variant', newTemplate({ variant: 'img_9' }), 'variant'],
      ['category as text', newTemplate({ category_id: '1' }), 'category_id'],
      ['category out of range', newTemplate({ category_id: 99_999_999_999 }), 'category_id'],
      ['no such category', newTemplate({ category_id: 2_147_483_647 }), 'category_id'],
      ['no such model', newTemplate({ model_id: 2_147_483_647 }), 'model_id'],
      ['a video model for an image variant', newTemplate({ model_id: models.video }), 'model_id'],
      ['a chat model for a text product', newTemplate({ variant: 'text_1', model_id: models.chat }), 'model_id'],
      ['a placeholder without its field', newTemplate({ prompt_template: 'Открытка {occasion} для {recipient} от {sender}' }), 'prompt_template'],
      ['a field the template does not use', newTemplate({ prompt_template: 'Открытка {occasion}' }), 'fields'],
      ['a template variant without fields', newTemplate({ fields: [], prompt_template: '' }), 'fields'],
      ['fields for a variant that takes none', newTemplate({ variant: 'img', prompt_template: '' }), 'fields'],
      ['a repeated field', newTemplate({ fields: [...template.fields, { name: 'occasion', label: 'Ещё раз' }] }), 'fields'],
      ['a field name the reader drops', newTemplate({ fields: [{ name: 'Occasion!', label: 'Праздник' }] }), 'fields'],
      ['a field without a label', newTemplate({ fields: [{ name: 'occasion' }] }), 'fields'],
      ['a huge field length', newTemplate({ fields: [{ name: 'occasion', label: 'П', max_length: 1e9 }] }), 'fields'],
      ['fields not a list', newTemplate({ fields: { occasion: 'x' } }), 'fields'],
      ['sort beyond range', newTemplate({ sort: 1e12 }), 'sort'],
      ['active as text', newTemplate({ active: 'yes' }), 'active'],
    ];
    for (const [label, body, field] of cases) {
      const res = await api.post('/api/admin/ai-products', body);
      expectRefused(res, label);
      expect(Object.keys(fieldErrorsOf(res)), label).toContain(field);
    }
    const repeated = await api.post('/api/admin/ai-products', newTemplate({ fields: [...template.fields, { name: 'occasion', label: 'Ещё раз' }] }));
    expect(fieldErrorsOf(repeated)).toEqual({ fields: ['Поле «occasion» повторяется'] });
    // Fields the editor has no business setting are refused as a whole.
    for (const extra of [{ id: 1 }, { example_file_id: 1 }, { created_at: '2020-01-01' }]) expectRefused(await api.post('/api/admin/ai-products', newTemplate(extra)), JSON.stringify(extra));
    expectRefused(await api.post('/api/admin/ai-products', []), 'a list');
    expect(await catalogState(t.db)).toEqual(before);
  });
});

describe('AI products: update', () => {
  it('changes any field; the audit log has before and after; the catalogue shows the change at once', async () => {
    const product = await created(newTemplate({ name: 'До правки' }));
    const res = await api.patch(`/api/admin/ai-products/${String(product.id)}`, {
      name: 'После правки',
      description: 'Новое описание',
      prompt_template: 'Открытка «{occasion}»',
      fields: [{ name: 'occasion', label: 'Повод' }],
      sort: 1,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((json(res) as AdminAiProduct)).toMatchObject({ name: 'После правки', description: 'Новое описание', prompt_template: 'Открытка «{occasion}»', sort: 1 });
    expect((json(res) as AdminAiProduct).fields.map((f) => f.name)).toEqual(['occasion']);
    const [audit] = await api.audit('ai_product', product.id);
    expect(audit).toMatchObject({
      action: 'ai_product.update',
      actor_id: admin.id,
      before: { name: 'До правки', description: 'Праздничная открытка', sort: 5 },
      after: { name: 'После правки', description: 'Новое описание', sort: 1 },
    });
    expect((audit?.before as { fields: unknown[] }).fields).toHaveLength(2);
    expect((audit?.after as { fields: unknown[] }).fields).toHaveLength(1);
    const user = await newUser(t.db);
    const listed = (json(await api.as(user.token).get('/api/new/ai-products')) as { categories: { products: { id: number; name: string }[] }[] });
    expect(listed.categories.flatMap((c) => c.products).find((p) => p.id === product.id)?.name).toBe('После правки');
    // Switched off: gone from the catalogue.
    await api.patch(`/api/admin/ai-products/${String(product.id)}`, { active: false });
    expect((await api.as(user.token).get(`/api/new/ai-products/${String(product.id)}`)).statusCode).toBe(404);
  });

  it('checks a change against the rest of the product: the variant against the model, fields against the template', async () => {
    const product = await created(newTemplate());
    const before = await catalogState(t.db);
    const bad: [Record<string, unknown>, string][] = [
      [{ variant: 'video' }, 'model_id'],
      [{ model_id: models.text }, 'model_id'],
      [{ variant: 'img' }, 'fields'],
      [{ prompt_template: 'Только {occasion}' }, 'fields'],
      [{}, ''],
      [{ name: null }, 'name'],
      [{ example_file_id: null }, ''],
    ];
    for (const [body, field] of bad) {
      const res = await api.patch(`/api/admin/ai-products/${String(product.id)}`, body);
      expectRefused(res, JSON.stringify(body));
      if (field) expect(Object.keys(fieldErrorsOf(res)), JSON.stringify(body)).toContain(field);
    }
    expect(await catalogState(t.db)).toEqual(before);
    // Variant and model together make a valid change.
    const moved = await api.patch(`/api/admin/ai-products/${String(product.id)}`, { variant: 'text_1', model_id: models.text });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((json(moved) as AdminAiProduct)).toMatchObject({ variant: 'text_1', model_kind: 'text' });
    const missing = await api.patch('/api/admin/ai-products/2147483647', { name: 'Нет такого' });
    expect(missing.statusCode).toBe(404);
    expect(missing.data.text).toBe('Продукт не найден');
  });

  it('a change that changes nothing writes no audit record', async () => {
    const product = await created(newTemplate());
    expect((await api.patch(`/api/admin/ai-products/${String(product.id)}`, { name: product.name, sort: product.sort })).statusCode).toBe(200);
    expect((await api.audit('ai_product', product.id)).map((a) => a.action)).toEqual(['ai_product.create']);
  });
});

describe('AI products: example image', () => {
  it('a PNG is stored as the service’s own file and served by the catalogue’s example route; a new one replaces it', async () => {
    const product = await created(newTemplate());
    const res = await uploadExample(product.id, { filename: 'пример.png', type: 'image/png', data: TINY_PNG });
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json<{ json: AdminAiProduct }>().json;
    expect(after.example_url).toMatch(/^\/api\/new\/files\/\d+$/);
    const row = await t.db.selectFrom('ai_products').select('example_file_id').where('id', '=', product.id).executeTakeFirstOrThrow();
    const file = await t.db.selectFrom('files').selectAll().where('id', '=', Number(row.example_file_id)).executeTakeFirstOrThrow();
    expect(file).toMatchObject({ owner_id: null, purpose: 'product_example', content_type: 'image/png' });
    const user = await newUser(t.db);
    const served = await t.app.inject({ url: `/api/new/ai-products/${String(product.id)}/example`, headers: { authorization: `Bearer ${user.token}` } });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    // The picture as it was stored: its pixels, written anew without metadata.
    expect(served.rawPayload.length).toBe(file.size);
    expect(await pixelsOf(served.rawPayload)).toEqual(await pixelsOf(TINY_PNG));
    const asAdmin = await t.app.inject({ url: after.example_url ?? '', headers: { authorization: `Bearer ${admin.token}` } });
    expect(asAdmin.rawPayload.equals(served.rawPayload)).toBe(true);
    // The user's catalogue links the example.
    expect((json(await api.as(user.token).get(`/api/new/ai-products/${String(product.id)}`)) as { example_url: string | null }).example_url).toBe(`/api/new/ai-products/${String(product.id)}/example`);

    const replaced = await uploadExample(product.id, { filename: 'new.jpg', type: 'image/jpeg', data: JPEG });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(await t.db.selectFrom('files').select('id').where('id', '=', file.id).executeTakeFirst()).toBeUndefined();
    expect(await t.ctx.storage.get(file.storage_key)).toBeNull();
    const again = await t.app.inject({ url: `/api/new/ai-products/${String(product.id)}/example`, headers: { authorization: `Bearer ${user.token}` } });
    expect(again.headers['content-type']).toBe('image/jpeg');
    const audit = await api.audit('ai_product', product.id);
    expect(audit.slice(0, 2).map((a) => [a.action, (a.before as { example_file_id: unknown }).example_file_id])).toEqual([
      ['ai_product.example', file.id],
      ['ai_product.example', null],
    ]);
    expect(audit[1]?.after).toMatchObject({ example_file_id: file.id, content_type: 'image/png', name: 'пример.png' });

    const removed = await api.del(`/api/admin/ai-products/${String(product.id)}/example`);
    expect((json(removed) as AdminAiProduct).example_url).toBeNull();
    expect((await t.app.inject({ url: `/api/new/ai-products/${String(product.id)}/example`, headers: { authorization: `Bearer ${user.token}` } })).statusCode).toBe(404);
  });

  it('refuses a PDF named .png, a missing file and an unknown product, storing nothing', async () => {
    const product = await created(newTemplate());
    const before = await catalogState(t.db);
    const pdf = await uploadExample(product.id, { filename: 'example.png', type: 'image/png', data: PDF });
    expect(pdf.statusCode).toBe(415);
    expect(JSON.stringify(pdf.json())).toMatch(/PNG, JPEG или WebP/);
    const none = await uploadExample(product.id, undefined);
    expect(none.statusCode).toBe(400);
    expect(JSON.stringify(none.json())).toMatch(/Прикрепите файл/);
    const unknown = await uploadExample(2_147_483_647, { filename: 'ok.png', type: 'image/png', data: TINY_PNG });
    expect(unknown.statusCode).toBe(404);
    const json = await t.app.inject({ method: 'POST', url: `/api/admin/ai-products/${String(product.id)}/example`, payload: { image: TINY_PNG.toString('base64') }, headers: { authorization: `Bearer ${admin.token}` } });
    expect(json.statusCode).toBe(415);
    expect(await catalogState(t.db)).toEqual(before);
  });
});

describe('AI products: delete', () => {
  it('deletes a product nobody ran, with its example file', async () => {
    const product = await created(newTemplate());
    await uploadExample(product.id, { filename: 'x.png', type: 'image/png', data: TINY_PNG });
    const fileId = Number((await t.db.selectFrom('ai_products').select('example_file_id').where('id', '=', product.id).executeTakeFirstOrThrow()).example_file_id);
    const res = await api.del(`/api/admin/ai-products/${String(product.id)}`);
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({ outcome: 'deleted' });
    expect((await api.get(`/api/admin/ai-products/${String(product.id)}`)).statusCode).toBe(404);
    expect(await t.db.selectFrom('files').select('id').where('id', '=', fileId).executeTakeFirst()).toBeUndefined();
    const [audit] = await api.audit('ai_product', product.id);
    expect(audit).toMatchObject({ action: 'ai_product.delete', actor_id: admin.id, before: { name: product.name, example_file_id: fileId }, after: null });
    expect((await api.del(`/api/admin/ai-products/${String(product.id)}`)).statusCode).toBe(404);
  });

  it('switches off a product that runs refer to: the history keeps it, users no longer see it', async () => {
    const product = await created(newTemplate());
    await runOf(product.id);
    const res = await api.del(`/api/admin/ai-products/${String(product.id)}`);
    expect(json(res)).toEqual({ outcome: 'deactivated' });
    expect((json(await api.get(`/api/admin/ai-products/${String(product.id)}`)) as AdminAiProduct).active).toBe(false);
    const run = await t.db.selectFrom('generations').select('product_id').where('product_id', '=', product.id).executeTakeFirst();
    expect(run?.product_id).toBe(product.id);
    const user = await newUser(t.db);
    expect((await api.as(user.token).get(`/api/new/ai-products/${String(product.id)}`)).statusCode).toBe(404);
    const [audit] = await api.audit('ai_product', product.id);
    expect(audit).toMatchObject({ action: 'ai_product.deactivate', before: { active: true }, after: { active: false } });
  });
});

describe('AI categories', () => {
  it('creates, lists, reads, updates; each change audited', async () => {
    const tag = crypto.randomBytes(3).toString('hex');
    const res = await api.post('/api/admin/ai-categories', { name: `Видео ${tag}`, description: 'Ролики', sort: 3, active: false });
    expect(res.statusCode, res.body).toBe(200);
    const made = (json(res) as AdminAiCategory);
    expect(made).toMatchObject({ name: `Видео ${tag}`, description: 'Ролики', sort: 3, active: false, products: 0 });
    expect((json(await api.get(`/api/admin/ai-categories/${String(made.id)}`)) as AdminAiCategory)).toEqual(made);
    const list = (json(await api.get(`/api/admin/ai-categories?q=${tag}&sort=name`)) as Page<AdminAiCategory>);
    expect(list).toEqual({ data: [made], last_page: 1 });
    const updated = (json(await api.patch(`/api/admin/ai-categories/${String(made.id)}`, { active: true, description: '' })) as AdminAiCategory);
    expect(updated).toMatchObject({ active: true, description: '' });
    const audit = await api.audit('ai_category', made.id);
    expect(audit.map((a) => [a.action, a.before, a.after])).toEqual([
      ['ai_category.update', { name: `Видео ${tag}`, description: 'Ролики', sort: 3, active: false }, { name: `Видео ${tag}`, description: '', sort: 3, active: true }],
      ['ai_category.create', null, { name: `Видео ${tag}`, description: 'Ролики', sort: 3, active: false }],
    ]);
    expect(audit.every((a) => a.actor_id === admin.id)).toBe(true);
    // A switched-off category hides its products from users.
    await created({ category_id: made.id, variant: 'img', name: `В категории ${tag}`, model_id: models.image });
    await api.patch(`/api/admin/ai-categories/${String(made.id)}`, { active: false });
    const user = await newUser(t.db);
    const listed = (json(await api.as(user.token).get('/api/new/ai-products')) as { categories: { id: number }[] });
    expect(listed.categories.map((c) => c.id)).not.toContain(made.id);
  });

  it('refuses to delete a category with products, in Russian, changing nothing; deletes an empty one', async () => {
    const full = (json(await api.post('/api/admin/ai-categories', { name: 'С продуктами' })) as AdminAiCategory);
    await created({ category_id: full.id, variant: 'img', name: 'Жилец', model_id: models.image });
    const before = await catalogState(t.db);
    const res = await api.del(`/api/admin/ai-categories/${String(full.id)}`);
    expect(res.statusCode).toBe(409);
    expect(res.data.code).toBe('IN_USE');
    expect(res.data.text).toMatch(/^В категории есть продукты \(1\)/);
    expect(await catalogState(t.db)).toEqual(before);
    const empty = (json(await api.post('/api/admin/ai-categories', { name: 'Пустая' })) as AdminAiCategory);
    expect(json(await api.del(`/api/admin/ai-categories/${String(empty.id)}`))).toEqual({ outcome: 'deleted' });
    expect((await api.get(`/api/admin/ai-categories/${String(empty.id)}`)).statusCode).toBe(404);
    expect((await api.audit('ai_category', empty.id))[0]).toMatchObject({ action: 'ai_category.delete', before: { name: 'Пустая' }, after: null });
    const missing = await api.del('/api/admin/ai-categories/2147483647');
    expect(missing.statusCode).toBe(404);
    expect(missing.data.text).toBe('Категория не найдена');
  });

  it('refuses malformed categories and changes in Russian, changing nothing', async () => {
    const made = (json(await api.post('/api/admin/ai-categories', { name: 'Неизменная' })) as AdminAiCategory);
    const before = await catalogState(t.db);
    for (const body of [{}, { name: '' }, { name: 5 }, { name: 'x'.repeat(101) }, { name: 'Ок', sort: 'first' }, { name: 'Ок', id: 9 }, { name: 'Ок', description: 'я'.repeat(2001) }]) {
      expectRefused(await api.post('/api/admin/ai-categories', body), JSON.stringify(body).slice(0, 60));
    }
    for (const body of [{}, { name: '   ' }, { active: 1 }, { products: 0 }]) expectRefused(await api.patch(`/api/admin/ai-categories/${String(made.id)}`, body), JSON.stringify(body));
    for (const query of ['sort=description', 'dir=down', 'page=-1']) expectRefused(await api.get(`/api/admin/ai-categories?${query}`), query);
    expect(await catalogState(t.db)).toEqual(before);
  });
});

describe('access', () => {
  it('every product and category endpoint: 401 for a guest, 403 for a user, nothing changed', async () => {
    const product = await created(newTemplate());
    const user = await newUser(t.db);
    const before = await catalogState(t.db);
    const p = `/api/admin/ai-products/${String(product.id)}`;
    const c = `/api/admin/ai-categories/${String(category)}`;
    for (const token of [undefined, user.token]) {
      const as = api.as(token);
      const replies = [
        await as.get('/api/admin/ai-products'),
        await as.get(p),
        await as.post('/api/admin/ai-products', newTemplate()),
        await as.patch(p, { name: 'Взлом' }),
        await as.del(p),
        await as.del(`${p}/example`),
        await as.get('/api/admin/ai-categories'),
        await as.get(c),
        await as.post('/api/admin/ai-categories', { name: 'Взлом' }),
        await as.patch(c, { name: 'Взлом' }),
        await as.del(c),
      ];
      for (const res of replies) expect(res.statusCode, res.body).toBe(token ? 403 : 401);
      const upload = await uploadExample(product.id, { filename: 'x.png', type: 'image/png', data: TINY_PNG }, token ?? '');
      expect(upload.statusCode).toBe(token ? 403 : 401);
    }
    expect(await catalogState(t.db)).toEqual(before);
  });
});
