import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, multipart, newAdmin, newUser, nextTransactionId, notify, payFields, seedCatalog, startPayment, subscribe, until, type Catalog, type TestUser } from '@app/server/testing';
import type { ChatModel } from '@app/contracts';
import { seedAiCatalog } from '../server/src/db/seed.ts';
import { credit } from '../server/src/features/wallet/wallet.queries.ts';
import { openPage, setupE2E, shots } from './support/index.ts';

/*
 * What a new user runs into around buying and the balance: why the balance changed (the
 * balance history), where «Купить токены» leads, the plans page while paying is unavailable,
 * the order history after a declined checkout, and how long to wait after too many sign-ins.
 */

const e2e = setupE2E({ env: { DEMO_WORD_DELAY_MS: '0' } });
let catalog: Catalog;

beforeAll(async () => {
  catalog = await seedCatalog(e2e.t.db);
  await seedAiCatalog(e2e.t.db);
});

/** A demo chat answer through the API, as the chat sends it; answers the chat's title once the answer is closed and charged. */
async function chatAnswer(user: TestUser, message: string): Promise<string> {
  const models = (await call(e2e.t.app, { url: '/api/new/chat_models', token: user.token })).data.json as ChatModel[];
  const model = models.find((m) => m.name === 'Демо-ассистент');
  if (!model) throw new Error('no demo chat model');
  const body = multipart([
    { name: 'ai_models_id', value: String(model.id) },
    { name: 'param', value: model.setting.model.params[0]?.value ?? '' },
    { name: 'message', value: message },
  ]);
  const res = await call(e2e.t.app, { method: 'POST', url: '/api/new/chat', token: user.token, payload: body.payload, headers: body.headers });
  const chatId = (res.data.json as { chat_id: number }).chat_id;
  await until(() => e2e.t.db.selectFrom('chat_messages').select('id').where('chat_id', '=', chatId).where('role', '=', 'assistant').where('status', '=', 'done').executeTakeFirst());
  return (await e2e.t.db.selectFrom('chats').select('title').where('id', '=', chatId).executeTakeFirstOrThrow()).title;
}

const normalize = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();
const dashboardCard = (page: Page, title: string) => page.locator('section').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

describe('the balance history', () => {
  it('from the dashboard\'s balance: every change in words, newest first; «Купить токены» leads to the packages on a plan', async () => {
    const user = await newUser(e2e.t.db);
    const admin = await newAdmin(e2e.t.db);
    await subscribe(e2e.t.app, user, catalog.trial);
    await e2e.t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'words', reason: 'welcome_gift', idempotencyKey: `welcome:${String(user.id)}:words`, refType: 'telegram', refId: 1 }, 10_000));
    const pack = await startPayment(e2e.t.app, user, catalog.wordsPack);
    const paid = payFields(pack, user);
    expect((await notify(e2e.t.app, 'pay', paid)).code).toBe(0);
    const chat = await chatAnswer(user, 'Подбери рецепт борща на большую семью');
    const adjusted = await call(e2e.t.app, { method: 'POST', url: `/api/admin/users/${String(user.id)}/balance`, token: admin.token, payload: { wallet: 'media', amount: 2.5, reason: 'Компенсация за сбой генерации', request_id: crypto.randomUUID() } });
    expect(adjusted.statusCode).toBe(200);
    const refund = { TransactionId: nextTransactionId(), PaymentTransactionId: paid.TransactionId, Amount: '290.00', Currency: 'RUB', AccountId: String(user.id) };
    expect((await notify(e2e.t.app, 'refund', refund)).code).toBe(0);

    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url('/dashboard'));
    const balance = dashboardCard(page, 'Баланс');
    await balance.getByRole('listitem').first().waitFor();
    expect(await balance.getByRole('link', { name: 'Купить токены' }).getAttribute('href')).toBe('/dashboard/user/payment#packages');
    await shots(page, 'dashboard-on-plan');
    await balance.getByRole('link', { name: 'История баланса' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/balance');
    await page.getByRole('heading', { level: 1, name: 'История баланса' }).waitFor();
    const lines = page.locator('.ledger__line');
    await lines.first().waitFor();
    const read = async () => (await lines.all()).map(async (line) => [normalize(await line.locator('.ledger__title').textContent()), normalize(await line.locator('.ledger__amount').textContent())]);
    const shown = await Promise.all(await read());
    expect(shown[2]?.[0]).toBe(`Ответ в чате «${chat}»`);
    expect(shown[2]?.[1]).toMatch(/^−[\d ]+ (слово|слова|слов)$/);
    expect(shown.filter((_, i) => i !== 2)).toEqual([
      ['Возврат оплаты пакета «Пакет слов»', '−100 000 слов'],
      ['Начислено сервисом', '+2,5 медиа токена'],
      ['Покупка пакета «Пакет слов»', '+100 000 слов'],
      ['Подарок за подписку на канал', '+10 000 слов'],
      ['Пробный период тарифа «Старт»', '+30,0 медиа токена'],
      ['Пробный период тарифа «Старт»', '+100 000 слов'],
    ]);
    await page.getByText('Компенсация за сбой генерации').waitFor();
    await page.getByRole('region', { name: 'Сейчас на балансе' }).getByText('32,5').waitFor();
    await shots(page, 'balance-history');
  });

  it('a new user: an empty history, and «Купить токены» leads to the plans', async () => {
    const user = await newUser(e2e.t.db);
    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url('/dashboard'));
    const balance = dashboardCard(page, 'Баланс');
    await balance.getByRole('listitem').first().waitFor();
    expect(await balance.getByRole('link', { name: 'Купить токены' }).getAttribute('href')).toBe('/dashboard/user/payment');
    await openPage(page, e2e.url('/dashboard/balance'));
    await page.getByText('Пока ни одного движения').waitFor();
    await shots(page, 'balance-history-empty');
  });
});

describe('the plans page while paying is unavailable', () => {
  it('says so up front instead of the test cards, and a buy button says why instead of opening a payment', async () => {
    const user = await newUser(e2e.t.db);
    await e2e.t.db.insertInto('settings').values({ key: 'sandbox_payments', value: JSON.stringify(false) }).execute();
    await e2e.t.ctx.settings.load(e2e.t.db);
    try {
      const page = await e2e.signedInPage(user);
      await openPage(page, e2e.url('/dashboard/user/payment'));
      await page.getByRole('note').filter({ hasText: 'Оплата временно недоступна' }).waitFor();
      expect(await page.getByText('Тестовый режим оплаты').count()).toBe(0);
      const start = page.getByRole('article', { name: 'Старт', exact: true });
      const trial = start.getByRole('button', { name: 'Попробовать за 99 р.' });
      expect(await trial.getAttribute('aria-disabled')).toBe('true');
      // Only aria-disabled (it stays clickable to explain why), which Playwright's actionability check refuses.
      await trial.click({ force: true });
      await start.getByText('Оплата временно недоступна. Попробуйте позже').waitFor();
      expect(await page.getByRole('dialog').count()).toBe(0);
      expect(await page.locator('iframe').count()).toBe(0);
      await shots(page, 'plans-payments-unavailable');
    } finally {
      await e2e.t.db.deleteFrom('settings').where('key', '=', 'sandbox_payments').execute();
      await e2e.t.ctx.settings.load(e2e.t.db);
    }
  });
});

describe('the order history after checkouts that did not pay', () => {
  it('a declined checkout is not an order; one still open shows as unpaid', async () => {
    const user = await newUser(e2e.t.db);
    const declined = await startPayment(e2e.t.app, user, catalog.trial);
    expect((await notify(e2e.t.app, 'fail', payFields(declined, user, { Reason: 'InsufficientFunds', ReasonCode: 5051, Status: 'Declined' }))).code).toBe(0);
    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url('/dashboard/user/orders'));
    await page.getByText('У вас пока нет подписок').waitFor();
    await shots(page, 'orders-after-decline');

    await startPayment(e2e.t.app, user, catalog.monthly);
    await openPage(page, e2e.url('/dashboard/user/orders'));
    const panel = page.getByRole('tabpanel', { name: 'Подписки' });
    await panel.getByRole('heading', { name: 'Бизнес' }).waitFor();
    expect((await panel.getByRole('list', { name: 'Статус' }).getByRole('listitem').allTextContents()).map(normalize)).toEqual(['Не оплачено']);
    expect(await panel.getByRole('heading', { name: 'Старт' }).count()).toBe(0);
  });
});

describe('too many sign-in attempts', () => {
  // Ten wrong passwords for one account from the browser's own address hold that address back
  // from that account (its owner elsewhere still signs in: server/test/auth).
  it('the sign-in form says how long to wait', async () => {
    const user = await newUser(e2e.t.db);
    for (let i = 0; i < 10; i++) {
      const res = await call(e2e.t.app, { method: 'POST', url: '/api/new/login', payload: { email: user.email, password: 'wrong-password' }, csrf: true, remoteAddress: '127.0.0.1' });
      expect(res.statusCode).toBe(422);
    }
    const page = await e2e.newPage();
    await openPage(page, e2e.url('/login'));
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Пароль').fill(user.password);
    await page.getByRole('button', { name: 'Войти' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Слишком много неудачных попыток' });
    await alert.waitFor();
    expect(normalize(await alert.textContent())).toMatch(/^Слишком много неудачных попыток войти в этот аккаунт с вашего адреса\. Попробуйте через \d+ (минуту|минуты|минут|секунду|секунды|секунд) или восстановите пароль$/);
    expect(new URL(page.url()).pathname).toBe('/login');
    await shots(page, 'login-rate-limited');
  });
});

