import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, multipart, newAdmin, newUser, type TestUser } from '@app/server/testing';
import { seedAiCatalog, seedGenerationCatalog, seedProductExamples } from '../server/src/db/seed.ts';
import { credit } from '../server/src/features/wallet/wallet.queries.ts';
import { openPage, seriousViolations, setupE2E } from './support/index.ts';

/*
 * The main journeys with the keyboard alone: once the page is open, every step is a key press
 * (Tab, Shift+Tab, Enter, Space, arrows, Escape, typing), never a click. Each control the journey
 * reaches shows where the focus is: an outline that stands out from what is behind it (3:1), or,
 * for a text field, a ring whose border does.
 */

/** The little of the DOM the checks run in the page use (the project's Node typings have none). */
interface DomElement {
  tagName: string;
  id: string;
  textContent: string | null;
  parentElement: DomElement | null;
  getAttribute(name: string): string | null;
  matches(selector: string): boolean;
}
declare const document: { activeElement: DomElement | null; body: DomElement };
declare function getComputedStyle(el: DomElement): { outlineStyle: string; outlineWidth: string; outlineColor: string; boxShadow: string; borderTopColor: string; backgroundColor: string };

// A human pace, so an answer can be stopped midway; pictures quick.
const e2e = setupE2E({ env: { DEMO_WORD_DELAY_MS: '30', DEMO_STEP_DELAY_MS: '10' } });

beforeAll(async () => {
  await seedAiCatalog(e2e.t.db);
  await seedGenerationCatalog(e2e.t.db);
  await seedProductExamples(e2e.t.db, e2e.t.ctx.storage);
});

async function richUser(): Promise<TestUser> {
  const user = await newUser(e2e.t.db);
  await e2e.t.db.transaction().execute(async (tx) => {
    await credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `kbd-words-${String(user.id)}` }, 100_000);
    await credit(tx, { userId: user.id, kind: 'media', reason: 'admin_adjustment', idempotencyKey: `kbd-media-${String(user.id)}` }, 1_000);
  });
  return user;
}

const SHOTS_DIR = process.env.E2E_SCREENSHOTS_DIR;
async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS_DIR) return;
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `keyboard-${name}.png`) });
}

const isFocused = (target: Locator) => target.evaluate((el) => el === (document.activeElement as unknown));

/** What the focused element is, for a failure message. */
const focusedElement = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'nothing (the page)';
    return `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} class="${el.getAttribute('class') ?? ''}"> ${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 60)}`;
  });

/**
 * Presses Tab (Shift+Tab with `back`) until `target` has the focus, checking on the way that the
 * focus never falls out of the page; fails after `max` presses. Answers the presses it took.
 */
async function tabTo(page: Page, target: Locator, { back = false, max = 60 } = {}): Promise<number> {
  await target.waitFor();
  for (let presses = 0; presses <= max; presses++) {
    if (await isFocused(target)) return presses;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${String(max)} presses of ${back ? 'Shift+Tab' : 'Tab'} did not reach it; the focus is on ${await focusedElement(page)}`);
}

/**
 * Where the focus is can be seen: the focused element matches :focus-visible and draws an
 * outline of at least 1 px whose colour has 3:1 against the background behind it; a text field
 * (or its box, :focus-within) may instead draw a ring whose border has 3:1.
 */
async function expectFocusVisible(page: Page): Promise<void> {
  // Polled: a ring may still be fading in (a transition).
  await expect.poll(() => focusRing(page), { timeout: 3_000 }).toBe('ok');
}

const focusRing = (page: Page) =>
  page.evaluate(() => {
    const rgb = (color: string) => {
      const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/.exec(color);
      return m ? { r: Number(m[1]), g: Number(m[2]), b: Number(m[3]), a: m[4] === undefined ? 1 : Number(m[4]) } : null;
    };
    const luminance = (c: { r: number; g: number; b: number }) => {
      const f = (v: number) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
    };
    const contrast = (a: string, b: { r: number; g: number; b: number }) => {
      const c = rgb(a);
      if (!c || c.a === 0) return 0;
      const [hi, lo] = [luminance(c), luminance(b)].sort((x, y) => y - x) as [number, number];
      return (hi + 0.05) / (lo + 0.05);
    };
    /** The colour behind an element: the first ancestor's (from its parent up) that is not transparent. */
    const behind = (el: DomElement) => {
      for (let e = el.parentElement; e; e = e.parentElement) {
        const c = rgb(getComputedStyle(e).backgroundColor);
        if (c && c.a > 0.5) return c;
      }
      return { r: 255, g: 255, b: 255 };
    };
    const el = document.activeElement;
    if (!el || el === document.body) return 'nothing has the focus';
    const label = `<${el.tagName.toLowerCase()} class="${el.getAttribute('class') ?? ''}"> ${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}`;
    if (!el.matches(':focus-visible')) return `${label}: not :focus-visible`;
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1 ? contrast(style.outlineColor, behind(el)) : 0;
    if (outline >= 3) return 'ok';
    for (let box: DomElement | null = el, up = 0; box && up < 4; box = box.parentElement, up++) {
      const s = getComputedStyle(box);
      if (box.matches(':focus-within') && s.boxShadow !== 'none' && contrast(s.borderTopColor, behind(box)) >= 3) return 'ok';
    }
    return `${label}: no visible focus (outline ${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}, contrast ${outline.toFixed(2)}; box-shadow ${style.boxShadow})`;
  });

/** Tab to `target`, see the focus on it, press `key`. */
async function activate(page: Page, target: Locator, key = 'Enter', opts: { back?: boolean; max?: number } = {}): Promise<void> {
  await tabTo(page, target, opts);
  await expectFocusVisible(page);
  await page.keyboard.press(key);
}

describe('keyboard only', () => {
  it('the chat: the composer, send with Enter, stop, open another chat, rename and delete in dialogs, Escape closes them', async () => {
    const user = await richUser();
    const model = await e2e.t.db.selectFrom('ai_models').select('id').where('kind', '=', 'chat').orderBy('sort').executeTakeFirstOrThrow();
    // Two earlier chats in the list.
    for (const message of ['Рецепт блинов', 'План поездки в Казань']) {
      const body = multipart([
        { name: 'ai_models_id', value: String(model.id) },
        { name: 'message', value: message },
      ]);
      const res = await call(e2e.t.app, { method: 'POST', url: '/api/new/chat', token: user.token, payload: body.payload, headers: body.headers });
      expect(res.statusCode, res.body).toBe(200);
    }
    // bypassCSP: axe-core checks the open dialogs.
    const page = await e2e.signedInPage(user, { bypassCSP: true });
    await openPage(page, e2e.url('/chat'));
    const composer = page.getByRole('textbox', { name: 'Сообщение' });
    const answers = page.getByRole('article', { name: 'Демо-ассистент' });

    // The composer, a message, Enter: the answer comes.
    await tabTo(page, composer);
    await expectFocusVisible(page);
    await page.keyboard.type('Привет! Как дела?');
    await page.keyboard.press('Enter');
    await answers.first().getByText(/^Списано/).waitFor({ timeout: 30_000 });

    // A long answer stopped from the keyboard: from the composer, Tab reaches «Остановить».
    await tabTo(page, composer, { back: true });
    await page.keyboard.type('Составь подробный план подготовки к марафону по неделям');
    await page.keyboard.press('Enter');
    const stop = page.getByRole('button', { name: 'Остановить' });
    await stop.waitFor({ timeout: 15_000 });
    await activate(page, stop, 'Enter', { max: 6 });
    await answers.nth(1).getByText('Остановлено').waitFor({ timeout: 15_000 });

    // Another chat from the list: its conversation opens and the focus goes to the composer.
    const chats = page.getByRole('navigation', { name: 'Чаты' });
    await activate(page, chats.getByRole('button', { name: 'Рецепт блинов', exact: true }), 'Enter', { back: true });
    await page.getByRole('heading', { level: 1, name: 'Рецепт блинов' }).waitFor();
    await page.getByRole('article', { name: 'Вы' }).getByText('Рецепт блинов').waitFor();
    await expect.poll(() => isFocused(composer)).toBe(true);

    // Rename: the dialog opens with the focus in its field; Escape closes it and changes nothing.
    const renameButton = chats.getByRole('button', { name: 'Переименовать чат «Рецепт блинов»' });
    await activate(page, renameButton, 'Enter', { back: true });
    const renameDialog = page.getByRole('dialog', { name: 'Переименовать чат' });
    await renameDialog.waitFor();
    await expect.poll(() => isFocused(renameDialog.getByRole('textbox'))).toBe(true);
    await expectFocusVisible(page);
    expect(await seriousViolations(page, 'the rename dialog')).toEqual([]);
    await shot(page, 'chat-rename-dialog');
    await page.keyboard.press('Escape');
    await renameDialog.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(renameButton)).toBe(true);
    // … then renamed for real: the title typed over, Enter saves.
    await page.keyboard.press('Enter');
    await renameDialog.waitFor();
    await expect.poll(() => isFocused(renameDialog.getByRole('textbox'))).toBe(true);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Блины на Масленицу');
    await page.keyboard.press('Enter');
    await renameDialog.waitFor({ state: 'detached' });
    await chats.getByRole('button', { name: 'Блины на Масленицу', exact: true }).waitFor();
    await expect.poll(() => isFocused(chats.getByRole('button', { name: 'Переименовать чат «Блины на Масленицу»' }))).toBe(true);

    // Delete: Escape keeps the chat; then Tab to «Удалить» in the dialog and Enter deletes it.
    const deleteButton = chats.getByRole('button', { name: /^Удалить чат «План поездки/ });
    await activate(page, deleteButton, 'Enter', { back: true });
    const deleteDialog = page.getByRole('dialog', { name: 'Удалить чат?' });
    await deleteDialog.waitFor();
    expect(await seriousViolations(page, 'the delete dialog')).toEqual([]);
    await page.keyboard.press('Escape');
    await deleteDialog.waitFor({ state: 'detached' });
    expect(await chats.getByRole('button', { name: /^План поездки/ }).count()).toBe(1);
    await expect.poll(() => isFocused(deleteButton)).toBe(true);
    await page.keyboard.press('Enter');
    await deleteDialog.waitFor();
    await activate(page, deleteDialog.getByRole('button', { name: 'Удалить', exact: true }), 'Enter', { max: 6 });
    await deleteDialog.waitFor({ state: 'detached' });
    await expect.poll(() => chats.getByRole('button', { name: /^План поездки/ }).count()).toBe(0);
    // Its buttons went with it: the focus is on the message field, not lost on the page.
    await expect.poll(() => isFocused(composer)).toBe(true);
  }, 120_000);

  it('a product: chosen in the catalogue with Tab and Enter, its fields filled, a parameter picked, run, and «Скачать» reached', async () => {
    const user = await richUser();
    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url('/ai-products'));
    const product = await e2e.t.db.selectFrom('ai_products').select(['id', 'name']).where('variant', '=', 'img').where('active', '=', true).orderBy('id').executeTakeFirstOrThrow();
    const card = page.getByRole('link', { name: new RegExp(product.name) }).first();
    await tabTo(page, card, { max: 80 });
    await expectFocusVisible(page);
    await shot(page, 'catalogue-card-focused');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === `/ai-products/img/${String(product.id)}`);
    const prompt = page.getByRole('textbox').first();
    await tabTo(page, prompt);
    await expectFocusVisible(page);
    await page.keyboard.type('Рыжий кот в сапогах на летнем лугу');
    const param = page.getByRole('combobox', { name: 'Параметры' });
    await tabTo(page, param);
    await expectFocusVisible(page);
    const before = await param.inputValue();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => param.inputValue()).not.toBe(before);
    await tabTo(page, page.getByRole('button', { name: /^Создать/ }), { max: 10 });
    await expectFocusVisible(page);
    await shot(page, 'product-run-focused');
    await page.keyboard.press('Enter');
    const download = page.getByRole('link', { name: 'Скачать' }).first();
    await download.waitFor({ timeout: 30_000 });
    await tabTo(page, download, { max: 30 });
    await expectFocusVisible(page);
  }, 90_000);

  it('the admin lists: the tab bar, a search, a sort by a header, a record opened and back', async () => {
    const admin = await newAdmin(e2e.t.db);
    const client = await newUser(e2e.t.db, { email: `keyboard-client-${String(Date.now())}@example.ru` });
    await newUser(e2e.t.db, { email: `keyboard-other-${String(Date.now())}@example.ru` });
    const page = await e2e.signedInPage(admin);
    await openPage(page, e2e.url('/admin'));
    const tabs = page.getByRole('navigation', { name: 'Разделы админки' });
    await activate(page, tabs.getByRole('link', { name: 'Пользователи' }), 'Enter');
    await page.waitForURL((url) => url.pathname === '/admin/users');

    await tabTo(page, page.getByRole('searchbox'));
    await expectFocusVisible(page);
    await page.keyboard.type('keyboard-');
    await page.waitForURL((url) => url.searchParams.get('q') === 'keyboard-');
    const table = page.getByRole('table');
    await expect.poll(() => table.getByRole('row').count()).toBe(3);

    const emailHeader = table.getByRole('columnheader', { name: /Email/i });
    await activate(page, emailHeader.getByRole('button'), 'Enter');
    await shot(page, 'admin-sort-focused');
    await expect.poll(() => emailHeader.getAttribute('aria-sort')).toMatch(/ascending|descending/);
    const firstSort = await emailHeader.getAttribute('aria-sort');
    await page.keyboard.press('Space');
    await expect.poll(() => emailHeader.getAttribute('aria-sort')).not.toBe(firstSort);

    await activate(page, table.getByRole('link', { name: client.email }), 'Enter');
    await page.waitForURL((url) => url.pathname === `/admin/users/${String(client.id)}`);
    await page.getByRole('heading', { name: client.email }).waitFor();
    await activate(page, page.getByRole('link', { name: '← Все пользователи' }).first(), 'Enter', { back: true });
    await page.waitForURL((url) => url.pathname === '/admin/users');
    await page.getByRole('searchbox').waitFor();
  }, 90_000);
});
