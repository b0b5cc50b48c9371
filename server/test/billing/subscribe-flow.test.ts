import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, newUser, notify, payFields, seedCatalog, startPayment, subscribe, walletState, type Catalog, type TestApp } from '../support/index.ts';

let t: TestApp;
let catalog: Catalog;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
  catalog = await seedCatalog(t.db);
});
afterAll(() => t.close());

describe('subscription with a trial', () => {
  it('charges first_amount, grants the plan tokens and makes the plan current', async () => {
    const user = await newUser(t.db);
    const check = await call(t.app, { url: '/api/new/subscribe/check', token: user.token });
    expect(check.data.json).toEqual({ subscriptions: null, first: true, card: null, cancelled: false, active_until: null, trial: false, past_due: false, next_charge_at: null, next_charge_amount: null });

    const invoice = await startPayment(t.app, user, catalog.trial);
    expect(invoice.amount).toBe(99);
    expect(invoice.email).toBe(user.email);
    const options = invoice.options as unknown as { data: { CloudPayments: { recurrent: { amount: number; interval: string; startDate: string } } } };
    expect(options.data.CloudPayments.recurrent).toMatchObject({ amount: 490, interval: 'Month' });
    const startIn = new Date(options.data.CloudPayments.recurrent.startDate).getTime() - Date.now();
    expect(Math.round(startIn / 86_400_000)).toBe(3);

    const pay = await notify(t.app, 'pay', payFields(invoice, user, { SubscriptionId: 'sc_trial_1' }));
    expect(pay).toMatchObject({ status: 200, code: 0 });

    const after = await call(t.app, { url: '/api/new/subscribe/check', token: user.token });
    expect(after.data.json).toMatchObject({ subscriptions: catalog.trial.id, first: false, card: '•••• 4242', cancelled: false, trial: true, past_due: false, next_charge_amount: 490 });
    // The trial ends, and the monthly amount is charged, three days from now.
    const checked = after.data.json as { next_charge_at: string; active_until: string };
    expect(checked.next_charge_at).toBe(checked.active_until);
    expect(Math.round((new Date(checked.next_charge_at).getTime() - Date.now()) / 86_400_000)).toBe(3);
    const status = await call(t.app, { url: '/api/new/subscribe/check_user', token: user.token });
    expect(status.data.json).toEqual({ status: true, subscription: { name: 'Старт' }, days_left: 3, past_due: false });
    const me = await call(t.app, { url: '/api/new/user', token: user.token });
    expect((me.data.json as { balances: unknown }).balances).toEqual({ words: 100_000, media: 30 });
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual(wallet.sums);
  });

  it('credits the same Pay sent 10 times once', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.pro);
    const fields = payFields(invoice, user, { SubscriptionId: 'sc_dup_1' });
    const results = await Promise.all(Array.from({ length: 10 }, () => notify(t.app, 'pay', fields)));
    expect(results.every((r) => r.status === 200 && r.code === 0)).toBe(true);
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual({ words: 300_000, media: 1_000 });
    expect(wallet.sums).toEqual(wallet.balance);
  });

  it('refuses a wrong amount and credits nothing', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.trial);
    const res = await notify(t.app, 'pay', payFields(invoice, user, { Amount: '1.00' }));
    expect(res.code).toBe(12);
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: 0, media: 0 });
  });

  it('a renewal Pay with SubscriptionId extends the period and grants the tokens again', async () => {
    const user = await newUser(t.db);
    const { cpSubscriptionId } = await subscribe(t.app, user, catalog.monthly);
    const res = await notify(t.app, 'pay', { TransactionId: 9_100_001, Amount: '2490.00', Currency: 'RUB', AccountId: String(user.id), SubscriptionId: cpSubscriptionId, Status: 'Completed' });
    expect(res.code).toBe(0);
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual({ words: 2_000_000, media: 6_000 });
    const charges = await call(t.app, { url: '/api/new/subscribe/payments?page=1', token: user.token });
    expect(charges.data.json).toMatchObject({ last_page: 1, data: [{ name: 'Бизнес', status: true, amount: 2490 }] });
  });
});
