import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newUser, seedCatalog, subscribe, walletState } from '@app/server/testing';
import { seedGenerationCatalog, seedProductExamples } from '../server/src/db/seed.ts';
import { credit, debitUpTo } from '../server/src/features/wallet/wallet.queries.ts';
import { openPage, setupE2E, shots } from './support/index.ts';

/*
 * The generation catalogue as a user meets it on the embedded default: the list and its video
 * filter, every variant's screen run on the demo provider with its progress and result, the
 * mask painted with the mouse, the too-few-tokens screen, back and forward, and a phone.
 */

// Steps a person can watch: the demo provider reports progress between them.
const e2e = setupE2E({ env: { DEMO_STEP_DELAY_MS: '60' } });
const SHOTS_DIR = process.env.E2E_SCREENSHOTS_DIR;

beforeAll(async () => {
  await seedGenerationCatalog(e2e.t.db);
  await seedProductExamples(e2e.t.db, e2e.t.ctx.storage);
});

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS_DIR) return;
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`), fullPage: true });
}

/** A signed-in user with `media` media tokens and `words` words. */
async function userWith(media: number, words = 0) {
  const user = await newUser(e2e.t.db);
  await e2e.t.db.transaction().execute(async (tx) => {
    if (media) await credit(tx, { userId: user.id, kind: 'media', reason: 'admin_adjustment', idempotencyKey: `e2e-media-${String(user.id)}` }, Math.round(media * 10));
    if (words) await credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `e2e-words-${String(user.id)}` }, words);
  });
  return user;
}

async function productId(name: string): Promise<number> {
  const row = await e2e.t.db.selectFrom('ai_products').select('id').where('name', '=', name).executeTakeFirstOrThrow();
  return row.id;
}

/** A photo-like PNG the user uploads. */
const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .composite([{ input: Buffer.from(`<svg width="${String(width)}" height="${String(height)}"><circle cx="${String(width / 2)}" cy="${String(height / 2)}" r="${String(height / 3)}" fill="#f5c542"/></svg>`) }])
    .png()
    .toBuffer();

const runPanel = (page: Page) => page.locator('.gen-run');

/** Waits for the run shown on the screen to finish; answers its status heading. */
async function finished(page: Page): Promise<string> {
  const status = runPanel(page).locator('.gen-run__status');
  await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(/^(Готово|Ошибка|Отменено)$/);
  return (await status.textContent()) ?? '';
}

/**
 * «Скачать» of the first result saves the file as the browser names it: after the product and the
 * run, with its type's extension (`name` without it); the link answers the owner with the file.
 */
async function downloadWorks(page: Page, mime: RegExp, name?: RegExp): Promise<void> {
  const link = runPanel(page).getByRole('link', { name: 'Скачать' }).first();
  const href = await link.getAttribute('href');
  expect(href).toBeTruthy();
  const res = await page.request.get(e2e.url(href ?? ''));
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toMatch(mime);
  expect(res.headers()['content-disposition']).toMatch(/attachment/);
  if (name) {
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(name);
    await download.delete();
  }
}

/** The id of the user's newest run. */
async function newestRun(userId: number): Promise<number> {
  return (await e2e.t.db.selectFrom('generations').select('id').where('user_id', '=', userId).orderBy('id', 'desc').executeTakeFirstOrThrow()).id;
}

async function mediaBalance(userId: number): Promise<number> {
  return (await walletState(e2e.t.db, userId)).balance.media / 10;
}

describe('the catalogue', () => {
  it('lists the categories, filters video with ?type=video, opens a product and goes back and forward', async () => {
    const user = await userWith(5);
    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url('/ai-products'));
    await page.getByRole('heading', { name: 'Изображения', level: 2 }).waitFor();
    await expect.poll(() => page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['Изображения', 'Видео', 'Тексты']);
    expect(await page.locator('.gen-card').count()).toBe(8);
    expect(await page.getByRole('link', { name: 'Генерации', exact: true }).getAttribute('aria-current')).toBe('page');
    // A card's own badge stays off its example's top-left corner, where the demo draws «Демо» on the picture.
    const corners = await page.evaluate<boolean[]>(`Array.from(document.querySelectorAll('.gen-card__media'), (m) => {
      const box = m.getBoundingClientRect();
      const badge = m.querySelector('.gen-card__badge')?.getBoundingClientRect();
      return badge ? box.right - badge.right < 20 && badge.left - box.left > box.width / 4 : false;
    })`);
    expect(corners).toEqual(corners.map(() => true));
    await shot(page, 'catalogue-desktop');

    await page.getByRole('navigation', { name: 'Разделы каталога' }).getByRole('link', { name: 'Видео' }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('?type=video');
    await expect.poll(() => page.locator('.gen-card').count()).toBe(1);
    await page.getByRole('link', { name: /Видео по описанию/ }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/ai-products/video/${String(await productId('Видео по описанию'))}`);
    await page.getByRole('heading', { name: 'Видео по описанию', level: 1 }).waitFor();

    await page.goBack();
    await expect.poll(() => page.locator('.gen-card').count()).toBe(1);
    await page.goBack();
    await expect.poll(() => page.locator('.gen-card').count()).toBe(8);
    await page.goForward();
    await expect.poll(() => new URL(page.url()).search).toBe('?type=video');

    // Opened directly, ?type=video shows only video.
    await openPage(page, e2e.url('/ai-products?type=video'));
    await expect.poll(() => page.locator('.gen-card').count()).toBe(1);
  });

  it('a product opened under another variant’s address moves to its own; an unknown one says it is not found', async () => {
    const page = await e2e.signedInPage(await userWith(1));
    const id = await productId('Картинка по описанию');
    await openPage(page, e2e.url(`/ai-products/video/${String(id)}`));
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/ai-products/img/${String(id)}`);
    await openPage(page, e2e.url('/ai-products/img/999999'));
    await page.getByText('Продукт не найден').waitFor();
    expect((await page.goto(e2e.url('/ai-products/nope/1')))?.status()).toBe(404);
  });
});

describe('every variant on the demo provider', () => {
  it('img: the price before running, progress while running, the result with download, and «Ещё раз»', async () => {
    const user = await userWith(5);
    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url(`/ai-products/img/${String(await productId('Картинка по описанию'))}`));
    await expect.poll(() => page.locator('.gen-price__amount').textContent()).toBe('1,0 медиа токена');
    await expect.poll(() => page.locator('.gen-price__balance').textContent()).toContain('5,0 медиа токена');
    await page.getByRole('button', { name: /^Создать/ }).click();
    await page.getByText('Опишите, что нужно сделать').waitFor();

    await page.getByRole('textbox', { name: 'Описание' }).fill('Рыжий кот в очках читает газету');
    await page.getByLabel('Параметры').selectOption('landscape');
    await page.getByRole('button', { name: /^Создать/ }).click();
    // Progress shows while the run goes.
    await page.getByRole('progressbar', { name: 'Ход генерации' }).waitFor();
    await shot(page, 'img-running');
    expect(await finished(page)).toBe('Готово');
    const result = runPanel(page).getByRole('img', { name: /^Результат 1/ });
    await expect.poll(() => result.evaluate((img) => Number(Reflect.get(img, 'naturalWidth')))).toBe(1024);
    expect(await result.evaluate((img) => Number(Reflect.get(img, 'naturalHeight')))).toBe(768);
    await downloadWorks(page, /^image\/png/, new RegExp(`^Картинка по описанию ${String(await newestRun(user.id))}-1\\.png$`));
    await shot(page, 'img-done');
    expect(await mediaBalance(user.id)).toBe(4);
    await expect.poll(() => page.locator('.gen-price__balance').textContent()).toContain('4,0 медиа токена');

    await runPanel(page).getByRole('button', { name: 'Ещё раз' }).click();
    const succeeded = () => e2e.t.db.selectFrom('generations').select('id').where('user_id', '=', user.id).where('status', '=', 'succeeded').execute();
    await expect.poll(async () => (await succeeded()).length, { timeout: 30_000 }).toBe(2);
    expect(await finished(page)).toBe('Готово');
    expect(await mediaBalance(user.id)).toBe(3);
    const runs = await e2e.t.db.selectFrom('generations').select(['status', 'prompt']).where('user_id', '=', user.id).execute();
    expect(runs).toEqual([
      { status: 'succeeded', prompt: 'Рыжий кот в очках читает газету' },
      { status: 'succeeded', prompt: 'Рыжий кот в очках читает газету' },
    ]);
  });

  it('img_2: from the user’s example image', async () => {
    const page = await e2e.signedInPage(await userWith(2));
    await openPage(page, e2e.url(`/ai-products/img_2/${String(await productId('По вашему образцу'))}`));
    await page.getByRole('textbox', { name: 'Что изменить' }).fill('Сделай фон летним');
    await page.getByRole('button', { name: /^Создать/ }).click();
    await page.getByText('Загрузите изображение').waitFor();
    await page.getByLabel('Ваш образец').setInputFiles({ name: 'sample.png', mimeType: 'image/png', buffer: await photo(320, 240) });
    await page.getByRole('img', { name: 'Выбранное изображение' }).waitFor();
    await page.getByRole('button', { name: /^Создать/ }).click();
    expect(await finished(page)).toBe('Готово');
    await downloadWorks(page, /^image\/png/);
  });

  it('img_3: a template whose fields the user fills in', async () => {
    const user = await userWith(2);
    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url(`/ai-products/img_3/${String(await productId('Открытка к празднику'))}`));
    await page.getByRole('button', { name: /^Создать/ }).click();
    await page.getByText('Заполните поле «Праздник»').waitFor();
    await page.getByRole('textbox', { name: 'Праздник' }).fill('Новый год');
    await page.getByRole('textbox', { name: 'Кому' }).fill('бабушке');
    await page.getByRole('button', { name: /^Создать/ }).click();
    expect(await finished(page)).toBe('Готово');
    const run = await e2e.t.db.selectFrom('generations').select('prompt').where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(run.prompt).toContain('Новый год');
    expect(run.prompt).toContain('бабушке');
  });

  it('img_4: the product’s example as a style applied to the user’s photo', async () => {
    const page = await e2e.signedInPage(await userWith(2));
    await openPage(page, e2e.url(`/ai-products/img_4/${String(await productId('Фото в стиле примера'))}`));
    await page.getByRole('img', { name: 'Стиль примера' }).waitFor();
    await page.getByLabel('Ваше фото').setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: await sharp(await photo(300, 400)).jpeg().toBuffer() });
    await page.getByRole('button', { name: /^Создать/ }).click();
    expect(await finished(page)).toBe('Готово');
    await downloadWorks(page, /^image\/png/);
  });

  it('mask: paints with the brush, erases, undoes; the mask sent is transparent where painted', async () => {
    const user = await userWith(2);
    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url(`/ai-products/mask/${String(await productId('Заменить часть картинки'))}`));
    await page.getByLabel('Изображение').setInputFiles({ name: 'room.png', mimeType: 'image/png', buffer: await photo(400, 300) });
    const canvas = page.getByRole('img', { name: 'Закрасьте кистью область, которую нужно изменить' });
    await canvas.waitFor();
    await page.getByRole('textbox', { name: 'Что нарисовать в закрашенной области' }).fill('Красная шляпа');
    await page.getByRole('button', { name: /^Создать/ }).click();
    await page.getByText('Закрасьте область, которую нужно изменить').first().waitFor();

    // Whole in the viewport, clear of the sticky header.
    await canvas.evaluate((el) => {
      (el as unknown as { scrollIntoView: (options: object) => void }).scrollIntoView({ block: 'center' });
    });
    const box = await canvas.boundingBox();
    if (!box) throw new Error('the canvas is not shown');
    const drag = async (x1: number, y1: number, x2: number, y2: number) => {
      await page.mouse.move(box.x + box.width * x1, box.y + box.height * y1);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * ((x1 + x2) / 2), box.y + box.height * ((y1 + y2) / 2), { steps: 4 });
      await page.mouse.move(box.x + box.width * x2, box.y + box.height * y2, { steps: 4 });
      await page.mouse.up();
    };
    // A stroke on the right, undone; then one on the left, partly erased.
    await drag(0.7, 0.5, 0.9, 0.5);
    await page.getByRole('button', { name: '↶ Отменить' }).click();
    await page.getByRole('button', { name: 'Размер L' }).click();
    await drag(0.1, 0.3, 0.3, 0.3);
    await page.getByRole('button', { name: 'Ластик' }).click();
    await drag(0.1, 0.3, 0.12, 0.3);
    await shot(page, 'mask-painted');
    await page.getByRole('button', { name: /^Создать/ }).click();
    expect(await finished(page)).toBe('Готово');

    const mask = await e2e.t.db
      .selectFrom('generation_files as gf')
      .innerJoin('generations as g', 'g.id', 'gf.generation_id')
      .innerJoin('files as f', 'f.id', 'gf.file_id')
      .select(['f.storage_key'])
      .where('g.user_id', '=', user.id)
      .where('gf.role', '=', 'mask')
      .executeTakeFirstOrThrow();
    const blob = await e2e.t.ctx.storage.get(mask.storage_key);
    if (!blob) throw new Error('the mask is not stored');
    const png = Buffer.concat(await blob.body.toArray());
    const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([400, 300]);
    const alpha = (x: number, y: number) => data[(Math.round(y) * info.width + Math.round(x)) * 4 + 3];
    expect(alpha(0.2 * 400, 0.3 * 300)).toBe(0); // painted
    expect(alpha(0.8 * 400, 0.5 * 300)).toBe(255); // painted, then undone
    expect(alpha(0.5 * 400, 0.8 * 300)).toBe(255); // never painted
    expect(alpha(0.105 * 400, 0.3 * 300)).toBe(255); // erased
  });

  it('text_1: a text product answers with text the user can copy, charged in words', async () => {
    const user = await userWith(0, 5000);
    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url(`/ai-products/text_1/${String(await productId('Пост для соцсетей'))}`));
    // Its most, rounded up and in the genitive after «до» («до 850 слов», never «до 844 слова»).
    await expect.poll(() => page.locator('.gen-price__amount').textContent()).toMatch(/^до \d[\d\s]*0 слов$/);
    const shownMax = Number((await page.locator('.gen-price__amount').textContent())?.replace(/\D/g, ''));
    await page.getByRole('textbox', { name: 'Тема' }).fill('Открытие кофейни у метро');
    await page.getByRole('button', { name: /^Создать/ }).click();
    expect(await finished(page)).toBe('Готово');
    const body = runPanel(page).locator('.gen-text__body');
    expect((await body.textContent())?.length).toBeGreaterThan(20);
    // The model's Markdown drawn as the chat draws it: the demo's closing note in italics, no `_` marks.
    const note = body.locator('em', { hasText: 'Это ответ демо-режима' });
    await note.waitFor();
    expect(await body.textContent()).not.toMatch(/(^|\s)_|_$/);
    await shot(page, 'text-done');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate('window.scrollTo(0, 0)');
    await shot(page, 'text-done-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    // Charged by the tokens used: less than the most it could cost, and what the run says.
    const { balance } = await walletState(e2e.t.db, user.id);
    const charged = Number((await runPanel(page).locator('.gen-run__cost').textContent())?.replace(/\D/g, ''));
    expect(charged).toBeGreaterThan(0);
    expect(charged).toBeLessThanOrEqual(shownMax);
    expect(balance.words).toBe(5000 - charged);
  });

  it('video: a clip the browser plays, with download', async () => {
    const user = await userWith(10);
    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url(`/ai-products/video/${String(await productId('Видео по описанию'))}`));
    await page.getByRole('textbox', { name: 'Описание ролика' }).fill('Волны на закате');
    await page.getByRole('button', { name: /^Создать/ }).click();
    expect(await finished(page)).toBe('Готово');
    const video = runPanel(page).locator('video');
    await expect.poll(() => video.evaluate((v) => Number(Reflect.get(v, 'readyState'))), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    expect(await video.evaluate((v) => Number(Reflect.get(v, 'duration')))).toBeGreaterThan(1);
    await downloadWorks(page, /^video\//, new RegExp(`^Видео по описанию ${String(await newestRun(user.id))}-1\\.(mp4|webp)$`));
    await shot(page, 'video-done');
  });
});

describe('a video cancelled while it is made', () => {
  it('«Отменить» stays while the provider works; the run keeps only the part done, the rest comes back', async () => {
    const user = await userWith(10);
    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url(`/ai-products/video/${String(await productId('Видео по описанию'))}`));
    await page.getByRole('textbox', { name: 'Описание ролика' }).fill('Маяк в шторм');
    await page.getByRole('button', { name: /^Создать/ }).click();
    await expect.poll(() => runPanel(page).locator('.gen-run__status').textContent(), { timeout: 30_000 }).toMatch(/^Выполняется · [1-9]\d?%$/);
    await runPanel(page).getByText(/спишем только за уже выполненную часть/).waitFor();
    await shots(page, 'video-running-cancel');
    await runPanel(page).getByRole('button', { name: 'Отменить' }).click();
    expect(await finished(page)).toBe('Отменено');
    const run = await e2e.t.db.selectFrom('generations').select(['status', 'cost', 'progress']).where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(run.status).toBe('cancelled');
    expect(run.cost).toBeLessThan(20);
    expect(await mediaBalance(user.id)).toBe(10 - run.cost / 10);
    await shots(page, 'video-cancelled');
  });
});

describe('a run that fails', () => {
  it('says why in plain words (its model is not set up), that the tokens came back, and shows no price', async () => {
    // A product whose connection has no key: its runs fail at once with why.
    const broken = await e2e.t.db.insertInto('provider_connections').values({ name: 'Без ключа', protocol: 'openai', base_url: 'http://127.0.0.1:9/v1', api_key_env: 'MISSING_API_KEY' }).returning('id').executeTakeFirstOrThrow();
    const model = await e2e.t.db.insertInto('ai_models').values({ name: 'Недоступная', kind: 'image', connection_id: broken.id, provider_model: 'x', media_price_tenths: 10 }).returning('id').executeTakeFirstOrThrow();
    const category = await e2e.t.db.selectFrom('ai_categories').select('id').where('name', '=', 'Изображения').executeTakeFirstOrThrow();
    const product = await e2e.t.db.insertInto('ai_products').values({ category_id: category.id, variant: 'img', name: 'Недоступный художник', model_id: model.id }).returning('id').executeTakeFirstOrThrow();
    const user = await userWith(2);
    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url(`/ai-products/img/${String(product.id)}`));
    await page.getByRole('textbox', { name: 'Описание' }).fill('Ночной город в неоне');
    await page.getByRole('button', { name: /^Создать/ }).click();
    expect(await finished(page)).toBe('Ошибка');
    const panel = runPanel(page);
    expect(await panel.getByRole('alert').textContent()).toContain('Модель сейчас недоступна: сервис генерации не подключён. Выберите другой продукт или попробуйте позже');
    expect(await panel.getByText('Токены возвращены на баланс').count()).toBe(1);
    expect(await panel.locator('.gen-run__cost').textContent()).toBe('Не списано');
    expect(await mediaBalance(user.id)).toBe(2);
    await shot(page, 'failed-not-set-up');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'failed-not-set-up-phone');
    // Out of the catalogue again, for the tests after this one.
    await e2e.t.db.updateTable('ai_products').set({ active: false }).where('id', '=', product.id).execute();
  });
});

describe('too few tokens', () => {
  it('without a plan shows the screen leading to the plans (packages need one), and nothing is charged or stored', async () => {
    const user = await userWith(0.5);
    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url(`/ai-products/img/${String(await productId('Картинка по описанию'))}`));
    await page.getByRole('textbox', { name: 'Описание' }).fill('Маяк в тумане');
    await page.getByRole('button', { name: /^Создать/ }).click();
    const screen = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'Недостаточно медиа токенов' }) });
    await screen.waitFor();
    await screen.getByText(/Подключите тариф/).waitFor();
    // The heading says it; the text goes on to the price and the balance, not «Недостаточно токенов» again.
    expect(await screen.textContent()).toContain('Запуск стоит 1,0 медиа токена, на балансе 0,5 медиа токена.');
    expect(await screen.textContent()).not.toContain('Недостаточно токенов');
    expect(await screen.getByRole('link', { name: 'Выбрать тариф' }).getAttribute('href')).toBe('/dashboard/user/payment');
    expect(await screen.getByRole('link', { name: /Купить пакет/ }).count()).toBe(0);
    await shot(page, 'too-few');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'too-few-390');
    expect(await mediaBalance(user.id)).toBe(0.5);
    expect(await e2e.t.db.selectFrom('generations').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
  });
});

describe('too few tokens with a plan, on a phone', () => {
  it('the package and plan buttons keep inside the panel, clear of its edge', async () => {
    const catalog = await seedCatalog(e2e.t.db);
    const user = await newUser(e2e.t.db);
    await subscribe(e2e.t.app, user, catalog.monthly);
    await e2e.t.db.transaction().execute(async (tx) => {
      const media = (await walletState(e2e.t.db, user.id)).balance.media;
      await debitUpTo(tx, { userId: user.id, kind: 'media', reason: 'admin_adjustment', idempotencyKey: `e2e-spend-${String(user.id)}` }, Math.round((media - 0.5) * 10));
    });
    const page = await e2e.signedInPage(user);
    await page.setViewportSize({ width: 390, height: 844 });
    await openPage(page, e2e.url(`/ai-products/img/${String(await productId('Картинка по описанию'))}`));
    await page.getByRole('textbox', { name: 'Описание' }).fill('Маяк в тумане');
    await page.getByRole('button', { name: /^Создать/ }).click();
    const panel = page.locator('.toofew');
    await panel.getByRole('link', { name: 'Купить пакет медиа токенов' }).waitFor();
    const gaps = await page.evaluate<number[]>(`(() => {
      const panel = document.querySelector('.toofew');
      const box = panel.getBoundingClientRect();
      return Array.from(panel.querySelectorAll('.btn'), (b) => {
        const r = b.getBoundingClientRect();
        return Math.min(r.left - box.left, box.right - r.right);
      });
    })()`);
    expect(gaps.length).toBe(3);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(12);
    expect(Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'))).toBeLessThanOrEqual(0);
    await shots(page, 'too-few-packages');
  });
});

describe('on a phone', () => {
  it('the list and a screen fit the width; a run works', async () => {
    const user = await userWith(2);
    const page = await e2e.signedInPage(user);
    await page.setViewportSize({ width: 390, height: 844 });
    await openPage(page, e2e.url('/ai-products'));
    await page.locator('.gen-card').first().waitFor();
    const overflow = () => page.evaluate('document.documentElement.scrollWidth - window.innerWidth').then(Number);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await shot(page, 'catalogue-phone');
    await page.getByRole('link', { name: /Картинка по описанию/ }).click();
    await page.getByRole('textbox', { name: 'Описание' }).fill('Горы на рассвете');
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: /^Создать/ }).click();
    expect(await finished(page)).toBe('Готово');
    expect(await overflow()).toBeLessThanOrEqual(0);
    await shot(page, 'img-phone');
  });
});
