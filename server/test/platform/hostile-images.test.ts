import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAiCatalog, seedGenerationCatalog } from '../../src/db/seed.ts';
import { call, createTestApp, multipart, newAdmin, startRun, userWithTokens, walletState, type Part, type TestApp, type TestUser } from '../support/index.ts';
import { TINY_PNG } from '../support/ai-fakes.ts';
import { HOSTILE_IMAGES, TINY_JPEG } from '../support/images.ts';

/*
 * Pictures are decoded before they are accepted, on every route that takes them: the chat's
 * attachments (both sends), a run's image and mask, and the admin's product examples. A file that
 * only claims to be a picture is a Russian field error; nothing is stored or charged.
 */

let t: TestApp;
let admin: TestUser;
let chatModel: number;
let maskProduct: number;
let sampleProduct: number;

beforeAll(async () => {
  t = await createTestApp({ workers: false, env: { DEMO_WORD_DELAY_MS: '0' } });
  await seedAiCatalog(t.db);
  await seedGenerationCatalog(t.db);
  admin = await newAdmin(t.db);
  chatModel = (await t.db.selectFrom('ai_models').select('id').where('name', '=', 'Демо-ассистент').executeTakeFirstOrThrow()).id;
  const product = (name: string) => t.db.selectFrom('ai_products').select('id').where('name', '=', name).executeTakeFirstOrThrow();
  maskProduct = (await product('Заменить часть картинки')).id;
  sampleProduct = (await product('По вашему образцу')).id;
});
afterAll(() => t.close());

type Picture = { filename: string; type: string; data: Buffer };
const part = (name: string, file: Picture): Part => ({ name, file });
const png = (name: string): Part => part(name, { filename: `${name}.png`, type: 'image/png', data: TINY_PNG });
const jpeg = (name: string): Part => part(name, { filename: `${name}.jpg`, type: 'image/jpeg', data: TINY_JPEG });

function chat(user: TestUser, files: Part[], stream = false) {
  const body = multipart([{ name: 'ai_models_id', value: String(chatModel) }, { name: 'message', value: 'Что на картинке?' }, ...files]);
  return call(t.app, { method: 'POST', url: stream ? '/api/new/chat/stream' : '/api/new/chat', token: user.token, payload: body.payload, headers: body.headers });
}

const generate = (user: TestUser, product: number, files: Part[]) => startRun(t.app, user, { product_id: product, prompt: 'Кот на подоконнике' }, files);

function example(product: number, file: Part) {
  const body = multipart([file]);
  return call(t.app, { method: 'POST', url: `/api/admin/ai-products/${String(product)}/example`, token: admin.token, payload: body.payload, headers: body.headers });
}

/** Blobs in local storage (their `.json` type files and the temporary folder aside). */
function storedBlobs(): number {
  const dir = path.join(t.config.dataDir, 'files');
  const walk = (d: string): string[] => (fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? (e.name === '.tmp' ? [] : walk(path.join(d, e.name))) : [e.name])) : []);
  return walk(dir).filter((f) => !f.endsWith('.json')).length;
}

/** Everything an accepted upload would change. */
async function state(user: TestUser) {
  const count = async (table: 'files' | 'chat_messages' | 'generations') => Number((await t.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return {
    files: await count('files'),
    blobs: storedBlobs(),
    messages: await count('chat_messages'),
    runs: await count('generations'),
    wallet: await walletState(t.db, user.id),
    examples: await t.db.selectFrom('ai_products').select(['id', 'example_file_id']).orderBy('id').execute(),
  };
}

describe('pictures that are not whole pictures', () => {
  for (const bad of HOSTILE_IMAGES) {
    it(`${bad.label}: refused on every picture upload with a Russian field error; nothing stored, nothing charged`, async () => {
      const user = await userWithTokens(t.db, 5, 10_000);
      const before = await state(user);
      const hostile = (name: string) => part(name, bad);
      const uploads: [string, Awaited<ReturnType<typeof chat>>][] = [
        ['image_example', await chat(user, [hostile('image_example')])],
        ['image_example_2', await chat(user, [png('image_example'), hostile('image_example_2')], true)],
        ['image', await generate(user, maskProduct, [hostile('image'), png('mask')])],
        ['image', await generate(user, sampleProduct, [hostile('image')])],
        ['image', await example(sampleProduct, hostile('image'))],
      ];
      // The mask takes PNG only: the JPEG header is refused there by its kind, before any decoding.
      if (bad.type === 'image/png') uploads.push(['mask', await generate(user, maskProduct, [png('image'), hostile('mask')])]);
      for (const [field, res] of uploads) {
        expect(res.statusCode, `${field}: ${res.body}`).toBe(bad.status);
        expect(res.data.text, field).toEqual({ [field]: [bad.message] });
      }
      expect(await state(user)).toEqual(before);
    });
  }
});

describe('whole pictures', () => {
  it('a PNG and a JPEG pass on every picture upload', async () => {
    const user = await userWithTokens(t.db, 5, 10_000);
    const before = await state(user);
    const sent = await chat(user, [png('image_example'), jpeg('image_example_2')]);
    expect(sent.statusCode, sent.body).toBe(200);
    const streamed = await chat(user, [jpeg('image_example'), png('image_example_2')], true);
    expect(streamed.statusCode, streamed.body).toBe(200);
    expect(streamed.body).toContain('event: done');
    expect((await generate(user, maskProduct, [jpeg('image'), png('mask')])).statusCode).toBe(200);
    expect((await generate(user, sampleProduct, [png('image')])).statusCode).toBe(200);
    expect((await example(sampleProduct, png('image'))).statusCode).toBe(200);
    expect((await example(sampleProduct, jpeg('image'))).statusCode).toBe(200);
    const after = await state(user);
    // Two messages with two pictures each, two runs with three.
    expect(Number((await t.db.selectFrom('files').select((eb) => eb.fn.countAll().as('n')).where('owner_id', '=', user.id).executeTakeFirstOrThrow()).n)).toBe(4 + 3);
    expect(after.runs - before.runs).toBe(2);
    const kept = await t.db.selectFrom('ai_products').innerJoin('files', 'files.id', 'ai_products.example_file_id').select('files.content_type').where('ai_products.id', '=', sampleProduct).executeTakeFirstOrThrow();
    expect(kept.content_type).toBe('image/jpeg');
  });
});
