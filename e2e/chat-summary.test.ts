import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newUser, walletState } from '@app/server/testing';
import { seedAiCatalog } from '../server/src/db/seed.ts';
import { credit, debitUpTo } from '../server/src/features/wallet/wallet.queries.ts';
import { openPage, setupE2E, shots } from './support/index.ts';

/*
 * A chat whose history has grown expensive: the price under the composer says so and offers a new
 * chat with a short summary; one click writes the summary (charged as an answer, a line of the
 * balance history of its own) and opens the new chat, which starts with it. Staff's cap on the
 * history a model gets shows in the price.
 */

const e2e = setupE2E({ env: { DEMO_WORD_DELAY_MS: '0' } });
const MODEL = 'Демо-ассистент';
const TITLE = 'Кофейня у моря: меню, цены и вывеска';

beforeAll(async () => {
  await seedAiCatalog(e2e.t.db);
});

const digits = (text: string | null) => Number((text ?? '').replace(/\D/g, ''));
const shownBalance = async (page: Page) => digits(await page.locator('.chat-composer__balance').textContent());
const price = (page: Page) => page.locator('.chat-model__price');

/** A chat of ten long messages, as if the user had talked for a while. */
async function longChat(userId: number, modelId: number): Promise<number> {
  const chat = await e2e.t.db.insertInto('chats').values({ user_id: userId, title: TITLE, model_id: modelId }).returning('id').executeTakeFirstOrThrow();
  let parent: number | null = null;
  for (let i = 0; i < 10; i++) {
    const role = i % 2 === 0 ? 'user' : 'assistant';
    const text = `${role === 'user' ? 'Вопрос' : 'Ответ'} ${String(i + 1)}: ${'Капучино, латте и раф по разумной цене, вывеска с волной и чайкой. '.repeat(12)}`;
    const row: { id: number } = await e2e.t.db
      .insertInto('chat_messages')
      .values({ chat_id: chat.id, user_id: userId, role, text, status: 'done', parent_id: parent, ...(role === 'assistant' ? { model_id: modelId, model_name: MODEL } : {}) })
      .returning('id')
      .executeTakeFirstOrThrow();
    parent = row.id;
  }
  return chat.id;
}

describe('a new chat with a short summary of an expensive one', () => {
  it('offers it beside the price, writes and charges the summary once, opens the new chat that starts with it; staff’s cap shows in the price', async () => {
    const user = await newUser(e2e.t.db);
    await e2e.t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `e2e-summary-${String(user.id)}` }, 100_000));
    const model = await e2e.t.db.selectFrom('ai_models').select('id').where('name', '=', MODEL).executeTakeFirstOrThrow();
    const chatId = await longChat(user.id, model.id);
    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url(`/chat?id=${String(chatId)}`));

    // The history costs more with each message than the longest answer: the price says so, and the offer is beside it.
    const offer = page.getByRole('region', { name: 'Дорогая история чата' });
    await offer.waitFor({ timeout: 15_000 });
    expect(await offer.textContent()).toMatch(/^История чата уже дороже самого ответа: до [\d\s]+ слов с каждым сообщением\./);
    expect(await price(page).textContent()).toMatch(/из них история чата — до [\d\s]+/);
    await shots(page, 'chat-summary-offer');

    await offer.getByRole('button', { name: 'Новый чат с кратким содержанием' }).click();
    await page.waitForURL((url) => /[?&]id=\d+/.test(url.search) && url.searchParams.get('id') !== String(chatId), { timeout: 20_000 });
    const newId = Number(new URL(page.url()).searchParams.get('id'));
    const summary = page.getByRole('article', { name: MODEL }).first();
    await summary.getByText(`Краткое содержание предыдущего чата «${TITLE}»`).waitFor({ timeout: 15_000 });
    await page.getByRole('heading', { level: 1, name: `Продолжение: ${TITLE}` }).waitFor();
    expect(await page.getByRole('article').count()).toBe(1);
    expect(await summary.getByRole('button', { name: 'Ответить заново' }).count()).toBe(0);

    // Charged as an answer: the words it cost came off the balance shown, which equals the ledger.
    const cost = digits(await summary.getByText(/^Списано/).textContent());
    expect(cost).toBeGreaterThan(0);
    await expect.poll(() => shownBalance(page)).toBe(100_000 - cost);
    const wallet = await walletState(e2e.t.db, user.id);
    expect(wallet.balance.words).toBe(100_000 - cost);
    expect(wallet.balance).toEqual(wallet.sums);
    // The new chat's history is short: no offer there.
    await expect.poll(() => price(page).textContent(), { timeout: 10_000 }).toMatch(/из них история чата — до/);
    expect(await offer.count()).toBe(0);
    await shots(page, 'chat-summary-opened');
    const made = await e2e.t.db.selectFrom('chats').select(['id', 'summary_of']).where('user_id', '=', user.id).where('summary_of', 'is not', null).execute();
    expect(made).toEqual([{ id: newId, summary_of: chatId }]);

    // The balance history names it.
    await openPage(page, e2e.url('/dashboard/balance'));
    await page.getByText(`Краткое содержание чата «${TITLE}»`).waitFor({ timeout: 15_000 });

    // Staff let the model get only the latest 4 messages: the price of the long chat says so.
    await e2e.t.db.updateTable('ai_models').set({ history_messages: 4 }).where('id', '=', model.id).execute();
    e2e.t.app.ctx.models.clear();
    await openPage(page, e2e.url(`/chat?id=${String(chatId)}`));
    await expect.poll(() => price(page).textContent(), { timeout: 15_000 }).toMatch(/история чата — до [\d\s]+ \(последние 4 сообщения\)/);
    await shots(page, 'chat-history-capped');

    // Too few words for the next send: the panel names the price shown under the composer, the history counted.
    const left = (await walletState(e2e.t.db, user.id)).balance.words;
    await e2e.t.db.transaction().execute((tx) => debitUpTo(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `e2e-summary-cut-${String(user.id)}` }, left - 100));
    await page.getByRole('textbox', { name: 'Сообщение' }).fill('А что с десертами?');
    await expect.poll(() => price(page).textContent(), { timeout: 10_000 }).toMatch(/^Отправка: [\d\s]+–[\d\s]+ слов/);
    const most = /–([\d\s]+) слов/.exec((await price(page).textContent()) ?? '')?.[1]?.replace(/\s/g, '') ?? '';
    await page.getByRole('textbox', { name: 'Сообщение' }).press('Enter');
    const panel = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'Недостаточно слов' }) });
    await panel.waitFor({ timeout: 15_000 });
    // The refusal re-reads the balance (it changed behind the page's back): the panel names it once that read lands.
    const panelText = async () => ((await panel.textContent()) ?? '').replace(/\s/g, ' ');
    await expect.poll(panelText, { timeout: 15_000 }).toMatch(/на балансе 100 слов\./);
    const said = await panelText();
    expect(said).toMatch(/Отправка может стоить до [\d ]+ слов, из них история чата — до [\d ]+ (слов|слова), на балансе 100 слов\./);
    expect(said.replace(/ /g, '')).toContain(`можетстоитьдо${most}слов`);
    await shots(page, 'chat-too-few-with-history');
    await e2e.t.db.updateTable('ai_models').set({ history_messages: null }).where('id', '=', model.id).execute();
    e2e.t.app.ctx.models.clear();
  }, 90_000);
});
