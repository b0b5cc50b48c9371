import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Generation } from '@app/contracts';
import { FakeOpenAi, fakeProviderEnv } from '../support/ai-fakes.ts';
import { call, createTestApp, finishedRun, multipart, newAdmin, productOn, startRun, userWithTokens, type Part, type TestApp, type TestUser } from '../support/index.ts';
import { METADATA_MARKERS, dataUrlBytes, jpegMarkers, maskWithTextChunks, photoWithMetadata, pixelsOf, pngChunkTypes, webpChunks } from '../support/images.ts';

/*
 * Uploaded pictures keep their pixels and nothing else, on every route that takes them: the chat's
 * attachments, a run's picture and mask, the admin's product examples. What is stored is what its
 * owner and staff are served and what the provider is sent: no EXIF (GPS, camera, description), XMP,
 * IPTC, comments or PNG text chunks; the EXIF orientation applied to the pixels; colours in sRGB.
 */

const KEY_ENV = 'FAKE_OPENAI_API_KEY';
let fake: FakeOpenAi;
let t: TestApp;
let admin: TestUser;
let chatModel: number;
let maskProduct: number;
let photoJpeg: Buffer;
let photoWebp: Buffer;
let mask: Buffer;

beforeAll(async () => {
  fake = await new FakeOpenAi().start();
  t = await createTestApp({ env: fakeProviderEnv({ [KEY_ENV]: { key: fake.apiKey, url: fake.baseUrl } }) });
  admin = await newAdmin(t.db);
  const connection = { protocol: 'openai' as const, baseUrl: fake.baseUrl, keyEnv: KEY_ENV };
  maskProduct = await productOn(t.db, connection, { kind: 'image', providerModel: 'gpt-image-1', mediaPriceTenths: 15 }, { variant: 'mask', name: 'Перерисовать область' });
  const remote = await t.db.insertInto('provider_connections').values({ name: 'Фейк', protocol: 'openai', base_url: fake.baseUrl, api_key_env: KEY_ENV, timeout_seconds: 10 }).returning('id').executeTakeFirstOrThrow();
  chatModel = (await t.db.insertInto('ai_models').values({ name: 'Фейк GPT', kind: 'chat', connection_id: remote.id, provider_model: 'gpt-fake', max_output_tokens: 100 }).returning('id').executeTakeFirstOrThrow()).id;
  [photoJpeg, photoWebp, mask] = await Promise.all([photoWithMetadata('jpeg'), photoWithMetadata('webp'), maskWithTextChunks()]);
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});

const part = (name: string, filename: string, type: string, data: Buffer): Part => ({ name, file: { filename, type, data } });

/** A stored file as its owner and as staff are served it; both must be the same bytes. */
async function served(owner: TestUser, id: number): Promise<Buffer> {
  const own = await t.app.inject({ url: `/api/new/files/${String(id)}`, headers: { authorization: `Bearer ${owner.token}` } });
  const staff = await t.app.inject({ url: `/api/new/files/${String(id)}`, headers: { authorization: `Bearer ${admin.token}` } });
  expect(own.statusCode).toBe(200);
  expect(staff.rawPayload.equals(own.rawPayload)).toBe(true);
  return own.rawPayload;
}

/** The two files `owner` has stored for `purpose`, in order. */
async function twoStored(owner: TestUser, purpose: 'chat_attachment' | 'generation_input'): Promise<[number, number]> {
  const ids = (await t.db.selectFrom('files').select('id').where('owner_id', '=', owner.id).where('purpose', '=', purpose).orderBy('id').execute()).map((r) => r.id);
  const [first, second] = ids;
  if (ids.length !== 2 || first === undefined || second === undefined) throw new Error(`expected two stored files, found ${String(ids.length)}`);
  return [first, second];
}

function expectNoMarkers(data: Buffer): void {
  for (const marker of METADATA_MARKERS) expect(data.includes(marker), marker).toBe(false);
}

/** The phone's JPEG as it must be kept: turned (48×64, the red corner at the top right), in sRGB, with nothing beside its pixels. */
async function expectCleanJpeg(data: Buffer): Promise<void> {
  const meta = await sharp(data).metadata();
  expect(meta).toMatchObject({ format: 'jpeg', width: 48, height: 64, hasProfile: false });
  expect([meta.orientation, meta.exif, meta.xmp, meta.iptc, meta.icc]).toEqual([undefined, undefined, undefined, undefined, undefined]);
  // Only JFIF, tables, the frame and the scan: no APP1 (EXIF, XMP), APP2 (ICC), APP13 (IPTC) or comment.
  expect(jpegMarkers(data).filter((m) => m === 0xe1 || m === 0xe2 || m === 0xed || m === 0xfe)).toEqual([]);
  expectNoMarkers(data);
  const { data: rgb } = await sharp(data).raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => [...rgb.subarray((y * 48 + x) * 3, (y * 48 + x) * 3 + 3)];
  // Pure red again: the numbers stored in Display P3 (about 234, 51, 35) were converted, not relabelled.
  const [r, g, b] = at(36, 12) as [number, number, number];
  expect(r).toBeGreaterThan(235);
  expect(Math.max(g, b)).toBeLessThan(25);
  expect(at(12, 52).every((v) => Math.abs(v - 128) < 8)).toBe(true);
}

/** The mask as it must be kept: the same pixels (its transparency exactly), none of its text chunks. */
async function expectCleanMask(data: Buffer): Promise<void> {
  expect(pngChunkTypes(data).filter((c) => ['tEXt', 'zTXt', 'iTXt', 'eXIf', 'tIME'].includes(c))).toEqual([]);
  expectNoMarkers(data);
  expect((await pixelsOf(data)).equals(await pixelsOf(mask))).toBe(true);
}

describe('metadata of uploaded pictures', () => {
  it('a phone’s JPEG and a PNG in the chat: stored, served to the owner and staff, and sent to the model without their metadata', async () => {
    const user = await userWithTokens(t.db, 0, 100_000);
    const body = multipart([
      { name: 'ai_models_id', value: String(chatModel) },
      { name: 'message', value: 'Что на фото?' },
      part('image_example', 'IMG_2041.jpg', 'image/jpeg', photoJpeg),
      part('image_example_2', 'mask.png', 'image/png', mask),
    ]);
    const res = await call(t.app, { method: 'POST', url: '/api/new/chat', token: user.token, payload: body.payload, headers: body.headers });
    expect(res.statusCode, res.body).toBe(200);
    const [jpegId, pngId] = await twoStored(user, 'chat_attachment');
    const jpeg = await served(user, jpegId);
    const png = await served(user, pngId);
    await expectCleanJpeg(jpeg);
    await expectCleanMask(png);
    const rows = await t.db.selectFrom('files').select(['size', 'content_type']).where('id', 'in', [jpegId, pngId]).orderBy('id').execute();
    expect(rows).toEqual([
      { size: jpeg.length, content_type: 'image/jpeg' },
      { size: png.length, content_type: 'image/png' },
    ]);
    // The provider is sent what is stored.
    const content = fake.chatBodies.at(-1)?.messages as { content: { type: string; image_url?: { url: string } }[] }[];
    const sent = (content.at(-1)?.content ?? []).flatMap((c) => (c.image_url ? [dataUrlBytes(c.image_url.url)] : []));
    expect(sent).toEqual([jpeg, png]);
  });

  it('a run’s WebP picture and PNG mask: stored and sent to the provider without their metadata', async () => {
    const user = await userWithTokens(t.db, 5);
    const res = await startRun(t.app, user, { product_id: maskProduct, prompt: 'Кот на подоконнике' }, [part('image', 'photo.webp', 'image/webp', photoWebp), part('mask', 'mask.png', 'image/png', mask)]);
    expect(res.statusCode, res.body).toBe(200);
    expect((await finishedRun(t.app, user, (res.data.json as Generation).id)).status).toBe('succeeded');
    const [webpId, maskId] = await twoStored(user, 'generation_input');
    const webp = await served(user, webpId);
    const png = await served(user, maskId);
    // A WebP keeps its image data and colour profile as they came; its EXIF and XMP chunks go, and its header no longer announces them.
    const chunks = webpChunks(webp);
    expect(chunks.map((c) => c.type)).toEqual(['VP8X', 'ICCP', 'VP8 ']);
    const [header, , image] = chunks;
    expect((header?.payload.readUInt8(0) ?? 0xff) & 0x0c).toBe(0);
    expect(image?.payload).toEqual(webpChunks(photoWebp).find((c) => c.type === 'VP8 ')?.payload);
    expectNoMarkers(webp);
    const meta = await sharp(webp).metadata();
    expect([meta.width, meta.height, meta.exif, meta.xmp, meta.orientation]).toEqual([64, 48, undefined, undefined, undefined]);
    await expectCleanMask(png);
    const parts = fake.edits.at(-1) ?? [];
    expect(parts.filter((p) => p.name === 'image[]').map((p) => p.value)).toEqual([webp]);
    expect(parts.find((p) => p.name === 'mask')?.value).toEqual(png);
  });

  it('a product example staff upload: stored and served to everyone without its metadata', async () => {
    const body = multipart([part('image', 'пример.jpg', 'image/jpeg', photoJpeg)]);
    const res = await call(t.app, { method: 'POST', url: `/api/admin/ai-products/${String(maskProduct)}/example`, token: admin.token, payload: body.payload, headers: body.headers });
    expect(res.statusCode, res.body).toBe(200);
    const user = await userWithTokens(t.db, 0);
    const example = await t.app.inject({ url: `/api/new/ai-products/${String(maskProduct)}/example`, headers: { authorization: `Bearer ${user.token}` } });
    expect(example.statusCode).toBe(200);
    await expectCleanJpeg(example.rawPayload);
  });
});
