import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TEXTS } from '@app/contracts';
import { newUser, seedCatalog, subscribe, walletState } from '@app/server/testing';
import { seedAiCatalog } from '../server/src/db/seed.ts';
import { credit } from '../server/src/features/wallet/wallet.queries.ts';
import { TINY_PNG } from '../server/test/support/ai-fakes.ts';
import { openPage, setupE2E } from './support/index.ts';

/*
 * The chat as a user meets it on the embedded default: the demo model streams its answer word by
 * word, an image goes with a message, an answer is stopped midway, the words go down by what
 * each answer cost, and a reload shows the history.
 */

// A human pace, so an answer can be stopped midway.
const e2e = setupE2E({ env: { DEMO_WORD_DELAY_MS: '30' } });
const MODEL = 'Демо-ассистент';
const SHOTS_DIR = process.env.E2E_SCREENSHOTS_DIR;

beforeAll(async () => {
  await seedAiCatalog(e2e.t.db);
});

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS_DIR) return;
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`) });
}

const digits = (text: string | null) => Number((text ?? '').replace(/\D/g, ''));
/** The balance of words the composer shows. */
const shownBalance = async (page: Page) => digits(await page.locator('.chat-composer__balance').textContent());
/** The words an answer says it cost («Списано 1 234 слова»). */
async function charged(answer: Locator): Promise<number> {
  const label = answer.getByText(/^Списано/);
  await label.waitFor({ timeout: 20_000 });
  return digits(await label.textContent());
}
const answers = (page: Page) => page.getByRole('article', { name: MODEL });
const composer = (page: Page) => page.getByRole('textbox', { name: 'Сообщение' });

describe('chat with the demo model', () => {
  it('sends a message with an image, streams the answer, stops another midway, charges the words and keeps the history', async () => {
    const user = await newUser(e2e.t.db);
    await e2e.t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `e2e-chat-${String(user.id)}` }, 100_000));
    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url('/chat'));
    await expect.poll(() => page.getByRole('link', { name: 'Чат', exact: true }).count()).toBeGreaterThan(0);
    await expect.poll(() => shownBalance(page)).toBe(100_000);

    // A message with an image: the preview shows before sending.
    await page.locator('input[type="file"]').setInputFiles({ name: 'cat.png', mimeType: 'image/png', buffer: TINY_PNG });
    await page.getByRole('list', { name: 'Прикреплённые изображения' }).getByRole('img').waitFor();
    await composer(page).fill('Что на картинке?');
    await composer(page).press('Enter');

    // The answer streams in: its text grows before it is done.
    const first = answers(page).first();
    await first.getByText(/Вы приложили 1 изображение/).waitFor({ timeout: 15_000 });
    const partial = (await first.textContent()) ?? '';
    const cost1 = await charged(first);
    const full = (await first.textContent()) ?? '';
    expect(full.length).toBeGreaterThan(partial.length);
    expect(cost1).toBeGreaterThan(0);
    await expect.poll(() => shownBalance(page)).toBe(100_000 - cost1);
    const userMessage = page.getByRole('article', { name: CHAT_TEXTS.you }).first();
    await userMessage.getByRole('img').first().waitFor();
    await page.waitForURL(/\/chat\?id=\d+/);
    await shot(page, 'chat-answered');

    // A long answer, stopped once it has started.
    await composer(page).fill('Составь подробный план подготовки к марафону по неделям');
    await composer(page).press('Enter');
    const second = answers(page).nth(1);
    await expect.poll(async () => ((await second.textContent()) ?? '').length, { timeout: 15_000 }).toBeGreaterThan(60);
    await page.getByRole('button', { name: 'Остановить' }).click();
    await second.getByText('Остановлено').waitFor({ timeout: 15_000 });
    const cost2 = await charged(second);
    expect(cost2).toBeGreaterThan(0);
    await expect.poll(() => shownBalance(page)).toBe(100_000 - cost1 - cost2);
    await shot(page, 'chat-stopped');

    // What the server stored and charged is what the page showed.
    const rows = await e2e.t.db.selectFrom('chat_messages').select(['status', 'words', 'text']).where('user_id', '=', user.id).where('role', '=', 'assistant').orderBy('id').execute();
    expect(rows.map((r) => [r.status, r.words])).toEqual([
      ['done', cost1],
      ['stopped', cost2],
    ]);
    const state = await walletState(e2e.t.db, user.id);
    expect(state.balance).toEqual(state.sums);
    expect(state.balance.words).toBe(100_000 - cost1 - cost2);

    // A reload shows the history: both exchanges, the image, the stopped answer as far as it went.
    await page.reload();
    await page.getByRole('article', { name: CHAT_TEXTS.you }).nth(1).waitFor({ timeout: 15_000 });
    await expect.poll(() => answers(page).count()).toBe(2);
    await page.getByRole('article', { name: CHAT_TEXTS.you }).first().getByRole('img').first().waitFor();
    await answers(page).nth(1).getByText('Остановлено').waitFor();
    const stoppedText = rows[1]?.text ?? '';
    expect(stoppedText.length).toBeGreaterThan(0);
    expect(((await answers(page).nth(1).textContent()) ?? '').replace(/\s+/g, ' ')).toContain(stoppedText.split('\n')[0]?.replace(/[*_#`>-]/g, '').trim().slice(0, 20) ?? '');
    await expect.poll(() => shownBalance(page)).toBe(100_000 - cost1 - cost2);
    await shot(page, 'chat-reloaded');

    // On a phone the chat list folds away behind a button; the conversation stays usable.
    await page.setViewportSize({ width: 390, height: 844 });
    await composer(page).waitFor();
    expect(await page.getByRole('button', { name: 'Открыть список чатов' }).isVisible()).toBe(true);
    // The drawer slides: let it settle before looking.
    const settle = () => page.waitForTimeout(SHOTS_DIR ? 600 : 0);
    await settle();
    await shot(page, 'chat-phone');
    await page.getByRole('button', { name: 'Открыть список чатов' }).click();
    await page.getByRole('button', { name: 'Новый чат' }).first().waitFor();
    await settle();
    await shot(page, 'chat-phone-list');
  }, 90_000);

  it('too few words without a plan: the screen leads to the plans, not to packages that need one', async () => {
    const user = await newUser(e2e.t.db);
    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url('/chat'));
    await composer(page).fill('Привет');
    await composer(page).press('Enter');
    const alert = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'Недостаточно слов' }) });
    await alert.waitFor({ timeout: 15_000 });
    await alert.getByText(/Подключите тариф/).waitFor();
    // Said once: the text goes on to what an answer may cost («до» with the genitive), not «Недостаточно токенов» again.
    expect(await alert.textContent()).not.toContain('Недостаточно токенов');
    // The send's estimate once it is read (the history counted), the answer's price before.
    expect(await alert.textContent()).toMatch(/(Отправка|Ответ этой модели) может стоить до [\d\s]+ (слов|слова), на балансе 0 слов\./);
    expect(await alert.getByRole('link', { name: 'Выбрать тариф' }).getAttribute('href')).toBe('/dashboard/user/payment');
    expect(await alert.getByRole('link', { name: 'Купить пакет слов' }).count()).toBe(0);
    expect(await e2e.t.db.selectFrom('chats').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    await shot(page, 'chat-too-few');
    await page.setViewportSize({ width: 390, height: 844 });
    await alert.scrollIntoViewIfNeeded();
    // The chat list slides away when the width becomes a phone's: let it settle before looking.
    await page.waitForTimeout(SHOTS_DIR ? 600 : 0);
    await shot(page, 'chat-too-few-390');
  }, 60_000);

  it('too few words on a plan: «Купить пакет слов» opens the packages, which can be bought', async () => {
    const catalog = await seedCatalog(e2e.t.db);
    const user = await newUser(e2e.t.db);
    await subscribe(e2e.t.app, user, catalog.trial);
    // The plan's words are spent: one word is left.
    await e2e.t.db.updateTable('wallets').set({ balance: 1 }).where('user_id', '=', user.id).where('kind', '=', 'words').execute();
    await e2e.t.db.insertInto('wallet_ledger').values({ user_id: user.id, kind: 'words', amount: 1 - catalog.trial.words, reason: 'admin_adjustment', idempotency_key: `e2e-spent:${String(user.id)}`, note: 'e2e' }).execute();
    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url('/chat'));
    await composer(page).fill('Привет');
    await composer(page).press('Enter');
    const alert = page.getByRole('alert').filter({ hasText: 'Недостаточно слов' });
    const packages = alert.getByRole('link', { name: 'Купить пакет слов' });
    await packages.waitFor({ timeout: 15_000 });
    expect(await packages.getAttribute('href')).toBe('/dashboard/user/payment#packages');
    expect(await alert.getByRole('link', { name: 'Сменить тариф' }).getAttribute('href')).toBe('/dashboard/user/payment');
    await shot(page, 'chat-too-few-on-plan');
    await page.setViewportSize({ width: 390, height: 844 });
    await alert.scrollIntoViewIfNeeded();
    // The chat list slides away when the width becomes a phone's: let it settle before looking.
    await page.waitForTimeout(SHOTS_DIR ? 600 : 0);
    await shot(page, 'chat-too-few-on-plan-390');
    await page.setViewportSize({ width: 1280, height: 800 });
    await packages.click();
    await page.waitForURL((url) => url.pathname === '/dashboard/user/payment' && url.hash === '#packages');
    const pack = page.getByRole('article', { name: catalog.wordsPack.name, exact: true });
    const buy = pack.getByRole('button', { name: 'Купить' });
    await buy.waitFor();
    expect(await buy.getAttribute('aria-disabled')).toBeNull();
  }, 60_000);
});

/** `n` chats of `user` with one exchange each, the last one the newest; `titles` cycle. */
async function chatsOf(userId: number, titles: readonly string[], n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const title = titles[i % titles.length] ?? 'Чат';
    const at = new Date(Date.now() - (n - i) * 60_000);
    const chat = await e2e.t.db.insertInto('chats').values({ user_id: userId, title, model_id: null, created_at: at, updated_at: at }).returning('id').executeTakeFirstOrThrow();
    await e2e.t.db
      .insertInto('chat_messages')
      .values([
        { chat_id: chat.id, user_id: userId, role: 'user', text: title, model_id: null, model_name: null, param: null, status: 'done', words: 0, input_tokens: null, output_tokens: null, hold_id: null, error: null },
        { chat_id: chat.id, user_id: userId, role: 'assistant', text: `Ответ на «${title}».`, model_id: null, model_name: MODEL, param: null, status: 'done', words: 21, input_tokens: 10, output_tokens: 11, hold_id: null, error: null },
      ])
      .execute();
    ids.push(chat.id);
  }
  return ids;
}

/** Resolves after the browser has drawn twice: IntersectionObserver callbacks of what is on screen have run by then. */
const drawn = (page: Page) => page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(null))))');

/**
 * The composer's model select shows its whole choice (drawn as wide as it would be alone) and the
 * price hint beside it is whole (wrapped, not cut), and nothing runs off the page.
 */
async function composerFits(page: Page): Promise<void> {
  await page.getByRole('combobox', { name: 'Модель' }).waitFor();
  const hint = page.locator('.chat-model__price').filter({ hasText: /^(Отправка: [\d\s–]+ (слово|слова|слов)|до [\d\s]+ слов за ответ)/ });
  await hint.waitFor();
  expect(await hint.isVisible()).toBe(true);
  const cuts = `(() => {
    const select = document.querySelector('.chat-model__select select');
    const drawnWidth = select.getBoundingClientRect().width;
    select.style.maxWidth = 'none';
    const natural = select.getBoundingClientRect().width;
    select.style.maxWidth = '';
    const price = document.querySelector('.chat-model__price');
    return [natural - drawnWidth, price.scrollWidth - price.clientWidth, document.documentElement.scrollWidth - window.innerWidth];
  })()`;
  const [select, price, page_] = await page.evaluate<number[]>(cuts);
  expect(select).toBeLessThanOrEqual(1);
  expect(price).toBeLessThanOrEqual(0);
  expect(page_).toBeLessThanOrEqual(0);
}

describe('the list of chats', () => {
  it('at open reads only the first ten chats; more come when the list is scrolled; each row’s buttons carry its whole title; an older chat opened by its address shows its title', async () => {
    const user = await newUser(e2e.t.db);
    // Newest last; the oldest two are beyond the first ten read.
    const titles = [
      'Как выучить английский за год',
      'Рецепт борща на четверых',
      'План статьи о здоровом сне',
      'Письмо клиенту о переносе сроков',
      'Идеи подарка маме на юбилей',
      'Что посмотреть в Казани за выходные',
      'Привет',
      'Программа тренировок',
      'Привет',
      'Объясни простыми словами, что такое инфляция',
      'Объясни простыми словами, что такое блокчейн',
      'Объясни простыми словами, как работает нейросеть',
    ];
    const ids = await chatsOf(user.id, titles, titles.length);
    const page = await e2e.signedInPage(user);
    const listReads: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/new\/chat\?page=\d+/.test(request.url())) listReads.push(new URL(request.url()).search);
    });
    const sidebar = page.getByRole('navigation', { name: 'Чаты' });
    const rows = sidebar.getByRole('listitem');

    await openPage(page, e2e.url('/chat'));
    await expect.poll(() => rows.count()).toBe(10);
    await drawn(page);
    // The page read the first ten for the list; they do not fill it: «Показать ещё» is in view, and nothing more is read until asked.
    expect(listReads).toEqual([]);
    await sidebar.getByRole('button', { name: 'Показать ещё' }).waitFor();
    await composerFits(page);
    await shot(page, 'chat-list-1280');

    // Delete and rename buttons of chats whose titles start alike are told apart by the whole title.
    const deleteNames = await Promise.all((await sidebar.getByRole('button', { name: /^Удалить чат/ }).all()).map((b) => b.getAttribute('aria-label')));
    expect(new Set(deleteNames).size).toBe(10);
    expect(deleteNames).toContain('Удалить чат «Объясни простыми словами, что такое блокчейн»');
    expect(deleteNames).toContain('Удалить чат «Привет» (2)');
    expect(await sidebar.getByRole('button', { name: 'Объясни простыми сло…' }).count()).toBeGreaterThan(1);

    // A shorter window: the list scrolls, and scrolled to its end it reads the rest.
    await page.setViewportSize({ width: 1280, height: 480 });
    await drawn(page);
    expect(listReads).toEqual([]);
    await sidebar.getByRole('button', { name: 'Показать ещё' }).scrollIntoViewIfNeeded();
    await expect.poll(() => rows.count()).toBe(12);
    expect(listReads).toEqual(['?page=2&per_page=10']);

    // The oldest chat, opened by its address on a phone, is not among the first ten read: its header still shows its whole title.
    await page.setViewportSize({ width: 390, height: 844 });
    await openPage(page, e2e.url(`/chat?id=${String(ids[0])}`));
    await page.getByRole('heading', { level: 1, name: 'Как выучить английский за год' }).waitFor();
    expect(await page.getByRole('heading', { level: 1, name: 'Чат', exact: true }).count()).toBe(0);
    // The composer fits the phone too.
    await composerFits(page);
    await shot(page, 'chat-older-390');
  }, 60_000);
});
