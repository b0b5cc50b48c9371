import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newUser, walletState } from '@app/server/testing';
import { seedAiCatalog } from '../server/src/db/seed.ts';
import { credit } from '../server/src/features/wallet/wallet.queries.ts';
import { openPage, setupE2E, shots } from './support/index.ts';

/*
 * The chat's own tools as a user meets them: answering again and switching between the variants,
 * editing the last message, copying an answer, searching the chats and opening one at the
 * message, downloading a chat as Markdown; the words charged equal the ledger.
 */

const e2e = setupE2E({ env: { DEMO_WORD_DELAY_MS: '0' } });
const MODEL = 'Демо-ассистент';

beforeAll(async () => {
  await seedAiCatalog(e2e.t.db);
});

const composer = (page: Page) => page.getByRole('textbox', { name: 'Сообщение' });
const answers = (page: Page) => page.getByRole('article', { name: MODEL });

async function ask(page: Page, text: string, answersBefore: number) {
  await composer(page).fill(text);
  await composer(page).press('Enter');
  await answers(page).nth(answersBefore).getByText(/^Списано/).waitFor({ timeout: 20_000 });
}

describe('the chat’s variants, search and export', () => {
  it('answers again, switches variants, edits the last message, copies, finds and downloads', async () => {
    const user = await newUser(e2e.t.db);
    await e2e.t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `e2e-variants-${String(user.id)}` }, 100_000));
    const page = await e2e.signedInPage(user, { permissions: ['clipboard-read', 'clipboard-write'] });
    await openPage(page, e2e.url('/chat'));
    await composer(page).waitFor();

    // The price of a send says the history counts once there is one.
    await ask(page, 'Придумай название для кофейни у моря', 0);
    await page.waitForURL(/\/chat\?id=\d+/);
    await expect.poll(async () => page.locator('.chat-model__price').textContent(), { timeout: 10_000 }).toMatch(/история чата — до/);

    // «Ответить заново»: a second answer; «Вариант 2 из 2», and back to the first.
    const answerText = async () => (await answers(page).first().locator('.md').textContent()) ?? '';
    const firstAnswer = await answerText();
    await page.getByRole('button', { name: 'Ответить заново' }).click();
    await page.getByRole('group', { name: 'Вариант 2 из 2' }).waitFor({ timeout: 20_000 });
    await expect.poll(() => answers(page).count()).toBe(1);
    await shots(page, 'chat-variant-2-of-2');
    await page.getByRole('button', { name: 'Предыдущий вариант' }).click();
    await page.getByRole('group', { name: 'Вариант 1 из 2' }).waitFor();
    expect(await answerText()).toBe(firstAnswer);

    // Copy the whole answer.
    await page.getByRole('button', { name: 'Копировать ответ' }).click();
    await page.getByRole('button', { name: 'Скопировано' }).waitFor();
    const copied = String(await page.evaluate('navigator.clipboard.readText()'));
    expect(copied.length).toBeGreaterThan(20);
    expect(firstAnswer.replace(/\s+/g, ' ')).toContain(copied.split('\n')[0]?.replace(/[_*]/g, '').trim().slice(0, 20));

    // «Изменить» the last message: sent again, the old one kept as «Вариант 1 из 2».
    await page.getByRole('button', { name: 'Изменить' }).click();
    const field = page.getByRole('textbox', { name: 'Изменённое сообщение' });
    await field.fill('Придумай название для пекарни в горах');
    await page.locator('.chat-edit').getByRole('button', { name: 'Отправить' }).click();
    await page.getByRole('article', { name: 'Вы' }).getByText('Придумай название для пекарни в горах').waitFor();
    await page.getByRole('article', { name: 'Вы' }).getByRole('group', { name: 'Вариант 2 из 2' }).waitFor({ timeout: 20_000 });
    await answers(page).first().getByText(/^Списано/).waitFor({ timeout: 20_000 });
    await shots(page, 'chat-edited');

    // Search: the words marked; a result opens the chat at the message.
    await openPage(page, e2e.url('/chat'));
    await page.getByRole('searchbox', { name: 'Поиск по чатам' }).fill('пекарня');
    const hits = page.getByRole('list', { name: 'Найдено' });
    await hits.locator('mark').first().waitFor({ timeout: 10_000 });
    expect((await hits.locator('mark').first().textContent())?.toLowerCase()).toContain('пекарн');
    await shots(page, 'chat-search');
    await hits.getByRole('button').first().click();
    await page.waitForURL(/\/chat\?id=\d+/);
    await page.locator('.chat-msg--found').waitFor();

    // Download as Markdown.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Скачать .md' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.md$/);
    const file = await download.path();
    const fs = await import('node:fs');
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain('### Вы ·');
    expect(text).toContain(`### ${MODEL} ·`);
    expect(text).toContain('пекарни в горах');

    const state = await walletState(e2e.t.db, user.id);
    expect(state.balance).toEqual(state.sums);
  });
});
