import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, fakeCloudPaymentsApi, newUser, nextTransactionId, notify, payFields, seedCatalog, startPayment, walletState, type Catalog, type FakeServer, type TestApp } from '../support/index.ts';

/** Faults found from outside: several trials for one user, and notifications in another currency. */

const PUBLIC_ID = 'pk_test_trials';
const API_SECRET = 'api_secret_trials';

let t: TestApp;
let cp: FakeServer;
let catalog: Catalog;
beforeAll(async () => {
  cp = fakeCloudPaymentsApi(PUBLIC_ID, API_SECRET);
  await cp.start();
  t = await createTestApp({ env: { CLOUDPAYMENTS_PUBLIC_ID: PUBLIC_ID, CLOUDPAYMENTS_API_SECRET: API_SECRET, CLOUDPAYMENTS_API_URL: cp.url } });
  catalog = await seedCatalog(t.db);
});
afterAll(async () => {
  await t.close();
  await cp.stop();
});

const subscriptionsOf = (userId: number) => t.db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).orderBy('id').execute();
const logOf = (userId: number) => t.db.selectFrom('subscription_log').select(['subscription_id', 'to_status', 'cause', 'ref']).where('user_id', '=', userId).orderBy('id').execute();

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  return read();
}

describe('one trial per user', () => {
  it('two trial invoices, both Checks before either Pay, then both Pays: one trial is granted, the other payment is refunded through the API', async () => {
    const user = await newUser(t.db);
    const first = await startPayment(t.app, user, catalog.trial);
    const second = await startPayment(t.app, user, catalog.pro);
    const firstPay = payFields(first, user, { SubscriptionId: 'sc_trial_first' });
    const secondPay = payFields(second, user, { SubscriptionId: 'sc_trial_second' });
    expect((await notify(t.app, 'check', { ...firstPay, Status: 'Authorized' })).code).toBe(0);
    expect((await notify(t.app, 'check', { ...secondPay, Status: 'Authorized' })).code).toBe(0);
    cp.requests.length = 0;
    const [a, b] = await Promise.all([notify(t.app, 'pay', firstPay), notify(t.app, 'pay', secondPay)]);
    // Both are accepted (the money was taken), but only one becomes a trial.
    expect([a.code, b.code]).toEqual([0, 0]);
    const subs = await subscriptionsOf(user.id);
    const trials = subs.filter((s) => s.is_trial && s.status === 'active');
    expect(trials).toHaveLength(1);
    const refused = subs.find((s) => s !== trials[0]);
    expect(refused?.status).toBe('expired');
    const granted = trials[0]?.tariff_id === catalog.trial.id ? catalog.trial : catalog.pro;
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual({ words: granted.words, media: granted.media_tenths });
    expect(wallet.sums).toEqual(wallet.balance);
    const refusedTransaction = refused?.id === subs[0]?.id ? firstPay.TransactionId : secondPay.TransactionId;
    expect(await logOf(user.id)).toContainEqual({ subscription_id: refused?.id, to_status: 'expired', cause: 'trial_already_used_refunded', ref: String(refusedTransaction) });
    // The refund and the cancellation of its recurrent subscription go to CloudPayments' API.
    const calls = await eventually(
      async () => cp.requests.map((r) => ({ path: r.path, body: r.body })),
      (c) => c.length >= 2,
    );
    const refusedInvoice = refused?.id === subs[0]?.id ? first : second;
    expect(calls).toContainEqual({ path: '/payments/refund', body: { TransactionId: refusedTransaction, Amount: refusedInvoice.amount } });
    expect(calls).toContainEqual({ path: '/subscriptions/cancel', body: { Id: refused?.id === subs[0]?.id ? 'sc_trial_first' : 'sc_trial_second' } });
    // CloudPayments then reports the refund: nothing to take back, the invoice reads refunded.
    const refund = await notify(t.app, 'refund', { TransactionId: nextTransactionId(), PaymentTransactionId: refusedTransaction, Amount: refusedInvoice.amount.toFixed(2), Currency: 'RUB', AccountId: String(user.id) });
    expect(refund.code).toBe(0);
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: granted.words, media: granted.media_tenths });
    const invoice = await t.db.selectFrom('invoices').select('status').where('id', '=', refusedInvoice.payment_id).executeTakeFirstOrThrow();
    expect(invoice.status).toBe('refunded');
    // The buyer's page is told the truth, not «paid».
    const status = await call(t.app, { url: `/api/payment/cloudpayments/status?id=${String(refusedInvoice.payment_id)}`, token: user.token });
    expect(status.data.json).toEqual({ payment_id: refusedInvoice.payment_id, kind: 'subscription', status: 'refunded', message: 'Пробный период уже использован: тариф не подключён, деньги вернутся на карту.' });
  });

  it('a trial invoice paid after another plan was paid is not a trial: refunded, nothing granted, the paid plan stays', async () => {
    const user = await newUser(t.db);
    const trial = await startPayment(t.app, user, catalog.trial);
    const monthly = await startPayment(t.app, user, catalog.monthly);
    expect((await notify(t.app, 'pay', payFields(monthly, user, { SubscriptionId: 'sc_monthly_paid' }))).code).toBe(0);
    const late = payFields(trial, user, { SubscriptionId: 'sc_late_trial' });
    expect((await notify(t.app, 'pay', late)).code).toBe(0);
    const subs = await subscriptionsOf(user.id);
    expect(subs.map((s) => [s.tariff_id, s.status])).toEqual([
      [catalog.trial.id, 'expired'],
      [catalog.monthly.id, 'active'],
    ]);
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: catalog.monthly.words, media: catalog.monthly.media_tenths });
    const status = await call(t.app, { url: `/api/payment/cloudpayments/status?id=${String(trial.payment_id)}`, token: user.token });
    expect(status.data.json).toMatchObject({ status: 'failed' });
    expect((status.data.json as { message: string }).message).toContain('Пробный период уже использован');
    // A repeat of the same Pay changes nothing more.
    expect((await notify(t.app, 'pay', late)).code).toBe(0);
    expect((await logOf(user.id)).filter((l) => l.cause === 'trial_already_used_refunded')).toHaveLength(1);
  });

  it('a refused trial whose CloudPayments subscription an early Recurrent pinned (the Pay naming none) gets that subscription cancelled', async () => {
    const user = await newUser(t.db);
    const first = await startPayment(t.app, user, catalog.trial);
    const second = await startPayment(t.app, user, catalog.pro);
    expect((await notify(t.app, 'pay', payFields(first, user, { SubscriptionId: 'sc_pinned_first' }))).code).toBe(0);
    // CloudPayments tells about the second plan's subscription before its Pay, which then names none.
    const proAmount = (catalog.pro.amount_kopecks / 100).toFixed(2);
    expect((await notify(t.app, 'recurrent', { Id: 'sc_pinned_second', AccountId: String(user.id), Status: 'Active', Amount: proAmount, Currency: 'RUB' })).code).toBe(0);
    cp.requests.length = 0;
    expect((await notify(t.app, 'pay', payFields(second, user))).code).toBe(0);
    const calls = await eventually(
      async () => cp.requests.map((r) => ({ path: r.path, body: r.body })),
      (c) => c.some((x) => x.path === '/subscriptions/cancel'),
    );
    expect(calls).toContainEqual({ path: '/subscriptions/cancel', body: { Id: 'sc_pinned_second' } });
  });

  it('at most one paid trial per user is enforced by the database too', async () => {
    const user = await newUser(t.db);
    const rows = [catalog.trial, catalog.pro].map((tariff) => ({ user_id: user.id, tariff_id: tariff.id, name: tariff.name, amount_kopecks: tariff.amount_kopecks, first_amount_kopecks: 100, is_trial: true, paid_at: new Date(), status: 'expired' as const }));
    await t.db.insertInto('subscriptions').values(rows[0] ?? rows).execute();
    await expect(t.db.insertInto('subscriptions').values(rows[1] ?? rows).execute()).rejects.toThrow(/one_paid_trial/);
  });
});

describe('currency', () => {
  it('Check and Pay in another currency with the invoice number are refused and credit nothing', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.monthly);
    const fields = payFields(invoice, user, { Currency: 'KZT', SubscriptionId: 'sc_kzt' });
    expect((await notify(t.app, 'check', { ...fields, Status: 'Authorized' })).code).toBe(12);
    expect((await notify(t.app, 'pay', fields)).code).toBe(12);
    expect((await notify(t.app, 'pay', { ...fields, Currency: undefined })).code).toBe(12);
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: 0, media: 0 });
    const row = await t.db.selectFrom('invoices').select('status').where('id', '=', invoice.payment_id).executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
    // The same invoice in its own currency goes through.
    expect((await notify(t.app, 'pay', { ...fields, Currency: 'RUB' })).code).toBe(0);
  });

  it('a package in another currency is refused', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.monthly);
    expect((await notify(t.app, 'pay', payFields(invoice, user, { SubscriptionId: 'sc_for_pack' }))).code).toBe(0);
    const pack = await startPayment(t.app, user, catalog.wordsPack);
    expect((await notify(t.app, 'check', { ...payFields(pack, user, { Currency: 'USD' }), Status: 'Authorized' })).code).toBe(12);
    expect((await notify(t.app, 'pay', payFields(pack, user, { Currency: 'USD' }))).code).toBe(12);
    expect((await walletState(t.db, user.id)).balance.words).toBe(catalog.monthly.words);
  });

  it('a renewal charge in another currency is refused', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.monthly);
    expect((await notify(t.app, 'pay', payFields(invoice, user, { SubscriptionId: 'sc_renew_kzt' }))).code).toBe(0);
    const renewal = { TransactionId: nextTransactionId(), Amount: (catalog.monthly.amount_kopecks / 100).toFixed(2), Currency: 'KZT', AccountId: String(user.id), SubscriptionId: 'sc_renew_kzt' };
    expect((await notify(t.app, 'check', { ...renewal, Status: 'Authorized' })).code).toBe(12);
    expect((await notify(t.app, 'pay', renewal)).code).toBe(12);
    expect((await walletState(t.db, user.id)).balance.words).toBe(catalog.monthly.words);
  });
});

describe('one trial per user, in the payment sandbox', () => {
  it('the second trial payment is refunded by the sandbox, which reports the refund like CloudPayments', async () => {
    const sandbox = await createTestApp();
    try {
      const sandboxCatalog = await seedCatalog(sandbox.db);
      const user = await newUser(sandbox.db);
      const first = await startPayment(sandbox.app, user, sandboxCatalog.trial);
      const second = await startPayment(sandbox.app, user, sandboxCatalog.pro);
      expect((await notify(sandbox.app, 'pay', payFields(first, user, { SubscriptionId: 'sc_sandbox_a' }))).code).toBe(0);
      expect((await notify(sandbox.app, 'pay', payFields(second, user, { SubscriptionId: 'sc_sandbox_b' }))).code).toBe(0);
      const invoice = await eventually(
        () => sandbox.db.selectFrom('invoices').select(['status', 'refunded_kopecks']).where('id', '=', second.payment_id).executeTakeFirstOrThrow(),
        (row) => row.status === 'refunded',
      );
      expect(invoice).toEqual({ status: 'refunded', refunded_kopecks: Math.round(second.amount * 100) });
      const wallet = await walletState(sandbox.db, user.id);
      expect(wallet.balance).toEqual({ words: sandboxCatalog.trial.words, media: sandboxCatalog.trial.media_tenths });
      expect(wallet.sums).toEqual(wallet.balance);
    } finally {
      await sandbox.close();
    }
  });
});
