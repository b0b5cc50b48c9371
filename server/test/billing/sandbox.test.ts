import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, newAdmin, newUser, seedCatalog, startPayment, walletState, type Catalog, type TestApp, type TestUser } from '../support/index.ts';

let t: TestApp;
let catalog: Catalog;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
  catalog = await seedCatalog(t.db);
});
afterAll(() => t.close());

const charge = (user: TestUser, payment_id: number, card_number: string, exp = '12/30', cvv = '123') =>
  call(t.app, { method: 'POST', url: '/api/sandbox/cloudpayments/charge', token: user.token, payload: { payment_id, card_number, exp, cvv } });

const renew = (user: TestUser, subscription_id?: number) => call(t.app, { method: 'POST', url: '/api/admin/sandbox/renew', token: user.token, payload: subscription_id === undefined ? {} : { subscription_id } });

describe('payment sandbox', () => {
  it('serves the widget stand-in script and the labelled checkout page', async () => {
    const script = await t.app.inject({ method: 'GET', url: '/sandbox/cloudpayments.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('javascript');
    expect(script.body).toContain('CloudPayments.prototype.pay');
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.trial);
    const page = await t.app.inject({ method: 'GET', url: `/sandbox/checkout?payment_id=${String(invoice.payment_id)}`, cookies: { session: user.cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-widget="sandbox-checkout"');
    const stranger = await newUser(t.db);
    const foreign = await t.app.inject({ method: 'GET', url: `/sandbox/checkout?payment_id=${String(invoice.payment_id)}`, cookies: { session: stranger.cookie } });
    expect(foreign.statusCode).toBe(404);
    const guest = await t.app.inject({ method: 'GET', url: `/sandbox/checkout?payment_id=${String(invoice.payment_id)}` });
    expect(guest.statusCode).toBe(302);
  });

  it('4242… pays a trial: signed Check, Pay and Recurrent reach the same handlers', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.trial);
    const res = await charge(user, invoice.payment_id, '4242 4242 4242 4242');
    expect(res.statusCode).toBe(200);
    expect(res.data.json).toMatchObject({ success: true, reason: null });
    const kinds = await t.db.selectFrom('payment_notifications').select('kind').where('payload', '@>', JSON.stringify({ AccountId: String(user.id) }) as never).orderBy('id').execute();
    expect(kinds.map((k) => k.kind)).toEqual(['pay', 'recurrent']);
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: 100_000, media: 300 });
    const sub = await t.db.selectFrom('subscriptions').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(sub.status).toBe('active');
    expect(sub.cp_subscription_id).toMatch(/^sc_sandbox_/);
    // Paying the same invoice again is refused.
    expect((await charge(user, invoice.payment_id, '4242424242424242')).statusCode).toBe(400);
  });

  it('4012… is declined: the reason is answered and nothing is credited', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.pro);
    const res = await charge(user, invoice.payment_id, '4012888888881881');
    expect(res.data.json).toMatchObject({ success: false, reason: 'Недостаточно средств на карте' });
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: 0, media: 0 });
    const inv = await t.db.selectFrom('invoices').select('status').where('id', '=', invoice.payment_id).executeTakeFirstOrThrow();
    expect(inv.status).toBe('failed');
    // A retry with a good card on the same invoice succeeds.
    expect((await charge(user, invoice.payment_id, '4242424242424242')).data.json).toMatchObject({ success: true });
  });

  it('refuses unknown cards, past expiry dates and malformed input', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.trial);
    expect((await charge(user, invoice.payment_id, '5555555555554444')).data.json).toMatchObject({ success: false });
    expect((await charge(user, invoice.payment_id, '4242424242424242', '01/20')).data.json).toMatchObject({ success: false, reason: 'Истёк срок действия карты' });
    for (const payload of [{}, { payment_id: invoice.payment_id, card_number: '4242', exp: '12/30', cvv: '123' }, { payment_id: invoice.payment_id, card_number: '4242424242424242', exp: '13/30', cvv: '123' }, { payment_id: 'x', card_number: ['4242424242424242'], exp: '12/30', cvv: 1 }]) {
      const res = await call(t.app, { method: 'POST', url: '/api/sandbox/cloudpayments/charge', token: user.token, payload });
      expect(res.statusCode).toBe(400);
    }
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: 0, media: 0 });
  });

  it('refuses another user’s invoice and guests', async () => {
    const owner = await newUser(t.db);
    const stranger = await newUser(t.db);
    const invoice = await startPayment(t.app, owner, catalog.trial);
    expect((await charge(stranger, invoice.payment_id, '4242424242424242')).statusCode).toBe(404);
    const guest = await call(t.app, { method: 'POST', url: '/api/sandbox/cloudpayments/charge', csrf: true, payload: { payment_id: invoice.payment_id, card_number: '4242424242424242', exp: '12/30', cvv: '123' } });
    expect(guest.statusCode).toBe(401);
    expect((await walletState(t.db, owner.id)).balance).toEqual({ words: 0, media: 0 });
  });

  it('an admin triggers a renewal: 4242 renews and grants tokens; 4111 fails three times and is rejected', async () => {
    const admin = await newAdmin(t.db);
    const good = await newUser(t.db);
    const goodInvoice = await startPayment(t.app, good, catalog.monthly);
    await charge(good, goodInvoice.payment_id, '4242424242424242');
    const goodSub = await t.db.selectFrom('subscriptions').select('id').where('user_id', '=', good.id).executeTakeFirstOrThrow();
    expect((await renew(admin, goodSub.id)).data.json).toEqual({ charged: 1, failed: 0 });
    expect((await walletState(t.db, good.id)).balance.words).toBe(2_000_000);
    const autoCharges = await call(t.app, { url: '/api/new/subscribe/payments?page=1', token: good.token });
    expect(autoCharges.data.json).toMatchObject({ last_page: 1, data: [{ status: true, amount: 2490 }] });

    const bad = await newUser(t.db);
    const badInvoice = await startPayment(t.app, bad, catalog.monthly);
    expect((await charge(bad, badInvoice.payment_id, '4111111111111111')).data.json).toMatchObject({ success: true });
    const badSub = await t.db.selectFrom('subscriptions').select('id').where('user_id', '=', bad.id).executeTakeFirstOrThrow();
    expect((await renew(admin, badSub.id)).data.json).toEqual({ charged: 0, failed: 1 });
    expect((await t.db.selectFrom('subscriptions').select('status').where('id', '=', badSub.id).executeTakeFirstOrThrow()).status).toBe('past_due');
    await renew(admin, badSub.id);
    await renew(admin, badSub.id);
    expect((await t.db.selectFrom('subscriptions').select('status').where('id', '=', badSub.id).executeTakeFirstOrThrow()).status).toBe('cancelled');
    const failed = await call(t.app, { url: '/api/new/subscribe/payments?page=1', token: bad.token });
    expect(failed.data.json).toMatchObject({ last_page: 3, data: [{ status: false }] });
    expect((await walletState(t.db, bad.id)).balance.words).toBe(1_000_000);
  });

  it('only admins trigger renewals', async () => {
    const user = await newUser(t.db);
    expect((await renew(user)).statusCode).toBe(403);
    expect((await call(t.app, { method: 'POST', url: '/api/admin/sandbox/renew', csrf: true, payload: {} })).statusCode).toBe(401);
    const admin = await newAdmin(t.db);
    expect((await renew(admin, 987_654)).statusCode).toBe(404);
    expect((await call(t.app, { method: 'POST', url: '/api/admin/sandbox/renew', token: admin.token, payload: { subscription_id: 'abc' } })).statusCode).toBe(400);
  });

  it('cancel in the sandbox cancels its subscription, so no renewal is charged', async () => {
    const admin = await newAdmin(t.db);
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.monthly);
    await charge(user, invoice.payment_id, '4242424242424242');
    const res = await call(t.app, { method: 'DELETE', url: '/api/new/subscribe/', token: user.token });
    expect(res.statusCode).toBe(200);
    const sub = await t.db.selectFrom('subscriptions').select(['id', 'cp_subscription_id', 'status']).where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(sub.status).toBe('cancelled');
    const sandboxSub = await t.db.selectFrom('sandbox_subscriptions').select('status').where('id', '=', sub.cp_subscription_id ?? '').executeTakeFirstOrThrow();
    expect(sandboxSub.status).toBe('Cancelled');
    expect((await renew(admin, sub.id)).data.json).toEqual({ charged: 0, failed: 0 });
    expect((await walletState(t.db, user.id)).balance.words).toBe(1_000_000);
  });
});
