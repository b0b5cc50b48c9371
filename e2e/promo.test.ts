import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newAdmin, newUser, seedCatalog, walletState, type Catalog } from '@app/server/testing';
import { afterNavigation, checkoutFrame, futureExpiry, openPage, planCard, setupE2E, shots } from './support/index.ts';

/*
 * Promo codes and referrals in the browser: staff create a code in «Тарифы» › «Промокоды», a user
 * redeems it on the balance page and sees its ledger line; a discount code leads to the plans page
 * and its checkout charges less; a friend invited by a link registers and pays in the sandbox, and
 * the inviter sees the bonus.
 */

const e2e = setupE2E();
let catalog: Catalog;

beforeAll(async () => {
  catalog = await seedCatalog(e2e.t.db);
});

const normalize = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();
const code = (prefix: string) => `${prefix}${crypto.randomBytes(3).toString('hex').toUpperCase()}`;
const ledgerLines = async (page: Page) =>
  Promise.all((await page.locator('.ledger__line').all()).map(async (line) => [normalize(await line.locator('.ledger__title').textContent()), normalize(await line.locator('.ledger__amount').textContent())]));

describe('promo codes', () => {
  it('staff create a code in «Тарифы» › «Промокоды»; a user redeems it on the balance page and sees the ledger line', async () => {
    const admin = await newAdmin(e2e.t.db);
    const staff = await e2e.signedInPage(admin);
    await openPage(staff, e2e.url('/admin/tariff'));
    await staff.getByRole('navigation', { name: 'Разделы тарифов' }).getByRole('link', { name: 'Промокоды' }).click();
    await afterNavigation(staff, '/admin/promo-codes');
    await staff.getByRole('link', { name: 'Новый промокод' }).click();
    const form = staff.getByRole('form', { name: 'Новый промокод' });
    const text = code('WELCOME');
    await form.getByLabel('Код').fill(text.toLowerCase());
    await form.getByLabel('Слов', { exact: true }).fill('2500');
    await form.getByLabel('Медиа токенов').fill('1,5');
    await form.getByLabel('Использований всего').fill('100');
    await shots(staff, 'promo-admin-new');
    await form.getByRole('button', { name: 'Создать промокод' }).click();
    await staff.getByText('Промокод создан: пользователи уже могут его активировать.').waitFor();
    expect(new URL(staff.url()).pathname).toMatch(/^\/admin\/promo-codes\/\d+$/);

    const user = await newUser(e2e.t.db);
    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url('/dashboard/balance'));
    const promo = page.getByRole('region', { name: 'Промокод' });
    await promo.getByLabel('Код').fill('NOSUCHCODE');
    await promo.getByRole('button', { name: 'Активировать' }).click();
    await promo.getByText('Такого промокода нет. Проверьте, правильно ли он введён').waitFor();
    await promo.getByLabel('Код').fill(text.toLowerCase());
    await promo.getByRole('button', { name: 'Активировать' }).click();
    await promo.getByText(`Промокод ${text} активирован: начислено 2 500 слов и 1,5 медиа токена`).waitFor();
    await page.locator('.ledger__line').nth(1).waitFor();
    expect((await ledgerLines(page)).sort()).toEqual(
      [
        [`Промокод ${text}`, '+1,5 медиа токена'],
        [`Промокод ${text}`, '+2 500 слов'],
      ].sort(),
    );
    await shots(page, 'promo-balance-redeemed');
    await promo.getByLabel('Код').fill(text);
    await promo.getByRole('button', { name: 'Активировать' }).click();
    await promo.getByText('Вы уже использовали этот промокод').waitFor();
    const { balance, sums } = await walletState(e2e.t.db, user.id);
    expect(balance).toEqual({ words: 2500, media: 15 });
    expect(sums).toEqual(balance);

    await openPage(staff, e2e.url('/admin/promo-codes'));
    const row = staff.getByRole('row').filter({ hasText: text });
    await row.getByText('1 из 100').waitFor();
    await shots(staff, 'promo-admin-list');
  });

  it('a discount code leads from the balance page to the plans page; the checkout charges the discounted first payment', async () => {
    const text = code('START');
    await e2e.t.db.insertInto('promo_codes').values({ code: text, kind: 'discount', discount_percent: 20, tariff_id: catalog.trial.id }).execute();
    const user = await newUser(e2e.t.db);
    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url('/dashboard/balance'));
    const promo = page.getByRole('region', { name: 'Промокод' });
    await promo.getByLabel('Код').fill(text);
    await promo.getByRole('button', { name: 'Активировать' }).click();
    await promo.getByRole('link', { name: `К тарифу «${catalog.trial.name}»` }).click();
    await afterNavigation(page, '/dashboard/user/payment');
    await planCard(page, catalog.trial.name).getByRole('button', { name: /^Попробовать за/ }).click();
    const dialog = page.getByRole('dialog', { name: `Подписка «${catalog.trial.name}»` });
    await dialog.getByText(`Скидка 20 % по промокоду ${text}: первая оплата 79,2 ₽ вместо 99 ₽`).waitFor();
    await shots(page, 'promo-checkout-discount');
    await dialog.getByRole('button', { name: 'Перейти к оплате' }).click();
    const frame = checkoutFrame(page);
    await frame.getByRole('heading', { name: 'Оплата картой' }).waitFor();
    await frame.getByLabel('Номер карты').fill('4242 4242 4242 4242');
    await frame.getByLabel('Срок действия').fill(futureExpiry());
    await frame.getByLabel('CVV', { exact: true }).fill('123');
    const pay = frame.getByRole('button', { name: /^Оплатить/ });
    expect(normalize(await pay.textContent())).toMatch(/^Оплатить 79,2\d? ₽$/);
    await pay.click();
    await planCard(page, catalog.trial.name).getByText(`Оплата прошла: тариф «${catalog.trial.name}» подключён.`).waitFor();
    const invoice = await e2e.t.db.selectFrom('invoices').select(['amount_kopecks', 'status', 'discount_kopecks']).where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(invoice).toEqual({ amount_kopecks: 7920, status: 'paid', discount_kopecks: 1980 });
  });
});

describe('referrals', () => {
  it('invite → register by the link → pay in the sandbox → the inviter sees the bonus, invited, paid and earned', async () => {
    const inviter = await newUser(e2e.t.db);
    const own = await e2e.signedInPage(inviter);
    await openPage(own, e2e.url('/dashboard/balance'));
    const referral = own.getByRole('region', { name: 'Пригласите друзей' });
    const link = await referral.getByLabel('Ваша ссылка').inputValue();
    expect(link).toMatch(/\/register\?ref=[a-z0-9]{10}$/);
    await shots(own, 'referral-before');

    const friend = await e2e.newPage();
    await openPage(friend, link);
    const email = `friend-${crypto.randomBytes(4).toString('hex')}@example.ru`;
    await friend.getByLabel('Email').fill(email);
    await friend.getByLabel('Пароль', { exact: true }).fill('secret-password-1');
    await friend.getByLabel('Повторите пароль').fill('secret-password-1');
    await friend.getByRole('checkbox', { name: /согласен на обработку персональных данных/ }).check();
    await friend.getByRole('button', { name: 'Зарегистрироваться' }).click();
    await afterNavigation(friend, '/dashboard');
    const code = await e2e.t.smtp.confirmationCode(email);
    const overlay = friend.getByRole('dialog', { name: 'Подтвердите почту' });
    await overlay.getByLabel('Код из письма').fill(code);
    await overlay.getByRole('button', { name: 'Подтвердить' }).click();
    await friend.getByText('Почта подтверждена').waitFor();
    await friend.locator('[data-widget="email-confirm"]').waitFor({ state: 'detached' });

    await openPage(friend, e2e.url('/dashboard/user/payment'));
    await planCard(friend, catalog.trial.name).getByRole('button', { name: /^Попробовать за/ }).click();
    await friend.getByRole('dialog', { name: `Подписка «${catalog.trial.name}»` }).getByRole('button', { name: 'Перейти к оплате' }).click();
    const frame = checkoutFrame(friend);
    await frame.getByRole('heading', { name: 'Оплата картой' }).waitFor();
    await frame.getByLabel('Номер карты').fill('4242 4242 4242 4242');
    await frame.getByLabel('Срок действия').fill(futureExpiry());
    await frame.getByLabel('CVV', { exact: true }).fill('123');
    await frame.getByRole('button', { name: /^Оплатить/ }).click();
    await planCard(friend, catalog.trial.name).getByText(`Оплата прошла: тариф «${catalog.trial.name}» подключён.`).waitFor();

    await own.reload();
    await referral.getByText('Заработано').waitFor();
    const stats = await referral.locator('.referral__stats > div').allTextContents();
    expect(stats.map(normalize)).toEqual(['Приглашено1', 'Оплатили1', 'Заработано5 000 слов']);
    await own.locator('.ledger__line').first().waitFor();
    expect(await ledgerLines(own)).toEqual([['Бонус за приглашённого', '+5 000 слов']]);
    await shots(own, 'referral-earned');
  });
});
