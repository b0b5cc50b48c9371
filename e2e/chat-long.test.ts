import { describe, expect, it } from 'vitest';
import { newAdmin, newUser } from '@app/server/testing';
import { openPage, setupE2E, shots } from './support/index.ts';

/*
 * A long chat (260 messages) is read a page at a time: the user opens it on its newest
 * messages and scrolls up to read the older ones, the place read staying put; staff page the
 * same chat in the admin's chat view.
 */

const e2e = setupE2E();
const TOTAL = 260;
/** The conversation scrolled to its top, as the user would. */
const SCROLL_TO_TOP = `document.querySelector('.chat-conversation').scrollTo({ top: 0 })`;

async function longChat() {
  const user = await newUser(e2e.t.db);
  const chat = await e2e.t.db.insertInto('chats').values({ user_id: user.id, title: 'Длинная переписка' }).returning('id').executeTakeFirstOrThrow();
  await e2e.t.db
    .insertInto('chat_messages')
    .values(
      Array.from({ length: TOTAL }, (_, i) => ({
        chat_id: chat.id,
        user_id: user.id,
        role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
        text: i % 2 === 0 ? `Вопрос №${String(i + 1)}: что дальше?` : `Ответ №${String(i + 1)}.\n\nНесколько строк текста, чтобы сообщение было похоже на настоящее.`,
        status: 'done' as const,
        ...(i % 2 === 1 ? { model_name: 'Демо-ассистент', words: 12 } : {}),
      })),
    )
    .execute();
  return { user, chatId: chat.id };
}

describe('a long chat', () => {
  it('opens on its newest messages; scrolling up reads the older ones in place, back to the first', async () => {
    const { user, chatId } = await longChat();
    const page = await e2e.signedInPage(user);
    const replies: number[] = [];
    page.on('response', (res) => {
      if (new URL(res.url()).pathname === `/api/new/chat/${String(chatId)}`) replies.push(Number(res.headers()['content-length'] ?? 0));
    });
    await openPage(page, e2e.url(`/chat?id=${String(chatId)}`));
    const region = page.getByRole('region', { name: 'Переписка', exact: true });
    await region.getByText(`Ответ №${String(TOTAL)}.`).waitFor();
    expect(await page.locator('.chat-msg').count()).toBe(50);
    await shots(page, 'chat-long-newest');

    // Scrolled to the top: the 50 before come above, and the message that was at the top stays in view.
    const top = region.getByText(`Вопрос №${String(TOTAL - 49)}: что дальше?`);
    await page.evaluate(SCROLL_TO_TOP);
    await region.getByText(`Вопрос №${String(TOTAL - 99)}: что дальше?`).waitFor();
    await expect.poll(() => page.locator('.chat-msg').count()).toBe(100);
    const box = await region.boundingBox();
    const kept = await top.boundingBox();
    expect(box && kept && kept.y >= box.y - 5 && kept.y < box.y + box.height).toBe(true);
    expect(Number(await page.evaluate(`document.querySelector('.chat-conversation').scrollTop`))).toBeGreaterThan(1000);
    await shots(page, 'chat-long-older');

    // On up to the first message; then nothing more to read.
    for (let shown = 100; shown < TOTAL; shown = Math.min(TOTAL, shown + 50)) {
      await page.evaluate(SCROLL_TO_TOP);
      await expect.poll(() => page.locator('.chat-msg').count()).toBe(Math.min(TOTAL, shown + 50));
    }
    await region.getByText('Вопрос №1: что дальше?').waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Показать предыдущие сообщения' }).count()).toBe(0);
    const texts = await page.locator('.chat-msg .chat-msg__text').allTextContents();
    expect(texts).toEqual(Array.from({ length: TOTAL / 2 }, (_, i) => `Вопрос №${String(2 * i + 1)}: что дальше?`));
    // Each reply a page, not the whole chat.
    expect(replies.length).toBe(Math.ceil(TOTAL / 50));
  });

  it('the admin’s chat view pages the same chat with «Показать более ранние сообщения»', async () => {
    const { chatId } = await longChat();
    const page = await e2e.signedInPage(await newAdmin(e2e.t.db));
    await openPage(page, e2e.url(`/admin/chat_model?chat=${String(chatId)}`));
    const dialog = page.getByRole('dialog', { name: 'Длинная переписка' });
    await dialog.getByText(`Ответ №${String(TOTAL)}.`).waitFor();
    await dialog.getByText(`Показаны последние 50 сообщений из ${String(TOTAL)}.`).waitFor();
    await shots(page, 'admin-chat-long');
    for (let shown = 50; shown < TOTAL; shown += 50) {
      await dialog.getByRole('button', { name: 'Показать более ранние сообщения' }).click();
      await expect.poll(() => dialog.locator('.admin-chat__message').count()).toBe(Math.min(TOTAL, shown + 50));
    }
    await dialog.getByText('Вопрос №1: что дальше?').waitFor();
    expect(await dialog.getByRole('button', { name: 'Показать более ранние сообщения' }).count()).toBe(0);
  });
});
