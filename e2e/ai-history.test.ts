import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { GENERATION_FAILURES, GENERATION_TEXTS, type Generation } from '@app/contracts';
import { newUser, walletState, type TestUser } from '@app/server/testing';
import { seedAiCatalog, seedGenerationCatalog } from '../server/src/db/seed.ts';
import { credit, placeHold } from '../server/src/features/wallet/wallet.queries.ts';
import { openPage, setupE2E } from './support/index.ts';

/*
 * The history as a user meets it: runs started through the real API on the demo provider
 * (pictures, a clip, a text, and one whose provider cannot be called) show up in /ai-history,
 * /ai-history-video and «Тексты», finish there by themselves with previews, open full size and
 * download; another user sees none of them.
 */

const e2e = setupE2E({ env: { DEMO_STEP_DELAY_MS: '20', DEMO_WORD_DELAY_MS: '0' } });
const SHOTS_DIR = process.env.E2E_SCREENSHOTS_DIR;
const products: Record<string, number> = {};

beforeAll(async () => {
  await seedAiCatalog(e2e.t.db);
  await seedGenerationCatalog(e2e.t.db);
  // A product whose provider cannot be called (no key, nothing listening): its runs fail with why.
  const broken = await e2e.t.db.insertInto('provider_connections').values({ name: 'Без ключа', protocol: 'openai', base_url: 'http://127.0.0.1:9/v1', api_key_env: 'MISSING_API_KEY' }).returning('id').executeTakeFirstOrThrow();
  const model = await e2e.t.db.insertInto('ai_models').values({ name: 'Недоступная', kind: 'image', connection_id: broken.id, provider_model: 'x', media_price_tenths: 10 }).returning('id').executeTakeFirstOrThrow();
  const category = await e2e.t.db.selectFrom('ai_categories').select('id').where('name', '=', 'Изображения').executeTakeFirstOrThrow();
  await e2e.t.db.insertInto('ai_products').values({ category_id: category.id, variant: 'img', name: 'Недоступный художник', model_id: model.id }).execute();
  for (const row of await e2e.t.db.selectFrom('ai_products').select(['id', 'name']).execute()) products[row.name] = row.id;
});

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS_DIR) return;
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`), fullPage: true });
}

async function userWithTokens(): Promise<TestUser> {
  const user = await newUser(e2e.t.db);
  await e2e.t.db.transaction().execute(async (tx) => {
    await credit(tx, { userId: user.id, kind: 'media', reason: 'admin_adjustment', idempotencyKey: `e2e-history-media-${String(user.id)}` }, 500);
    await credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `e2e-history-words-${String(user.id)}` }, 50_000);
  });
  return user;
}

/** POST /api/new/generations (multipart) with the user's bearer token: answers the queued run. */
async function start(user: TestUser, product: string, fields: Record<string, string>): Promise<Generation> {
  const form = new FormData();
  const id = products[product];
  if (id === undefined) throw new Error(`no product ${product}`);
  form.set('product_id', String(id));
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const res = await fetch(e2e.url('/api/new/generations'), { method: 'POST', headers: { Authorization: `Bearer ${user.token}` }, body: form });
  const body = (await res.json()) as { status: string; json: Generation };
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(body.json.status).toBe('queued');
  return body.json;
}

const card = (page: Page, prompt: string): Locator => page.getByRole('article').filter({ hasText: prompt });
/** Whether an image has been fetched and decoded. */
/** What the tests read of an image or a video in the page (the node typecheck has no DOM types). */
type Media = { complete: boolean; naturalWidth: number; controls: boolean; readyState: number };
const loaded = (img: Locator) => img.evaluate((el) => (el as unknown as Media).complete && (el as unknown as Media).naturalWidth > 0);

describe('the history of runs', () => {
  it('shows runs as they finish, opens one full size, downloads it; texts and video under their tabs; failures say why; others see nothing', async () => {
    const user = await userWithTokens();
    const sunset = await start(user, 'Картинка по описанию', { prompt: 'Закат над морем', param: 'landscape' });
    const card2 = await start(user, 'Открытка к празднику', { param: 'square', fields: JSON.stringify({ occasion: 'День рождения', recipient: 'мамы', style: 'акварель' }) });
    const failed = await start(user, 'Недоступный художник', { prompt: 'Ночной город в неоне' });
    const clip = await start(user, 'Видео по описанию', { prompt: 'Волны у берега', param: '4' });
    const post = await start(user, 'Пост для соцсетей', { param: 'balanced', fields: JSON.stringify({ topic: 'Открытие кофейни', tone: 'дружелюбный' }) });
    // A run still waiting for a worker (stored with its hold as the start stores it, its job not sent), to cancel from the page.
    const waiting = await e2e.t.db
      .insertInto('generations')
      .values({ user_id: user.id, product_id: products['Картинка по описанию'] ?? null, variant: 'img', product_name: 'Картинка по описанию', model_name: 'Демо-художник', prompt: 'Кот-астронавт в открытом космосе', wallet: 'media', cost: 15 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const hold = await placeHold(e2e.t.db, { userId: user.id, kind: 'media', amount: 15, idempotencyKey: `generation:${String(waiting.id)}` });
    await e2e.t.db.updateTable('generations').set({ hold_id: hold.id }).where('id', '=', waiting.id).execute();

    // Images: the page reads itself again until every run is final.
    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url('/ai-history'));
    await page.getByRole('heading', { level: 1, name: 'История генераций' }).waitFor();
    const sunsetCard = card(page, 'Закат над морем');
    await sunsetCard.getByText('Готово').waitFor({ timeout: 30_000 });
    await card(page, card2.prompt).getByText('Готово').waitFor({ timeout: 30_000 });
    const failedCard = card(page, 'Ночной город в неоне');
    await failedCard.getByText('Ошибка', { exact: true }).waitFor({ timeout: 30_000 });
    // Why, in plain words (its connection has no key), that the tokens came back, and no price: nothing was charged.
    expect(await failedCard.getByText(GENERATION_FAILURES.notConfigured).count()).toBe(1);
    expect(await failedCard.getByText(GENERATION_TEXTS.refunded).count()).toBe(1);
    expect(await failedCard.getByText('Не списано').count()).toBe(1);
    expect(await failedCard.getByText(/медиа токена/).count()).toBe(0);
    expect(await failedCard.getByRole('link', { name: 'Скачать' }).count()).toBe(0);
    // Newest first; the clip and the text are not in this list.
    const headings = await page.getByRole('article').getByRole('heading').allTextContents();
    expect(headings).toEqual(['Картинка по описанию', 'Недоступный художник', 'Открытка к празднику', 'Картинка по описанию']);
    const waitingCard = card(page, 'Кот-астронавт в открытом космосе');
    expect(await waitingCard.getByText('В очереди').count()).toBe(1);
    const preview = sunsetCard.getByRole('button', { name: /^Открыть изображение/ }).locator('img');
    await expect.poll(() => loaded(preview)).toBe(true);
    expect(await preview.getAttribute('loading')).toBe('lazy');
    expect(await sunsetCard.getByText('1,0 медиа токена').count()).toBe(1);
    await shot(page, 'ai-history-1280');

    // Full size: the picture, its prompt, a download of the PNG; Escape closes.
    await sunsetCard.getByRole('button', { name: /^Открыть изображение/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Картинка по описанию' });
    await dialog.waitFor();
    const big = dialog.getByRole('img', { name: 'Закат над морем' });
    await expect.poll(() => loaded(big)).toBe(true);
    expect(await big.evaluate((el) => (el as unknown as Media).naturalWidth)).toBe(1024);
    expect(await dialog.getByText('Закат над морем').count()).toBe(1);
    await shot(page, 'ai-history-dialog-1280');
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('link', { name: 'Скачать' }).click()]);
    const saved = await download.path();
    const bytes = fs.readFileSync(saved);
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(download.suggestedFilename()).toBe(`Картинка по описанию ${String(sunset.id)}-1.png`);
    const direct = await page.request.get(e2e.url(`/api/new/files/${String(await fileIdOf(sunset.id))}?download=1`));
    expect(direct.status()).toBe(200);
    expect(direct.headers()['content-type']).toBe('image/png');
    expect(direct.headers()['content-disposition']).toMatch(/^attachment/);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // A phone: two columns, the same cards.
    await page.setViewportSize({ width: 390, height: 844 });
    const grid = page.getByRole('article').first().locator('xpath=../..');
    await expect.poll(() => grid.evaluate((el) => (globalThis as unknown as { getComputedStyle: (e: unknown) => { gridTemplateColumns: string } }).getComputedStyle(el).gridTemplateColumns.split(' ').length)).toBe(2);
    await shot(page, 'ai-history-390');
    await page.setViewportSize({ width: 1280, height: 800 });

    // «Отменить» on the waiting run: cancelled, its tokens back on the balance.
    const before = (await walletState(e2e.t.db, user.id)).balance.media;
    await waitingCard.getByRole('button', { name: 'Отменить' }).click();
    await waitingCard.getByText('Отменено', { exact: true }).waitFor();
    expect(await waitingCard.getByText(GENERATION_TEXTS.refunded).count()).toBe(1);
    expect(await waitingCard.getByRole('button', { name: 'Отменить' }).count()).toBe(0);
    const after = await walletState(e2e.t.db, user.id);
    expect(after.balance.media).toBe(before + 15);
    expect(after.balance).toEqual(after.sums);

    // Texts: the answer on its card, with «Копировать».
    await page.getByRole('navigation', { name: 'Тип генераций' }).getByRole('link', { name: 'Тексты' }).click();
    await page.waitForURL((url) => url.search === '?type=text');
    const postCard = card(page, 'Открытие кофейни');
    await postCard.getByText('Готово').waitFor({ timeout: 30_000 });
    const stored = await e2e.t.db.selectFrom('generations').select('text_result').where('id', '=', post.id).executeTakeFirstOrThrow();
    const firstLine = (stored.text_result ?? '').split('\n')[0]?.slice(0, 30) ?? '';
    expect(firstLine.length).toBeGreaterThan(0);
    expect(((await postCard.textContent()) ?? '').replace(/\s+/g, ' ')).toContain(firstLine.replace(/\s+/g, ' '));
    // The demo's answer ends in italics (`_…_`): drawn, not shown as marks.
    expect(stored.text_result).toMatch(/\n_Это ответ демо-режима[^_]*_$/);
    expect(await postCard.getByRole('button', { name: 'Копировать' }).count()).toBe(1);
    await postCard.locator('em', { hasText: 'Это ответ демо-режима' }).waitFor({ state: 'attached' });
    await shot(page, 'ai-history-texts-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'ai-history-texts-390');
    await page.setViewportSize({ width: 1280, height: 800 });
    // The whole text full size.
    await postCard.getByRole('button', { name: 'Открыть', exact: true }).click();
    const textDialog = page.getByRole('dialog', { name: 'Пост для соцсетей' });
    await textDialog.waitFor();
    const note = textDialog.locator('em', { hasText: 'Это ответ демо-режима' });
    await note.waitFor();
    expect(await note.textContent()).toBe('Это ответ демо-режима: он составлен по шаблону, без обращения к нейросети.');
    expect(await textDialog.textContent()).not.toContain('_Это ответ');
    await shot(page, 'ai-history-text-dialog-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'ai-history-text-dialog-390');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.keyboard.press('Escape');
    await textDialog.waitFor({ state: 'detached' });

    // Video: a muted preview, played with controls full size.
    await page.getByRole('navigation', { name: 'Тип генераций' }).getByRole('link', { name: 'Видео' }).click();
    await page.waitForURL((url) => url.pathname === '/ai-history-video');
    const clipCard = card(page, 'Волны у берега');
    await clipCard.getByText('Готово').waitFor({ timeout: 60_000 });
    const output = (await (await page.request.get(e2e.url(`/api/new/generations/${String(clip.id)}`))).json()) as { json: Generation };
    expect(output.json.outputs).toHaveLength(1);
    const kind = output.json.outputs[0]?.kind;
    await clipCard.getByRole('button', { name: /^Открыть (видео|изображение)/ }).click();
    const clipDialog = page.getByRole('dialog', { name: 'Видео по описанию' });
    await clipDialog.waitFor();
    if (kind === 'video') {
      const video = clipDialog.locator('video');
      expect(await video.evaluate((el) => (el as unknown as Media).controls)).toBe(true);
      await expect.poll(() => video.evaluate((el) => (el as unknown as Media).readyState), { timeout: 15_000 }).toBeGreaterThan(0);
    } else {
      // Where the bundled ffmpeg does not run the demo draws an animated WebP.
      await expect.poll(() => loaded(clipDialog.getByRole('img'))).toBe(true);
    }
    await clipDialog.getByRole('button', { name: 'Закрыть' }).click();
    await clipDialog.waitFor({ state: 'detached' });
    await shot(page, 'ai-history-video-1280');

    // Another user: an empty history, and the first user's files are not found.
    const stranger = await newUser(e2e.t.db);
    const other = await e2e.signedInPage(stranger);
    await openPage(other, e2e.url('/ai-history'));
    await other.getByText('Здесь появятся ваши изображения').waitFor();
    expect(await other.getByRole('article').count()).toBe(0);
    expect((await other.request.get(e2e.url(`/api/new/generations/${String(sunset.id)}`))).status()).toBe(404);
    expect((await other.request.get(e2e.url(`/api/new/files/${String(await fileIdOf(sunset.id))}`))).status()).toBe(404);
    expect(failed.id).toBeGreaterThan(0);
  }, 120_000);
});

/** The file id of a run's first output. */
async function fileIdOf(generationId: number): Promise<number> {
  const row = await e2e.t.db.selectFrom('generation_files').select('file_id').where('generation_id', '=', generationId).where('role', '=', 'output').orderBy('position').executeTakeFirstOrThrow();
  return row.file_id;
}
