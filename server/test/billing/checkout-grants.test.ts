import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/features/billing/money.ts';
import {
  adminCalls,
  call,
  createTestApp,
  newAdmin,
  newUser,
  nextTransactionId,
  notify,
  payFields,
  seedCatalog,
  startPayment,
  walletState,
  type Catalog,
  type TestApp,
} from '../support/index.ts';
import type { TariffRow } from '../../src/features/billing/billing.table.ts';

/*
 * A payment buys what its checkout showed: an admin's edit of the plan (tokens, trial days, price,
 * name) between the checkout and the Pay changes later checkouts, not this payment. A renewal
 * after the edit gives the plan's figures of now (the user is told each renewal's amount).
 */

let t: TestApp;
let catalog: Catalog;
let api: ReturnType<typeof adminCalls>;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
  catalog = await seedCatalog(t.db);
  api = adminCalls(t.app, (await newAdmin(t.db)).token);
});
afterAll(() => t.close());

/** The admin's whole form for `tariff` with `changes` (PUT replaces every field). */
const edited = (tariff: TariffRow, changes: Record<string, unknown>) => ({
  name: tariff.name,
  amount: tariff.amount_kopecks / 100,
  first_amount: tariff.first_amount_kopecks === null ? null : tariff.first_amount_kopecks / 100,
  description: tariff.description,
  subscriptions_type: tariff.subscriptions_type,
  popular: tariff.popular,
  currency_provider: 'RUB',
  words: tariff.words,
  media: tariff.media_tenths / 10,
  trial_days: tariff.trial_days,
  sort: tariff.sort,
  active: true,
  ...changes,
});
const editTariff = (tariff: TariffRow, changes: Record<string, unknown>) => api.change('PUT', `/api/admin/tariffs/${String(tariff.id)}`, edited(tariff, changes));
const restore = (tariff: TariffRow) => editTariff(tariff, {});

describe('a plan edited between checkout and payment', () => {
  it('the trial pays for what the checkout showed — its tokens, its days, its name — however often and at once the Pay comes; a renewal then gives the plan of now', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.trial);
    expect(invoice.amount).toBe(99);
    const cpSubscription = `sc_grant_${String(user.id)}`;
    const pay = payFields(invoice, user, { SubscriptionId: cpSubscription });
    await editTariff(catalog.trial, { name: 'Старт плюс', words: 500_000, media: 99, trial_days: 14, first_amount: 1, amount: 990 });
    // Another edit while the Pay's deliveries come at once: whichever comes first, the payment buys the checkout's plan.
    const [codes] = await Promise.all([
      Promise.all([pay, pay, pay].map((n) => notify(t.app, 'pay', n))),
      editTariff(catalog.trial, { name: 'Старт плюс', words: 500_000, media: 99, trial_days: 10, first_amount: 1, amount: 990 }),
    ]);
    expect(codes.map((c) => c.code)).toEqual([0, 0, 0]);
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual({ words: 100_000, media: 300 });
    expect(wallet.sums).toEqual(wallet.balance);
    const sub = await t.db.selectFrom('subscriptions').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(sub).toMatchObject({ name: 'Старт', status: 'active', is_trial: true, amount_kopecks: 49_000, first_amount_kopecks: 9_900 });
    // Three days of trial, as the checkout said (not the 14 the plan says now).
    const days = ((sub.period_end?.getTime() ?? 0) - (sub.paid_at?.getTime() ?? 0)) / DAY_MS;
    expect(days).toBeCloseTo(3, 3);
    // The user's history names what was bought.
    const history = await call(t.app, { url: '/api/new/balance/history?page=1', token: user.token });
    expect((history.data.json as { data: { title: string }[] }).data.map((l) => l.title)).toEqual(['Пробный период тарифа «Старт»', 'Пробный период тарифа «Старт»']);
    const orders = await call(t.app, { url: '/api/new/subscribe?page=1', token: user.token });
    expect(orders.data.json).toMatchObject({ data: [{ name: 'Старт', amount: 99, trial_days: 3 }] });

    // A renewal charges what CloudPayments was told at checkout, and gives the plan's tokens of now.
    const renewal = { TransactionId: nextTransactionId(), Amount: '490.00', Currency: 'RUB', AccountId: String(user.id), SubscriptionId: cpSubscription };
    expect((await Promise.all([renewal, renewal].map((n) => notify(t.app, 'pay', n)))).map((r) => r.code)).toEqual([0, 0]);
    const renewed = await walletState(t.db, user.id);
    expect(renewed.balance).toEqual({ words: 100_000 + 500_000, media: 300 + 990 });
    expect(renewed.sums).toEqual(renewed.balance);
    await restore(catalog.trial);
  });

  it('a package pays for the tokens its checkout showed; a checkout after the edit shows and buys the new ones', async () => {
    const user = await newUser(t.db);
    const plan = await startPayment(t.app, user, catalog.monthly);
    expect((await notify(t.app, 'pay', payFields(plan, user))).code).toBe(0);
    const before = await startPayment(t.app, user, catalog.mediaPack);
    await editTariff(catalog.mediaPack, { name: 'Пакет медиа XL', media: 200, amount: 390 });
    const after = await startPayment(t.app, user, catalog.mediaPack);
    const payBefore = payFields(before, user);
    const payAfter = payFields(after, user);
    const codes = await Promise.all([payBefore, payAfter, payBefore, payAfter].map((n) => notify(t.app, 'pay', n)));
    expect(codes.map((c) => c.code)).toEqual([0, 0, 0, 0]);
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual({ words: catalog.monthly.words, media: catalog.monthly.media_tenths + 500 + 2_000 });
    expect(wallet.sums).toEqual(wallet.balance);
    // Each purchase under the name its checkout showed (one a page, whichever was paid first).
    const page = async (n: number) => ((await call(t.app, { url: `/api/new/subscribe/packages?page=${String(n)}`, token: user.token })).data.json as { data: { id: number; name: string }[] }).data;
    const bought = [...(await page(1)), ...(await page(2))].map((p) => [p.id, p.name]).sort();
    expect(bought).toEqual([
      [before.payment_id, 'Пакет медиа'],
      [after.payment_id, 'Пакет медиа XL'],
    ]);
    await restore(catalog.mediaPack);
  });

  it('a trial plan left without trial days has no trial: the checkout charges the month and grants a month', async () => {
    await editTariff(catalog.pro, { trial_days: 0 });
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.pro);
    expect(invoice.amount).toBe(990);
    expect((await Promise.all([1, 2].map(() => notify(t.app, 'pay', payFields(invoice, user))))).map((r) => r.code)).toEqual([0, 0]);
    const sub = await t.db.selectFrom('subscriptions').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(sub).toMatchObject({ is_trial: false, status: 'active' });
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual({ words: catalog.pro.words, media: catalog.pro.media_tenths });
    expect(wallet.sums).toEqual(wallet.balance);
    await restore(catalog.pro);
  });
});
