import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireSubscriptions } from '../../src/features/billing/billing.jobs.ts';
import { call, createTestApp, newUser, nextTransactionId, notify, seedCatalog, startPayment, subscribe, type Catalog, type TestApp } from '../support/index.ts';

let t: TestApp;
let catalog: Catalog;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
  catalog = await seedCatalog(t.db);
});
afterAll(() => t.close());

describe('GET /api/new/tariff', () => {
  it('lists active plans with packages; frontend=1 hides one-off packages', async () => {
    const all = await call(t.app, { url: '/api/new/tariff?frontend=0' });
    expect(all.statusCode).toBe(200);
    const plans = all.data.json as { name: string; subscriptions_type: number; amount: number; first_amount: number | null; description: string[]; popular: boolean; currency_provider: string; media: number }[];
    expect(plans.map((p) => p.name)).toEqual(['Старт', 'Про', 'Бизнес', 'Пакет слов', 'Пакет медиа']);
    expect(plans[0]).toMatchObject({ amount: 490, first_amount: 99, subscriptions_type: 1, popular: false, currency_provider: 'RUB', media: 30 });
    expect(plans[0]?.description[0]).toContain('[[words]]');
    const front = await call(t.app, { url: '/api/new/tariff?frontend=1' });
    expect((front.data.json as { subscriptions_type: number }[]).every((p) => p.subscriptions_type !== 3)).toBe(true);
    expect((await call(t.app, { url: '/api/new/tariff' })).data.json).toEqual(all.data.json);
  });

  it('hides inactive plans and refuses a bad frontend value', async () => {
    const inactive = await t.db.insertInto('tariffs').values({ name: 'Архивный', amount_kopecks: 100, subscriptions_type: 2, active: false, first_amount_kopecks: null }).returning('id').executeTakeFirstOrThrow();
    const list = await call(t.app, { url: '/api/new/tariff?frontend=0' });
    expect((list.data.json as { id: number }[]).some((p) => p.id === inactive.id)).toBe(false);
    for (const q of ['frontend=2', 'frontend=yes', 'frontend=01', 'frontend=1&frontend=0']) {
      const res = await call(t.app, { url: `/api/new/tariff?${q}` });
      expect(res.statusCode).toBe(400);
      expect(res.data.text).toHaveProperty('frontend');
    }
    const user = await newUser(t.db);
    const start = await call(t.app, { url: `/api/payment/cloudpayments/subscribe?id=${String(inactive.id)}`, token: user.token });
    expect(start.data.code).toBe('TARIFF_NOT_AVAILABLE');
  });
});

describe('payment start', () => {
  it('refuses guests, unconfirmed emails, bad ids, the wrong kind of plan and packages without a plan', async () => {
    const guest = await call(t.app, { url: `/api/payment/cloudpayments/subscribe?id=${String(catalog.trial.id)}` });
    expect(guest.statusCode).toBe(401);
    const unconfirmed = await newUser(t.db, { confirmed: false });
    expect((await call(t.app, { url: `/api/payment/cloudpayments/subscribe?id=${String(catalog.trial.id)}`, token: unconfirmed.token })).data.code).toBe('EMAIL_NOT_CONFIRMED');
    const user = await newUser(t.db);
    for (const id of ['', 'abc', '-1', '0', '1.5', '99999999999999999999', "1' or '1'='1"]) {
      const res = await call(t.app, { url: `/api/payment/cloudpayments/subscribe?id=${encodeURIComponent(id)}`, token: user.token });
      expect(res.statusCode).toBe(400);
      expect(res.data.text).toHaveProperty('id');
    }
    expect((await call(t.app, { url: '/api/payment/cloudpayments/subscribe', token: user.token })).statusCode).toBe(400);
    expect((await call(t.app, { url: '/api/payment/cloudpayments/subscribe?id=424242', token: user.token })).data.code).toBe('TARIFF_NOT_FOUND');
    expect((await call(t.app, { url: `/api/payment/cloudpayments/subscribe?id=${String(catalog.wordsPack.id)}`, token: user.token })).data.code).toBe('TARIFF_NOT_AVAILABLE');
    expect((await call(t.app, { url: `/api/payment/cloudpayments/pay?id=${String(catalog.trial.id)}`, token: user.token })).data.code).toBe('TARIFF_NOT_AVAILABLE');
    const pack = await call(t.app, { url: `/api/payment/cloudpayments/pay?id=${String(catalog.wordsPack.id)}`, token: user.token });
    expect(pack.statusCode).toBe(422);
    expect(pack.data.code).toBe('SUBSCRIPTION_REQUIRED');
    expect(await t.db.selectFrom('invoices').select('id').where('user_id', '=', user.id).execute()).toHaveLength(0);
  });

  it('charges the full amount when the trial no longer applies and refuses the current plan again', async () => {
    const user = await newUser(t.db);
    await subscribe(t.app, user, catalog.monthly);
    const again = await call(t.app, { url: `/api/payment/cloudpayments/subscribe?id=${String(catalog.monthly.id)}`, token: user.token });
    expect(again.data.code).toBe('SUBSCRIPTION_ALREADY_ACTIVE');
    const upgrade = await startPayment(t.app, user, catalog.pro);
    expect(upgrade.amount).toBe(990);
    const pack = await startPayment(t.app, user, catalog.mediaPack);
    expect(pack.amount).toBe(390);
    expect(pack.options).not.toHaveProperty('data.CloudPayments.recurrent');
  });

  it('builds the widget options with a 54-ФЗ receipt', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.monthly);
    expect(invoice.options).toMatchObject({
      publicId: 'pk_sandbox',
      amount: 2490,
      currency: 'RUB',
      accountId: String(user.id),
      invoiceId: String(invoice.payment_id),
      email: user.email,
      data: {
        CloudPayments: {
          CustomerReceipt: { Items: [{ price: 2490, quantity: 1, amount: 2490, vat: null, method: 4, object: 4 }], email: user.email, amounts: { electronic: 2490 } },
          recurrent: { interval: 'Month', period: 1, amount: 2490 },
        },
      },
    });
  });
});

describe('history (one record per page)', () => {
  it('lists the user’s subscriptions newest first with paid / cancelled / unpaid flags', async () => {
    const user = await newUser(t.db);
    const other = await newUser(t.db);
    await subscribe(t.app, other, catalog.trial);
    await startPayment(t.app, user, catalog.trial);
    await subscribe(t.app, user, catalog.trial);
    await call(t.app, { method: 'DELETE', url: '/api/new/subscribe/', token: user.token });
    const first = await call(t.app, { url: '/api/new/subscribe?page=1', token: user.token });
    expect(first.data.json).toMatchObject({ last_page: 2, data: [{ name: 'Старт', status: true, closed: true, amount: 99, currency_provider: 'RUB' }] });
    const second = await call(t.app, { url: '/api/new/subscribe?page=2', token: user.token });
    expect(second.data.json).toMatchObject({ last_page: 2, data: [{ status: false, closed: false }] });
    const beyond = await call(t.app, { url: '/api/new/subscribe?page=3', token: user.token });
    expect(beyond.data.json).toEqual({ data: [], last_page: 2 });
    const record = (first.data.json as { data: { created_at: string }[] }).data[0];
    expect(new Date(record?.created_at ?? '').toISOString()).toBe(record?.created_at);
    for (const page of ['0', '-1', 'abc', '1e9999']) {
      expect((await call(t.app, { url: `/api/new/subscribe?page=${page}`, token: user.token })).statusCode).toBe(400);
    }
    expect((await call(t.app, { url: '/api/new/subscribe?page=1' })).statusCode).toBe(401);
    const empty = await newUser(t.db);
    expect((await call(t.app, { url: '/api/new/subscribe/payments', token: empty.token })).data.json).toEqual({ data: [], last_page: 1 });
  });
});

describe('dashboard status and expiry', () => {
  it('without a plan: status false, days_left 0', async () => {
    const user = await newUser(t.db);
    expect((await call(t.app, { url: '/api/new/subscribe/check_user', token: user.token })).data.json).toEqual({ status: false, subscription: null, days_left: 0, past_due: false });
  });

  it('a cancelled plan expires at its end; a renewing one waits out the grace for a late charge', async () => {
    const cancelled = await newUser(t.db);
    await subscribe(t.app, cancelled, catalog.monthly);
    await call(t.app, { method: 'DELETE', url: '/api/new/subscribe/', token: cancelled.token });
    const renewing = await newUser(t.db);
    const { cpSubscriptionId } = await subscribe(t.app, renewing, catalog.monthly);
    const past = new Date(Date.now() - 3_600_000);
    await t.db.updateTable('subscriptions').set({ period_end: past }).where('user_id', 'in', [cancelled.id, renewing.id]).execute();
    await expireSubscriptions(t.ctx);
    const statusOf = async (userId: number) => (await t.db.selectFrom('subscriptions').select('status').where('user_id', '=', userId).executeTakeFirstOrThrow()).status;
    expect(await statusOf(cancelled.id)).toBe('expired');
    expect(await statusOf(renewing.id)).toBe('active');
    expect((await call(t.app, { url: '/api/new/subscribe/check_user', token: renewing.token })).data.json).toMatchObject({ status: true, days_left: 0, past_due: false });
    // The late renewal arrives: a new period from the old end.
    await notify(t.app, 'pay', { TransactionId: nextTransactionId(), Amount: '2490.00', Currency: 'RUB', AccountId: String(renewing.id), SubscriptionId: cpSubscriptionId });
    const renewed = await t.db.selectFrom('subscriptions').select(['status', 'period_end']).where('user_id', '=', renewing.id).executeTakeFirstOrThrow();
    expect(renewed.status).toBe('active');
    expect((renewed.period_end?.getTime() ?? 0) - past.getTime()).toBeGreaterThan(27 * 86_400_000);
    // Without a renewal, it expires after the grace.
    await t.db.updateTable('subscriptions').set({ period_end: new Date(Date.now() - 49 * 3_600_000) }).where('user_id', '=', renewing.id).execute();
    await expireSubscriptions(t.ctx);
    expect(await statusOf(renewing.id)).toBe('expired');
    expect((await call(t.app, { url: '/api/new/subscribe/check_user', token: renewing.token })).data.json).toEqual({ status: false, subscription: null, days_left: 0, past_due: false });
    const log = await t.db.selectFrom('subscription_log').select('cause').where('user_id', '=', renewing.id).orderBy('id').execute();
    expect(log.map((l) => l.cause)).toEqual(['invoice_created', 'paid', 'renewed', 'period_ended']);
  });
});

describe('conversion goal and news cards', () => {
  it('GET /api/new/target_2 records once per paid invoice', async () => {
    const user = await newUser(t.db);
    expect((await call(t.app, { url: '/api/new/target_2', token: user.token })).data.json).toEqual({ recorded: false });
    await subscribe(t.app, user, catalog.trial);
    const results = await Promise.all([1, 2, 3].map(() => call(t.app, { url: '/api/new/target_2', token: user.token })));
    expect(results.filter((r) => (r.data.json as { recorded: boolean }).recorded)).toHaveLength(1);
    expect((await call(t.app, { url: '/api/new/target_2' })).statusCode).toBe(401);
  });

  it('GET /api/new/dashboard lists active cards in order, for signed-in users only', async () => {
    await t.db.insertInto('dashboard_cards').values([
      { link: '/b', icon: '🎨', name: 'Второй', description: 'b', sort: 2 },
      { link: '/a', icon: '💬', name: 'Первый', description: 'a', sort: 1 },
      { link: '/x', icon: 'x', name: 'Скрытый', description: 'x', sort: 0, active: false },
    ]).execute();
    const user = await newUser(t.db);
    const res = await call(t.app, { url: '/api/new/dashboard', token: user.token });
    expect((res.data.json as { name: string }[]).map((c) => c.name)).toEqual(['Первый', 'Второй']);
    expect(res.data.json).toEqual([expect.objectContaining({ link: '/a', icon: '💬', description: 'a' }), expect.objectContaining({ link: '/b' })]);
    expect((await call(t.app, { url: '/api/new/dashboard' })).statusCode).toBe(401);
  });
});

describe('GET /api/payment/cloudpayments/status', () => {
  it('answers where the user’s own payment stands; others’ payments do not exist', async () => {
    const user = await newUser(t.db);
    await subscribe(t.app, user, catalog.monthly);
    const invoice = await startPayment(t.app, user, catalog.wordsPack);
    const status = (id: number, token = user.token) => call(t.app, { url: `/api/payment/cloudpayments/status?id=${String(id)}`, token });
    expect((await status(invoice.payment_id)).data.json).toEqual({ payment_id: invoice.payment_id, kind: 'package', status: 'pending', message: null });
    await notify(t.app, 'pay', { TransactionId: nextTransactionId(), Amount: '290.00', Currency: 'RUB', InvoiceId: String(invoice.payment_id), AccountId: String(user.id) });
    expect((await status(invoice.payment_id)).data.json).toMatchObject({ status: 'paid' });
    const stranger = await newUser(t.db);
    expect((await status(invoice.payment_id, stranger.token)).statusCode).toBe(404);
    expect((await call(t.app, { url: `/api/payment/cloudpayments/status?id=${String(invoice.payment_id)}` })).statusCode).toBe(401);
    expect((await call(t.app, { url: '/api/payment/cloudpayments/status?id=abc', token: user.token })).statusCode).toBe(400);
  });
});
