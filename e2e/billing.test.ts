import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { BILLING_TEXTS, ERROR_CODES } from '@app/contracts';
import { call, newAdmin, newUser, seedCatalog, startPayment, walletState, type Catalog, type TestUser } from '@app/server/testing';
import { SEED_CARDS } from '../server/src/db/seed.ts';
import type { TariffRow } from '../server/src/features/billing/billing.table.ts';
import { afterNavigation, checkoutFrame, futureExpiry, openPage, payInCheckout, planCard, setupE2E } from './support/index.ts';

/** The seed's texts (seed §4) and the sandbox's test cards (README). */
const SEED = {
  trialStart: BILLING_TEXTS.trial(99),
  current: BILLING_TEXTS.current,
  cancelled: BILLING_TEXTS.cancelled,
  purchased: BILLING_TEXTS.purchased,
  buy: BILLING_TEXTS.buy,
  yes: BILLING_TEXTS.yes,
  no: BILLING_TEXTS.no,
  subscriptionsTab: BILLING_TEXTS.ordersTabSubscriptions,
  autoChargesTab: BILLING_TEXTS.ordersTabAutoCharges,
};
const CARDS = { success: '4242 4242 4242 4242', declined: '4012 8888 8888 1881' };
const DECLINE_REASON = 'Недостаточно средств на карте';

const e2e = setupE2E();
let catalog: Catalog;

beforeAll(async () => {
  catalog = await seedCatalog(e2e.t.db);
  await e2e.t.db.insertInto('dashboard_cards').values([...SEED_CARDS]).execute();
});

/**
 * With `E2E_SCREENSHOTS_DIR` set, each main page state is saved there as a full-page
 * screenshot (to look at); otherwise nothing is taken.
 */
const SHOTS_DIR = process.env.E2E_SCREENSHOTS_DIR;
async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS_DIR) return;
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  // From the top: a sticky header would otherwise be painted where the page was scrolled to.
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`), fullPage: true });
}

const signedInPage = (user: TestUser): Promise<Page> => e2e.signedInPage(user);

const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();

/** A plan card of the tariffs widget, found by its name. */
const plan = planCard;

/** A card of the dashboard, found by its title. */
const dashboardCard = (page: Page, title: string) => page.locator('section').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

const checkout = checkoutFrame;

/** The balances as the dashboard shows them: words whole, media tokens with one decimal (seed §9). */
async function dashboardBalances(page: Page): Promise<{ words: string; media: string }> {
  // The dashboard mounts first and then loads its data: wait for the balances to be drawn.
  const list = dashboardCard(page, 'Баланс').getByRole('listitem');
  await list.first().waitFor();
  const items = (await list.allTextContents()).map(normalize);
  const words = items.map((t) => /^([\d ]+?) ?(?:слово|слова|слов)$/.exec(t)?.[1]).find(Boolean);
  const media = items.map((t) => /^([\d ]+,\d) ?медиа токена$/.exec(t)?.[1]).find(Boolean);
  if (!words || !media) throw new Error(`no balances in ${JSON.stringify(items)}`);
  return { words, media };
}

const wordsNumber = (text: string) => Number(text.replace(/ /g, ''));

/** Subscribes `user` through the API and the sandbox checkout call (the same path the frame takes). */
async function subscribeInSandbox(user: TestUser, tariff: TariffRow, card = '4242424242424242'): Promise<void> {
  const invoice = await startPayment(e2e.t.app, user, tariff);
  const res = await call(e2e.t.app, {
    method: 'POST',
    url: '/api/sandbox/cloudpayments/charge',
    token: user.token,
    payload: { payment_id: invoice.payment_id, card_number: card, exp: futureExpiry(), cvv: '123' },
  });
  expect(res.data.json).toMatchObject({ success: true });
}

const currentSubscription = (userId: number) =>
  e2e.t.db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).where('status', 'in', ['active', 'past_due', 'cancelled']).executeTakeFirst();

describe('plans and payments in the sandbox', () => {
  it('subscribes with the trial: confirmation, card in the checkout frame, «Ваш тариф», then the dashboard', async () => {
    const user = await newUser(e2e.t.db);
    const page = await signedInPage(user);
    await openPage(page, e2e.url('/dashboard/user/payment'));
    await page.getByRole('note').filter({ hasText: 'Тестовый режим оплаты' }).first().waitFor();
    await shot(page, '01-payment-page');

    await plan(page, 'Старт').getByRole('button', { name: SEED.trialStart }).click();
    const confirm = page.getByRole('dialog', { name: 'Подписка «Старт»' });
    await confirm.getByText('Сейчас спишем 99 ₽ за пробный период 3 дня').waitFor();
    await shot(page, '02-subscribe-confirmation');
    await confirm.getByRole('button', { name: 'Перейти к оплате' }).click();

    const frame = checkout(page);
    await frame.getByRole('heading', { name: 'Оплата картой' }).waitFor();
    await frame.getByText('Нейростудия: подписка «Старт»').waitFor();
    await shot(page, '03-checkout-frame');
    await payInCheckout(page, CARDS.success, '99 ₽');

    const card = plan(page, 'Старт');
    await card.getByRole('button', { name: SEED.current }).waitFor();
    await card.getByText('Оплата прошла: тариф «Старт» подключён.').waitFor();
    expect(await card.getByRole('button', { name: SEED.current }).isDisabled()).toBe(true);
    await card.getByRole('button', { name: 'Отменить подписку' }).waitFor();
    await card.getByText('Автопродление с карты •••• 4242').waitFor();
    expect(await page.locator('iframe').count()).toBe(0);
    await shot(page, '04-plan-current');

    await openPage(page, e2e.url('/dashboard'));
    const subscription = dashboardCard(page, 'Подписка');
    await subscription.getByText('Старт', { exact: true }).waitFor();
    await subscription.getByText('Автопродление через 3 дня').waitFor();
    expect(await dashboardBalances(page)).toEqual({ words: '100 000', media: '30,0' });
    await shot(page, '05-dashboard-subscribed');
  });

  it('cancels with «Да»: «Подписка отменена», still active to its end, paid and cancelled in the history', async () => {
    const user = await newUser(e2e.t.db);
    await subscribeInSandbox(user, catalog.trial);
    const page = await signedInPage(user);
    await openPage(page, e2e.url('/dashboard/user/payment'));

    const card = plan(page, 'Старт');
    await card.getByRole('button', { name: SEED.current }).waitFor();
    await card.getByRole('button', { name: 'Отменить подписку' }).click();
    const confirm = page.getByRole('dialog', { name: 'Отменить подписку?' });
    await confirm.getByRole('button', { name: SEED.no, exact: true }).waitFor();
    await shot(page, '06-cancel-confirmation');
    await confirm.getByRole('button', { name: SEED.yes, exact: true }).click();

    await card.getByRole('button', { name: SEED.cancelled }).waitFor();
    await card.getByText(/^Подписка отменена\. Тариф «Старт» действует до \d{2}\.\d{2}\.\d{4}/).waitFor();
    expect(await card.getByRole('button', { name: 'Отменить подписку' }).count()).toBe(0);
    await shot(page, '07-plan-cancelled');
    expect((await currentSubscription(user.id))?.status).toBe('cancelled');

    await openPage(page, e2e.url('/dashboard'));
    const subscription = dashboardCard(page, 'Подписка');
    await subscription.getByText('Подписка отменена').waitFor();
    await subscription.getByText('Автопродление отключено. Действует ещё 3 дня.').waitFor();
    await shot(page, '08-dashboard-cancelled');

    await openPage(page, e2e.url('/dashboard/user/orders'));
    expect(await page.getByRole('tab', { name: SEED.subscriptionsTab }).getAttribute('aria-selected')).toBe('true');
    const panel = page.getByRole('tabpanel', { name: SEED.subscriptionsTab });
    await panel.getByRole('heading', { name: 'Старт' }).waitFor();
    expect((await panel.getByRole('list', { name: 'Статус' }).getByRole('listitem').allTextContents()).map(normalize)).toEqual(['Оплачено', 'Пробный период 3 дня', 'Отменено']);
    await panel.getByText('99 ₽').waitFor();
    await shot(page, '09-orders-subscriptions');
  });

  it('buys a package with an active plan: «Покупка завершена» and 100 000 more words on the dashboard', async () => {
    const user = await newUser(e2e.t.db);
    await subscribeInSandbox(user, catalog.trial);
    const page = await signedInPage(user);
    await openPage(page, e2e.url('/dashboard'));
    const before = await dashboardBalances(page);

    await openPage(page, e2e.url('/dashboard/user/payment'));
    const pack = plan(page, 'Пакет слов');
    const buy = pack.getByRole('button', { name: SEED.buy });
    expect(await buy.getAttribute('aria-disabled')).toBeNull();
    await buy.click();
    const frame = await payInCheckout(page, CARDS.success, '290 ₽');
    await frame.getByRole('heading', { name: 'Оплата картой' }).waitFor({ state: 'detached' });

    await pack.getByRole('button', { name: SEED.purchased }).waitFor();
    await pack.getByText('Покупка завершена: токены пакета «Пакет слов» зачислены на баланс.').waitFor();
    await shot(page, '10-package-purchased');

    await openPage(page, e2e.url('/dashboard'));
    const after = await dashboardBalances(page);
    expect(wordsNumber(after.words) - wordsNumber(before.words)).toBe(100_000);
    expect(after.media).toBe(before.media);
  });

  it('a declined card: the reason in the frame and in the plan card, nothing credited, no plan', async () => {
    const user = await newUser(e2e.t.db);
    const page = await signedInPage(user);
    await openPage(page, e2e.url('/dashboard/user/payment'));
    await plan(page, 'Старт').getByRole('button', { name: SEED.trialStart }).click();
    await page.getByRole('dialog', { name: 'Подписка «Старт»' }).getByRole('button', { name: 'Перейти к оплате' }).click();

    const frame = await payInCheckout(page, CARDS.declined, '99 ₽');
    await frame.getByRole('alert').filter({ hasText: `Оплата не прошла: ${DECLINE_REASON}` }).waitFor();
    await shot(page, '11-checkout-declined');
    await frame.getByRole('button', { name: 'Закрыть' }).click();

    const card = plan(page, 'Старт');
    await card.getByRole('alert').filter({ hasText: `Оплата не прошла: ${DECLINE_REASON}` }).waitFor();
    expect(await page.locator('iframe').count()).toBe(0);
    await card.getByRole('button', { name: SEED.trialStart }).waitFor();
    expect(await card.getByRole('button', { name: SEED.current }).count()).toBe(0);
    await shot(page, '12-plan-declined');

    await openPage(page, e2e.url('/dashboard'));
    await dashboardCard(page, 'Подписка').getByText('Нет активной подписки').waitFor();
    expect(await dashboardBalances(page)).toEqual({ words: '0', media: '0,0' });

    expect(await walletState(e2e.t.db, user.id)).toEqual({ balance: { words: 0, media: 0 }, sums: { words: 0, media: 0 } });
    expect(await currentSubscription(user.id)).toBeUndefined();
    const invoices = await e2e.t.db.selectFrom('invoices').select(['status', 'paid_at']).where('user_id', '=', user.id).execute();
    expect(invoices).toEqual([{ status: 'failed', paid_at: null }]);
  });
});

describe('packages without a plan, and guests', () => {
  it('the package button looks disabled and explains why; a guest lands on /login', async () => {
    const user = await newUser(e2e.t.db);
    const page = await signedInPage(user);
    await openPage(page, e2e.url('/dashboard/user/payment'));
    const pack = plan(page, 'Пакет слов');
    const buy = pack.getByRole('button', { name: SEED.buy });
    expect(await buy.getAttribute('aria-disabled')).toBe('true');
    expect(await buy.getAttribute('disabled')).toBeNull();
    // Only aria-disabled (it stays clickable to explain why), which Playwright's actionability check refuses.
    await buy.click({ force: true });
    await pack.getByText(ERROR_CODES.SUBSCRIPTION_REQUIRED.message).waitFor();
    expect(await page.locator('iframe').count()).toBe(0);
    expect(await e2e.t.db.selectFrom('invoices').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    await shot(page, '13-package-without-plan');

    const guest = await e2e.newPage();
    await guest.goto(e2e.url('/dashboard/user/payment'));
    await afterNavigation(guest, '/login');
    expect(new URL(guest.url()).searchParams.get('next')).toBe('/dashboard/user/payment');
    await guest.getByRole('heading', { name: 'Вход' }).waitFor();
  });
});

describe('welcome gift in the Telegram sandbox', () => {
  it('asks for the channel, checks it on the server, thanks, credits the gift and stays closed', async () => {
    const user = await newUser(e2e.t.db);
    const page = await signedInPage(user);
    await openPage(page, e2e.url('/dashboard'));
    const notice = page.locator('section').filter({ has: page.getByRole('heading', { name: /за подписку на наш канал/ }) });
    const title = normalize((await notice.getByRole('heading').first().textContent()) ?? '');
    expect(title).toBe('10 000 слов и 3,0 медиа токена за подписку на наш канал');
    expect(await dashboardBalances(page)).toEqual({ words: '0', media: '0,0' });
    await shot(page, '14-welcome-notice');

    // Before the bot: the server's message.
    const check = notice.getByRole('button', { name: 'Я подписался' });
    await check.click();
    await notice.getByRole('alert').filter({ hasText: ERROR_CODES.TELEGRAM_NOT_LINKED.message }).waitFor();

    // The bot link opens in a new tab: follow its address in a new page of the same browser.
    const href = await notice.getByRole('link', { name: 'Открыть бота в Telegram' }).getAttribute('href');
    expect(href).toMatch(/^\/sandbox\/telegram\?start=[A-Za-z0-9_-]+$/);
    const bot = await page.context().newPage();
    await openPage(bot, e2e.url(href ?? ''));
    await bot.getByRole('heading', { name: 'Бот Нейростудии (песочница)' }).waitFor();
    await shot(bot, '15-sandbox-bot');

    // Linked but not in the channel yet.
    await bot.getByRole('button', { name: 'Только открыть бота' }).click();
    await bot.getByRole('status').filter({ hasText: 'Аккаунт привязан, но вы ещё не подписаны на канал' }).waitFor();
    await check.click();
    await notice.getByRole('alert').filter({ hasText: ERROR_CODES.TELEGRAM_NOT_MEMBER.message }).waitFor();

    await bot.getByRole('button', { name: 'Подписаться на канал' }).click();
    await bot.getByRole('status').filter({ hasText: 'Готово: аккаунт привязан и вы подписаны на канал' }).waitFor();
    await shot(bot, '16-sandbox-bot-joined');
    await bot.close();

    await page.bringToFront();
    await check.click();
    const thanks = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Спасибо за подписку!' }) });
    await thanks.waitFor();
    expect(normalize((await thanks.textContent()) ?? '')).toContain('Подарок начислен на ваш баланс: 10 000 слов и 3,0 медиа токена.');
    expect(await walletState(e2e.t.db, user.id)).toEqual({ balance: { words: 10_000, media: 30 }, sums: { words: 10_000, media: 30 } });
    // The balance beside the notice shows the gift at once, not after a reload.
    await expect.poll(() => dashboardBalances(page)).toEqual({ words: '10 000', media: '3,0' });
    await shot(page, '17-welcome-thanks');

    const closed = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/new/nt_close' && res.status() === 200);
    await thanks.getByRole('button', { name: 'Закрыть', exact: true }).click();
    await closed;
    await thanks.waitFor({ state: 'detached' });

    await openPage(page, e2e.url('/dashboard'));
    await dashboardCard(page, 'Баланс').waitFor();
    expect(await dashboardBalances(page)).toEqual({ words: '10 000', media: '3,0' });
    expect(await page.getByRole('heading', { name: 'Спасибо за подписку!' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: /за подписку на наш канал/ }).count()).toBe(0);
    await shot(page, '18-dashboard-after-gift');
  });
});

describe('order history', () => {
  it('shows renewals triggered by an admin in «Авто списания», one record per page', async () => {
    const user = await newUser(e2e.t.db);
    await subscribeInSandbox(user, catalog.trial);
    const sub = await currentSubscription(user.id);
    if (!sub?.cp_subscription_id) throw new Error('no sandbox subscription');
    const admin = await newAdmin(e2e.t.db);
    const renew = async () => {
      const res = await fetch(e2e.url('/api/admin/sandbox/renew'), {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ subscription_id: sub.id }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { json: { charged: number; failed: number } }).json;
    };
    // A successful renewal, then one that fails: the card now has no money (the 4111… test card's behaviour).
    expect(await renew()).toEqual({ charged: 1, failed: 0 });
    await e2e.t.db.updateTable('sandbox_subscriptions').set({ card_number: '4111111111111111' }).where('id', '=', sub.cp_subscription_id).execute();
    expect(await renew()).toEqual({ charged: 0, failed: 1 });

    const page = await signedInPage(user);
    await openPage(page, e2e.url('/dashboard'));
    await page.getByRole('link', { name: 'История заказов' }).click();
    await afterNavigation(page, '/dashboard/user/orders');
    await page.getByRole('tab', { name: SEED.autoChargesTab }).click();
    const panel = page.getByRole('tabpanel', { name: SEED.autoChargesTab });
    const statuses = async () => (await panel.getByRole('list', { name: 'Статус' }).getByRole('listitem').allTextContents()).map(normalize);

    // Newest first: the failed charge on page 1, the successful one on page 2. The position
    // («Запись N из 2») changes at the click, the record once its page has loaded: hence the polls.
    await panel.getByText('Запись 1 из 2').waitFor();
    await panel.getByRole('heading', { name: 'Старт' }).waitFor();
    await panel.getByText('490 ₽').waitFor();
    await expect.poll(statuses).toEqual(['Не удалось списать']);
    const pages = panel.getByRole('navigation', { name: 'Страницы' });
    expect(await pages.getByRole('button').allTextContents()).toEqual(['1', '2']);
    expect(await pages.getByRole('button', { name: '1' }).getAttribute('aria-current')).toBe('page');
    await shot(page, '19-orders-auto-charges-page1');

    await pages.getByRole('button', { name: '2' }).click();
    await panel.getByText('Запись 2 из 2').waitFor();
    await panel.getByText('Списано', { exact: true }).waitFor();
    await expect.poll(statuses).toEqual(['Списано']);
    expect(await pages.getByRole('button', { name: '2' }).getAttribute('aria-current')).toBe('page');
    await shot(page, '20-orders-auto-charges-page2');

    await pages.getByRole('button', { name: '1' }).click();
    await panel.getByText('Запись 1 из 2').waitFor();
    await expect.poll(statuses).toEqual(['Не удалось списать']);

    // The other tab keeps its own list: the one subscription, paid, bought with the trial.
    await page.getByRole('tab', { name: SEED.subscriptionsTab }).click();
    const subscriptions = page.getByRole('tabpanel', { name: SEED.subscriptionsTab });
    await subscriptions.getByRole('heading', { name: 'Старт' }).waitFor();
    expect((await subscriptions.getByRole('list', { name: 'Статус' }).getByRole('listitem').allTextContents()).map(normalize)).toEqual(['Оплачено', 'Пробный период 3 дня']);
    expect(await subscriptions.getByRole('navigation', { name: 'Страницы' }).count()).toBe(0);
  });
});
