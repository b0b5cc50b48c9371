import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { BILLING_TEXTS } from '@app/contracts';
import { call, eventually, newAdmin, newUser, notify, payFields, seedCatalog, startPayment, walletState, type Catalog, type TestUser } from '@app/server/testing';
import { futureExpiry, openPage, payInCheckout, planCard, setupE2E, shots } from './support/index.ts';

/*
 * The edges of paying, as the user and staff see them: a card declined and another tried in the
 * same payment form, an invoice charged twice (the second charge comes back by itself), and a
 * package partly refunded by staff.
 */

const e2e = setupE2E();
let catalog: Catalog;

beforeAll(async () => {
  catalog = await seedCatalog(e2e.t.db);
});

const normalize = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();
const statusesOf = async (panel: ReturnType<Page['getByRole']>) => (await panel.getByRole('list', { name: 'Статус' }).getByRole('listitem').allTextContents()).map(normalize);

/** Pays `tariff`'s checkout in the sandbox through its API (the path the payment form takes); answers the invoice. */
async function paidInSandbox(user: TestUser, tariff: Catalog[keyof Catalog]) {
  const invoice = await startPayment(e2e.t.app, user, tariff);
  const res = await call(e2e.t.app, {
    method: 'POST',
    url: '/api/sandbox/cloudpayments/charge',
    token: user.token,
    payload: { payment_id: invoice.payment_id, card_number: '4242424242424242', exp: futureExpiry(), cvv: '123' },
  });
  expect(res.data.json).toMatchObject({ success: true });
  return invoice;
}

describe('a card declined, then another in the same payment form', () => {
  it('the plan is on, the order is one paid trial that says so, and staff read the retry as a retry', async () => {
    const user = await newUser(e2e.t.db);
    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url('/dashboard/user/payment'));
    await planCard(page, 'Старт').getByRole('button', { name: BILLING_TEXTS.trial(99) }).click();
    await page.getByRole('dialog', { name: 'Подписка «Старт»' }).getByRole('button', { name: 'Перейти к оплате' }).click();
    const frame = await payInCheckout(page, '4012 8888 8888 1881', '99 ₽');
    await frame.getByRole('alert').filter({ hasText: 'Оплата не прошла: Недостаточно средств на карте' }).waitFor();
    await payInCheckout(page, '4242 4242 4242 4242', '99 ₽');
    const card = planCard(page, 'Старт');
    await card.getByRole('button', { name: BILLING_TEXTS.current }).waitFor();
    await card.getByText('Оплата прошла: тариф «Старт» подключён.', { exact: false }).waitFor();
    expect(await walletState(e2e.t.db, user.id)).toEqual({ balance: { words: 100_000, media: 300 }, sums: { words: 100_000, media: 300 } });

    await openPage(page, e2e.url('/dashboard/user/orders'));
    const orders = page.getByRole('tabpanel', { name: 'Подписки' });
    await orders.getByRole('heading', { name: 'Старт' }).waitFor();
    expect(await statusesOf(orders)).toEqual(['Оплачено', 'Пробный период 3 дня']);
    await shots(page, 'orders-trial-after-retry');

    const admin = await e2e.signedInPage(await newAdmin(e2e.t.db));
    await openPage(admin, e2e.url(`/admin/log?q=${encodeURIComponent(user.email)}`));
    const retry = admin.getByRole('row').filter({ hasText: 'Оплачено повторной попыткой после отказа' });
    await retry.waitFor();
    expect(normalize(await retry.textContent())).toContain('Оплата отклонена → Активна');
    expect(normalize(await retry.textContent())).not.toContain('Истекла');
    await admin.getByRole('row').filter({ hasText: 'Оплата отклонена' }).first().waitFor();
    await shots(admin, 'admin-log-retry');
  });
});

describe('an invoice charged twice', () => {
  it('the second charge comes back by itself: staff see it refunded and why, the user’s order says so, the tokens were granted once', async () => {
    const user = await newUser(e2e.t.db, { email: `twice-${crypto.randomBytes(3).toString('hex')}@example.ru` });
    const invoice = await paidInSandbox(user, catalog.trial);
    // CloudPayments charged the same invoice again (a second payment form).
    expect((await notify(e2e.t.app, 'pay', payFields(invoice, user))).code).toBe(0);
    const duplicate = await eventually(
      () => e2e.t.db.selectFrom('invoices').select(['id', 'status']).where('duplicate_of', '=', invoice.payment_id).executeTakeFirst(),
      (row) => row?.status === 'refunded',
      20_000,
    );
    expect(duplicate?.status).toBe('refunded');
    expect(await walletState(e2e.t.db, user.id)).toEqual({ balance: { words: 100_000, media: 300 }, sums: { words: 100_000, media: 300 } });

    const admin = await e2e.signedInPage(await newAdmin(e2e.t.db));
    await openPage(admin, e2e.url(`/admin/payments?q=${encodeURIComponent(user.email)}`));
    const row = admin.getByRole('row').filter({ hasText: `Повторная оплата №${String(invoice.payment_id)}` });
    await row.waitFor();
    await shots(admin, 'admin-payments-second-charge');
    await row.getByRole('link', { name: String(duplicate?.id), exact: true }).click();
    const dialog = admin.getByRole('dialog', { name: `Платёж №${String(duplicate?.id)}` });
    await dialog.getByText('Деньги вернулись на карту автоматически: CloudPayments подтвердил возврат.', { exact: false }).waitFor();
    expect(normalize(await dialog.getByRole('region', { name: 'Возвраты' }).textContent())).toContain('Автоматически');
    await shots(admin, 'admin-payment-second-charge');
    await dialog.getByRole('link', { name: `№${String(invoice.payment_id)}` }).click();
    const original = admin.getByRole('dialog', { name: `Платёж №${String(invoice.payment_id)}` });
    await original.getByRole('region', { name: 'Повторные оплаты' }).getByText('Возвращён автоматически').waitFor();

    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url('/dashboard/user/orders'));
    const orders = page.getByRole('tabpanel', { name: 'Подписки' });
    await orders.getByText('Оплата прошла дважды: второе списание 99 ₽ вернули на карту').waitFor();
    expect(await statusesOf(orders)).toEqual(['Оплачено', 'Пробный период 3 дня']);
    await shots(page, 'orders-paid-twice');
  });
});

describe('a package partly refunded by staff', () => {
  it('the user’s order says how much came back', async () => {
    const user = await newUser(e2e.t.db, { email: `part-${crypto.randomBytes(3).toString('hex')}@example.ru` });
    await paidInSandbox(user, catalog.monthly);
    const pack = await paidInSandbox(user, catalog.wordsPack);

    const admin = await e2e.signedInPage(await newAdmin(e2e.t.db));
    await openPage(admin, e2e.url(`/admin/payments?payment=${String(pack.payment_id)}`));
    const dialog = admin.getByRole('dialog', { name: `Платёж №${String(pack.payment_id)}` });
    const form = dialog.getByRole('form', { name: 'Возврат' });
    await form.getByLabel('Сумма, ₽').fill('145');
    await form.getByLabel('Причина').fill('Часть пакета не понадобилась');
    await form.getByRole('button', { name: 'Вернуть деньги' }).click();
    await form.getByRole('button', { name: 'Да, вернуть' }).click();
    await form.getByText('Возврат 145 ₽ проведён', { exact: false }).waitFor({ timeout: 20_000 });

    const page = await e2e.signedInPage(user);
    await openPage(page, e2e.url('/dashboard/user/orders'));
    await page.getByRole('tab', { name: 'Пакеты' }).click();
    const orders = page.getByRole('tabpanel', { name: 'Пакеты' });
    await orders.getByRole('heading', { name: 'Пакет слов' }).waitFor();
    expect(await statusesOf(orders)).toEqual(['Оплачено', 'Частично возвращено: 145 ₽']);
    await shots(page, 'orders-package-partly-refunded');
    const wallet = await walletState(e2e.t.db, user.id);
    expect(wallet.balance.words).toBe(1_000_000 + 50_000);
    expect(wallet.sums).toEqual(wallet.balance);
  });
});
