import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, newUser, nextTransactionId, notify, payFields, seedCatalog, startPayment, subscribe, type Catalog, type TestApp, type TestUser } from '../support/index.ts';

/** What «Заказы» and the plans page need besides the seed's calls: package purchases, trial and failed-renewal state. */

let t: TestApp;
let catalog: Catalog;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
  catalog = await seedCatalog(t.db);
});
afterAll(() => t.close());

const packages = (user: TestUser | undefined, page: unknown = 1) => call(t.app, { url: `/api/new/subscribe/packages?page=${String(page)}`, token: user?.token });
const check = async (user: TestUser) => (await call(t.app, { url: '/api/new/subscribe/check', token: user.token })).data.json as Record<string, unknown>;

async function buyPackage(user: TestUser, tariff = catalog.wordsPack) {
  const invoice = await startPayment(t.app, user, tariff);
  const pay = payFields(invoice, user);
  expect((await notify(t.app, 'pay', pay)).code).toBe(0);
  return { invoice, pay };
}

describe('GET /api/new/subscribe/packages', () => {
  it('lists paid one-off purchases newest first, one per page, with amount, date and status', async () => {
    const user = await newUser(t.db);
    await subscribe(t.app, user, catalog.monthly);
    const first = await buyPackage(user, catalog.wordsPack);
    const second = await buyPackage(user, catalog.mediaPack);
    // An unpaid invoice and the plan itself are not package purchases.
    await startPayment(t.app, user, catalog.wordsPack);
    // Half of the first one comes back.
    const half = (first.invoice.amount / 2).toFixed(2);
    expect((await notify(t.app, 'refund', { TransactionId: nextTransactionId(), PaymentTransactionId: first.pay.TransactionId, Amount: half, Currency: 'RUB', AccountId: String(user.id) })).code).toBe(0);

    const page1 = await packages(user, 1);
    expect(page1.statusCode).toBe(200);
    expect(page1.data.json).toMatchObject({ last_page: 2, data: [{ id: second.invoice.payment_id, name: catalog.mediaPack.name, status: 'paid', amount: second.invoice.amount, currency_provider: 'RUB' }] });
    const page2 = await packages(user, 2);
    expect(page2.data.json).toMatchObject({ last_page: 2, data: [{ id: first.invoice.payment_id, name: catalog.wordsPack.name, status: 'partially_refunded', amount: first.invoice.amount }] });
    const row = (page2.data.json as { data: { created_at: string }[] }).data[0];
    expect(Number.isNaN(Date.parse(row?.created_at ?? ''))).toBe(false);
    expect((await packages(user, 3)).data.json).toEqual({ data: [], last_page: 2 });

    expect((await notify(t.app, 'refund', { TransactionId: nextTransactionId(), PaymentTransactionId: first.pay.TransactionId, Amount: half, Currency: 'RUB', AccountId: String(user.id) })).code).toBe(0);
    expect((await packages(user, 2)).data.json).toMatchObject({ data: [{ status: 'refunded' }] });
  });

  it('shows nobody else’s purchases, and an empty first page to a user without any', async () => {
    const buyer = await newUser(t.db);
    await subscribe(t.app, buyer, catalog.monthly);
    await buyPackage(buyer);
    const other = await newUser(t.db);
    expect((await packages(other)).data.json).toEqual({ data: [], last_page: 1 });
  });

  it('answers 401 to guests and 400 with a Russian field error to a bad page', async () => {
    expect((await packages(undefined)).statusCode).toBe(401);
    const user = await newUser(t.db);
    for (const page of ['0', '-1', 'abc', '1e9999', '%00', '1;drop table invoices']) {
      const res = await packages(user, page);
      expect(res.statusCode).toBe(400);
      expect(res.data.status).toBe('error');
      expect(JSON.stringify(res.data.text)).toMatch(/[а-я]/i);
    }
  });
});

describe('GET /api/new/subscribe/check: trial and failed renewals', () => {
  it('during the trial says so, when it ends and what will be charged then; not after the first monthly charge', async () => {
    const user = await newUser(t.db);
    const { cpSubscriptionId } = await subscribe(t.app, user, catalog.trial);
    const during = await check(user);
    expect(during).toMatchObject({ trial: true, past_due: false, next_charge_amount: catalog.trial.amount_kopecks / 100 });
    expect(during.next_charge_at).toBe(during.active_until);
    const renewal = { TransactionId: nextTransactionId(), Amount: (catalog.trial.amount_kopecks / 100).toFixed(2), Currency: 'RUB', AccountId: String(user.id), SubscriptionId: cpSubscriptionId };
    expect((await notify(t.app, 'pay', renewal)).code).toBe(0);
    expect(await check(user)).toMatchObject({ trial: false, past_due: false });
  });

  it('after a failed renewal says past_due, as the dashboard does', async () => {
    const user = await newUser(t.db);
    const { cpSubscriptionId } = await subscribe(t.app, user, catalog.monthly);
    const fail = { TransactionId: nextTransactionId(), Amount: (catalog.monthly.amount_kopecks / 100).toFixed(2), Currency: 'RUB', AccountId: String(user.id), SubscriptionId: cpSubscriptionId, Reason: 'InsufficientFunds', ReasonCode: 5051 };
    expect((await notify(t.app, 'fail', fail)).code).toBe(0);
    expect(await check(user)).toMatchObject({ past_due: true, trial: false, next_charge_amount: catalog.monthly.amount_kopecks / 100 });
  });

  it('a cancelled plan has no next charge', async () => {
    const user = await newUser(t.db);
    await subscribe(t.app, user, catalog.monthly);
    expect((await call(t.app, { method: 'DELETE', url: '/api/new/subscribe/', token: user.token })).statusCode).toBe(200);
    expect(await check(user)).toMatchObject({ cancelled: true, next_charge_at: null, next_charge_amount: null });
  });
});
