import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageBudget, ImageBudgetBusy } from '../../src/lib/image-budget.ts';
import { call, createTestApp, multipart, userWithTokens, type TestApp, type TestUser } from '../support/index.ts';
import { TINY_JPEG, progressiveJpeg8000x5000 } from '../support/images.ts';

/*
 * Pictures are checked within a memory budget of each process (IMAGE_CHECK_MEMORY_MB): one that
 * needs more than all of it is refused at once, one that finds no room in time
 * (IMAGE_CHECK_WAIT_SECONDS) is refused as busy; both in Russian beside the field, nothing stored.
 */

const MB = 1024 * 1024;
let t: TestApp;
let chatModel: number;

beforeAll(async () => {
  t = await createTestApp({ workers: false, env: { DEMO_WORD_DELAY_MS: '0', IMAGE_CHECK_MEMORY_MB: '64', IMAGE_CHECK_WAIT_SECONDS: '1' } });
  const connection = await t.db.insertInto('provider_connections').values({ name: 'Демо', protocol: 'demo' }).returning('id').executeTakeFirstOrThrow();
  chatModel = (await t.db.insertInto('ai_models').values({ name: 'Демо-ассистент', kind: 'chat', connection_id: connection.id, provider_model: 'demo', max_output_tokens: 300 }).returning('id').executeTakeFirstOrThrow()).id;
});
afterAll(() => t.close());

function send(user: TestUser, filename: string, data: Buffer) {
  const body = multipart([
    { name: 'ai_models_id', value: String(chatModel) },
    { name: 'message', value: 'Что на картинке?' },
    { name: 'image_example', file: { filename, type: 'image/jpeg', data } },
  ]);
  return call(t.app, { method: 'POST', url: '/api/new/chat', token: user.token, payload: body.payload, headers: body.headers });
}

/** Files stored, as rows and as blobs in local storage. */
async function stored() {
  const rows = Number((await t.db.selectFrom('files').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const walk = (d: string): string[] => (fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? (e.name === '.tmp' ? [] : walk(path.join(d, e.name))) : [e.name])) : []);
  return { rows, blobs: walk(path.join(t.config.dataDir, 'files')).length };
}

describe('the memory budget of picture checks', () => {
  it('a picture that needs more than the whole budget is refused at once, saying how small it must be; a smaller one of the same kind passes', async () => {
    const user = await userWithTokens(t.db, 0, 100_000);
    const before = await stored();
    const res = await send(user, 'photo.jpg', await progressiveJpeg8000x5000());
    expect(res.statusCode).toBe(413);
    expect(res.data.code).toBe('FILE_TOO_LARGE');
    const text = res.data.text as { image_example: string[] };
    expect(text.image_example).toEqual([expect.stringMatching(/^Изображение «photo\.jpg» \(8000×5000\) в таком виде слишком сложно проверить: уменьшите его до (\d+) мегапикселей$/)]);
    expect(await stored()).toEqual(before);
    // A progressive JPEG of the size the message names fits.
    const megapixels = Number(/до (\d+) мегапикс/.exec(text.image_example[0] ?? '')?.[1]);
    expect(megapixels).toBeGreaterThanOrEqual(1);
    const side = Math.floor(Math.sqrt(megapixels * 1_000_000));
    const smaller = await sharp({ create: { width: side, height: side, channels: 3, background: '#3a6' } }).jpeg({ progressive: true }).toBuffer();
    expect((await send(user, 'smaller.jpg', smaller)).statusCode).toBe(200);
  });

  it('a picture that finds no room in time is refused as busy (503, Retry-After); once there is room it passes', async () => {
    const user = await userWithTokens(t.db, 0, 100_000);
    const before = await stored();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holding = t.app.imageBudget.run(t.app.imageBudget.bytes, () => held);
    const res = await send(user, 'photo.jpg', TINY_JPEG);
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('30');
    expect(res.data).toMatchObject({ code: 'IMAGES_BUSY', text: { image_example: ['Сервер сейчас проверяет много изображений: отправьте «photo.jpg» ещё раз через минуту'] } });
    expect(await stored()).toEqual(before);
    release();
    await holding;
    expect((await send(user, 'photo.jpg', TINY_JPEG)).statusCode).toBe(200);
  });
});

describe('ImageBudget', () => {
  it('runs what fits at once and the rest in order of arrival: a large picture is not passed over by smaller ones', async () => {
    const budget = new ImageBudget(10 * MB, 60_000);
    const order: string[] = [];
    const gates = new Map<string, () => void>();
    const task = (name: string, cost: number) =>
      budget.run(cost * MB, async () => {
        order.push(name);
        await new Promise<void>((resolve) => gates.set(name, resolve));
      });
    const first = task('first 6', 6);
    const large = task('large 8', 8);
    const small = task('small 2', 2);
    await until(() => gates.has('first 6'));
    // 4 MB are free, but the small one waits behind the large one.
    expect(order).toEqual(['first 6']);
    gates.get('first 6')?.();
    await until(() => gates.has('small 2'));
    expect(order).toEqual(['first 6', 'large 8', 'small 2']);
    gates.get('large 8')?.();
    gates.get('small 2')?.();
    await Promise.all([first, large, small]);
  });

  it('gives up after its wait with ImageBudgetBusy, and the time-out leaves no room taken', async () => {
    const budget = new ImageBudget(4 * MB, 50);
    let release: () => void = () => undefined;
    const holding = budget.run(4 * MB, () => new Promise<void>((resolve) => (release = resolve)));
    await expect(budget.run(1 * MB, () => Promise.resolve('ran'))).rejects.toBeInstanceOf(ImageBudgetBusy);
    release();
    await holding;
    await expect(budget.run(4 * MB, () => Promise.resolve('ran'))).resolves.toBe('ran');
  });
});

/** Waits until `check` holds, a turn of the event loop at a time. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !check(); i++) await new Promise((r) => setImmediate(r));
  expect(check()).toBe(true);
}
