import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, newUser, nextTransactionId, notify, payFields, seedCatalog, startPayment, subscribe, walletState, type Catalog, type TestApp } from '../support/index.ts';

let t: TestApp;
let catalog: Catalog;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
  catalog = await seedCatalog(t.db);
});
afterAll(() => t.close());

const invoiceStatus = async (id: number) => (await t.db.selectFrom('invoices').select(['status', 'failure_reason']).where('id', '=', id).executeTakeFirstOrThrow());
const subscriptionOf = (userId: number) => t.db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').executeTakeFirstOrThrow();

describe('signature', () => {
  it('refuses forged, missing and stale signatures without touching data', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.trial);
    const fields = payFields(invoice, user);
    const forged = await notify(t.app, 'pay', fields, { secret: 'not-the-secret' });
    const missing = await notify(t.app, 'pay', fields, { sign: false });
    // A valid signature of another body (replayed from an earlier notification).
    const other = payFields(invoice, user);
    const body = new URLSearchParams(Object.fromEntries(Object.entries(other).map(([k, v]) => [k, String(v)]))).toString();
    const { signNotification } = await import('../../src/features/payments/cloudpayments.ts');
    const stale = await notify(t.app, 'pay', fields, { sign: false, headers: { 'content-hmac': signNotification(t.ctx.secrets.cloudpaymentsSecret, body) } });
    const onlyOneBad = await notify(t.app, 'pay', fields, { headers: { 'x-content-hmac': 'AAAA' } });
    for (const res of [forged, missing, stale, onlyOneBad]) {
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body)).toMatchObject({ status: 'error', code: 'INVALID_SIGNATURE' });
    }
    expect((await invoiceStatus(invoice.payment_id)).status).toBe('pending');
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: 0, media: 0 });
    const logged = await t.db.selectFrom('payment_notifications').select('id').where('transaction_id', '=', fields.TransactionId).execute();
    expect(logged).toHaveLength(0);
  });

  it('accepts JSON bodies; Content-HMAC is required, X-Content-HMAC alone is not enough', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.trial);
    const json = await notify(t.app, 'check', payFields(invoice, user), { encoding: 'json' });
    expect(json).toMatchObject({ status: 200, code: 0 });
    const { signNotification } = await import('../../src/features/payments/cloudpayments.ts');
    const fields = payFields(invoice, user);
    const body = new URLSearchParams(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]))).toString();
    const secret = t.ctx.secrets.cloudpaymentsSecret;
    const contentOnly = await notify(t.app, 'check', fields, { sign: false, headers: { 'content-hmac': signNotification(secret, body) } });
    expect(contentOnly).toMatchObject({ status: 200, code: 0 });
    const decodedOnly = await notify(t.app, 'check', fields, { sign: false, headers: { 'x-content-hmac': signNotification(secret, decodeURIComponent(body.replace(/\+/g, ' '))) } });
    expect(decodedOnly.status).toBe(401);
  });

  it('answers 400 for an unknown notification kind and 13 for a body it cannot read', async () => {
    const unknown = await notify(t.app, 'steal', { TransactionId: 1, Amount: '1' });
    expect(unknown.status).toBe(400);
    const garbage = await notify(t.app, 'pay', { Hello: 'world' });
    expect(garbage).toMatchObject({ status: 200, code: 13 });
  });
});

describe('Check', () => {
  it('answers 0 for a right invoice and the documented codes otherwise', async () => {
    const user = await newUser(t.db);
    const other = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.trial);
    expect((await notify(t.app, 'check', payFields(invoice, user))).code).toBe(0);
    expect((await notify(t.app, 'check', payFields({ ...invoice, payment_id: 999_999 }, user))).code).toBe(10);
    expect((await notify(t.app, 'check', payFields(invoice, user, { InvoiceId: 'abc' }))).code).toBe(10);
    expect((await notify(t.app, 'check', payFields(invoice, other))).code).toBe(11);
    expect((await notify(t.app, 'check', payFields(invoice, user, { Amount: '490.00' }))).code).toBe(12);
    await t.db.updateTable('invoices').set({ created_at: new Date(Date.now() - 3 * 86_400_000) } as never).where('id', '=', invoice.payment_id).execute();
    expect((await notify(t.app, 'check', payFields(invoice, user))).code).toBe(20);
  });

  it('refuses an invoice that is already paid', async () => {
    const user = await newUser(t.db);
    const { invoice } = await subscribe(t.app, user, catalog.trial);
    expect((await notify(t.app, 'check', payFields(invoice, user))).code).toBe(13);
  });

  it('refuses a renewal charge of a cancelled plan', async () => {
    const user = await newUser(t.db);
    const { cpSubscriptionId } = await subscribe(t.app, user, catalog.monthly);
    const renewal = { TransactionId: nextTransactionId(), Amount: '2490.00', Currency: 'RUB', AccountId: String(user.id), SubscriptionId: cpSubscriptionId };
    expect((await notify(t.app, 'check', renewal)).code).toBe(0);
    await notify(t.app, 'recurrent', { Id: cpSubscriptionId, AccountId: String(user.id), Status: 'Cancelled', Amount: '2490.00', Currency: 'RUB', SuccessfulTransactionsNumber: 1, FailedTransactionsNumber: 0 });
    expect((await notify(t.app, 'check', renewal)).code).toBe(13);
  });
});

describe('Pay', () => {
  it('refuses another account and a wrong amount, changing nothing', async () => {
    const user = await newUser(t.db);
    const other = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.pro);
    expect((await notify(t.app, 'pay', payFields(invoice, other))).code).toBe(11);
    expect((await notify(t.app, 'pay', payFields(invoice, user, { Amount: '149.01' }))).code).toBe(12);
    expect((await notify(t.app, 'pay', payFields({ ...invoice, payment_id: 424_242 }, user))).code).toBe(10);
    expect((await invoiceStatus(invoice.payment_id)).status).toBe('pending');
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: 0, media: 0 });
    expect((await walletState(t.db, other.id)).balance).toEqual({ words: 0, media: 0 });
  });

  it('a package credits its tokens once and needs a current plan at Check', async () => {
    const user = await newUser(t.db);
    await subscribe(t.app, user, catalog.monthly);
    const invoice = await startPayment(t.app, user, catalog.wordsPack);
    const fields = payFields(invoice, user);
    expect((await notify(t.app, 'check', fields)).code).toBe(0);
    for (let i = 0; i < 3; i++) expect((await notify(t.app, 'pay', fields)).code).toBe(0);
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual({ words: 1_000_000 + 100_000, media: 3_000 });
    expect(wallet.sums).toEqual(wallet.balance);
  });

  it('Recurrent before Pay: a cancellation that came first still holds after the Pay', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.monthly);
    const recurrent = await notify(t.app, 'recurrent', { Id: 'sc_early_1', AccountId: String(user.id), Status: 'Active', Amount: '2490.00', Currency: 'RUB', SuccessfulTransactionsNumber: 0, FailedTransactionsNumber: 0 });
    expect(recurrent.code).toBe(0);
    const cancelled = await notify(t.app, 'recurrent', { Id: 'sc_early_1', AccountId: String(user.id), Status: 'Cancelled', Amount: '2490.00', Currency: 'RUB', SuccessfulTransactionsNumber: 0, FailedTransactionsNumber: 0 });
    expect(cancelled.code).toBe(0);
    expect((await notify(t.app, 'pay', payFields(invoice, user, { SubscriptionId: 'sc_early_1' }))).code).toBe(0);
    const sub = await subscriptionOf(user.id);
    expect(sub).toMatchObject({ status: 'cancelled', cp_subscription_id: 'sc_early_1' });
    expect(sub.paid_at).not.toBeNull();
    expect((await walletState(t.db, user.id)).balance.words).toBe(1_000_000);
  });

  it('Recurrent before Pay without SubscriptionId in the Pay links renewals through the Recurrent', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.monthly);
    await notify(t.app, 'recurrent', { Id: 'sc_link_1', AccountId: String(user.id), Status: 'Active', Amount: '2490.00' });
    expect((await notify(t.app, 'pay', payFields(invoice, user))).code).toBe(0);
    const renewal = await notify(t.app, 'pay', { TransactionId: nextTransactionId(), Amount: '2490.00', Currency: 'RUB', AccountId: String(user.id), SubscriptionId: 'sc_link_1' });
    expect(renewal.code).toBe(0);
    expect((await walletState(t.db, user.id)).balance.words).toBe(2_000_000);
  });

  it('a renewal for an unknown subscription asks to retry (13) and credits nothing', async () => {
    const user = await newUser(t.db);
    const res = await notify(t.app, 'pay', { TransactionId: nextTransactionId(), Amount: '2490.00', Currency: 'RUB', AccountId: String(user.id), SubscriptionId: 'sc_nobody' });
    expect(res.code).toBe(13);
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: 0, media: 0 });
  });

  it('buying another plan replaces the current one without proration', async () => {
    const user = await newUser(t.db);
    await subscribe(t.app, user, catalog.trial, 'sc_old_plan');
    await subscribe(t.app, user, catalog.monthly, 'sc_new_plan');
    const subs = await t.db.selectFrom('subscriptions').select(['name', 'status']).where('user_id', '=', user.id).orderBy('id').execute();
    expect(subs).toEqual([
      { name: 'Старт', status: 'replaced' },
      { name: 'Бизнес', status: 'active' },
    ]);
    const job = await t.db.selectFrom('pgboss.job' as never).select(['data' as never]).where('name' as never, '=', 'payments.cancel-cp-subscription' as never).execute();
    expect(job.map((j) => (j as { data: { id: string } }).data.id)).toContain('sc_old_plan');
    // The trial does not come back with a later plan.
    const check = await call(t.app, { url: '/api/new/subscribe/check', token: user.token });
    expect(check.data.json).toMatchObject({ subscriptions: catalog.monthly.id, first: false });
  });
});

describe('Fail', () => {
  it('marks a first payment failed and credits nothing', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.trial);
    const res = await notify(t.app, 'fail', payFields(invoice, user, { Reason: 'InsufficientFunds', ReasonCode: 5051, Status: 'Declined' }));
    expect(res.code).toBe(0);
    expect(await invoiceStatus(invoice.payment_id)).toEqual({ status: 'failed', failure_reason: 'InsufficientFunds' });
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: 0, media: 0 });
    // The declined checkout leaves no plan waiting for payment (checkouts.test.ts).
    expect((await subscriptionOf(user.id)).status).toBe('expired');
  });

  it('a renewal Fail is a failed auto-charge and puts the plan past due', async () => {
    const user = await newUser(t.db);
    const { cpSubscriptionId } = await subscribe(t.app, user, catalog.monthly);
    const fields = { TransactionId: nextTransactionId(), Amount: '2490.00', Currency: 'RUB', AccountId: String(user.id), SubscriptionId: cpSubscriptionId, Reason: 'InsufficientFunds', ReasonCode: 5051 };
    expect((await notify(t.app, 'fail', fields)).code).toBe(0);
    expect((await notify(t.app, 'fail', fields)).code).toBe(0);
    const charges = await call(t.app, { url: '/api/new/subscribe/payments?page=1', token: user.token });
    expect(charges.data.json).toMatchObject({ last_page: 1, data: [{ status: false, amount: 2490 }] });
    expect((await subscriptionOf(user.id)).status).toBe('past_due');
    const status = await call(t.app, { url: '/api/new/subscribe/check_user', token: user.token });
    expect(status.data.json).toMatchObject({ status: true, past_due: true });
    // The next successful charge brings it back.
    await notify(t.app, 'pay', { ...fields, TransactionId: nextTransactionId(), Reason: undefined, ReasonCode: undefined });
    expect((await subscriptionOf(user.id)).status).toBe('active');
    expect((await call(t.app, { url: '/api/new/subscribe/check_user', token: user.token })).data.json).toMatchObject({ status: true, past_due: false });
  });
});

describe('Recurrent', () => {
  it('Rejected after failed charges ends auto-renewal; the plan runs to its end', async () => {
    const user = await newUser(t.db);
    const { cpSubscriptionId } = await subscribe(t.app, user, catalog.monthly);
    const res = await notify(t.app, 'recurrent', { Id: cpSubscriptionId, AccountId: String(user.id), Status: 'Rejected', Amount: '2490.00', Currency: 'RUB', SuccessfulTransactionsNumber: 1, FailedTransactionsNumber: 3 });
    expect(res.code).toBe(0);
    const sub = await subscriptionOf(user.id);
    expect(sub.status).toBe('cancelled');
    const log = await t.db.selectFrom('subscription_log').select(['from_status', 'to_status', 'cause']).where('subscription_id', '=', sub.id).orderBy('id').execute();
    expect(log.map((l) => l.cause)).toEqual(['invoice_created', 'paid', 'cloudpayments_rejected']);
  });
});

describe('Refund', () => {
  it('takes the granted tokens back and ends the plan; a repeat changes nothing', async () => {
    const user = await newUser(t.db);
    const { invoice } = await subscribe(t.app, user, catalog.trial);
    const paid = await t.db.selectFrom('invoices').select('transaction_id').where('id', '=', invoice.payment_id).executeTakeFirstOrThrow();
    const refund = { TransactionId: nextTransactionId(), PaymentTransactionId: paid.transaction_id ?? 0, Amount: '99.00', Currency: 'RUB', AccountId: String(user.id), InvoiceId: String(invoice.payment_id) };
    expect((await notify(t.app, 'refund', refund)).code).toBe(0);
    expect((await notify(t.app, 'refund', refund)).code).toBe(0);
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual({ words: 0, media: 0 });
    expect(wallet.sums).toEqual(wallet.balance);
    expect((await subscriptionOf(user.id)).status).toBe('expired');
    expect((await invoiceStatus(invoice.payment_id)).status).toBe('refunded');
  });

  it('takes back only what remains, never going below zero', async () => {
    const user = await newUser(t.db);
    await subscribe(t.app, user, catalog.monthly);
    const invoice = await startPayment(t.app, user, catalog.mediaPack);
    const pay = payFields(invoice, user);
    await notify(t.app, 'pay', pay);
    // Spend most of the media tokens.
    const { placeHold, settleHold } = await import('../../src/features/wallet/wallet.queries.ts');
    const hold = await placeHold(t.db, { userId: user.id, kind: 'media', amount: 3_300, idempotencyKey: `spend-${String(user.id)}` });
    await settleHold(t.db, hold, 3_300);
    expect((await walletState(t.db, user.id)).balance.media).toBe(200);
    const refund = { TransactionId: nextTransactionId(), PaymentTransactionId: pay.TransactionId, Amount: '390.00', Currency: 'RUB', AccountId: String(user.id) };
    expect((await notify(t.app, 'refund', refund)).code).toBe(0);
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance.media).toBe(0);
    expect(wallet.sums).toEqual(wallet.balance);
  });

  it('a partial refund takes back a proportional share', async () => {
    const user = await newUser(t.db);
    await subscribe(t.app, user, catalog.monthly);
    const invoice = await startPayment(t.app, user, catalog.wordsPack);
    const pay = payFields(invoice, user);
    await notify(t.app, 'pay', pay);
    await notify(t.app, 'refund', { TransactionId: nextTransactionId(), PaymentTransactionId: pay.TransactionId, Amount: '145.00', Currency: 'RUB', AccountId: String(user.id) });
    expect((await walletState(t.db, user.id)).balance.words).toBe(1_000_000 + 50_000);
    expect((await invoiceStatus(invoice.payment_id)).status).toBe('paid');
  });

  it('a Cancel of a payment takes back what it granted, once, as a full refund does', async () => {
    const user = await newUser(t.db);
    await subscribe(t.app, user, catalog.monthly);
    const invoice = await startPayment(t.app, user, catalog.wordsPack);
    const pay = payFields(invoice, user);
    expect((await notify(t.app, 'pay', pay)).code).toBe(0);
    expect((await walletState(t.db, user.id)).balance.words).toBe(1_000_000 + 100_000);
    // CloudPayments' Cancel names the cancelled payment by its own TransactionId.
    const cancel = { TransactionId: pay.TransactionId, Amount: '290.00', Currency: 'RUB', AccountId: String(user.id), InvoiceId: String(invoice.payment_id) };
    expect((await notify(t.app, 'cancel', cancel)).code).toBe(0);
    expect((await notify(t.app, 'cancel', cancel)).code).toBe(0);
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual({ words: 1_000_000, media: 3_000 });
    expect(wallet.sums).toEqual(wallet.balance);
    expect((await invoiceStatus(invoice.payment_id)).status).toBe('refunded');
    expect((await subscriptionOf(user.id)).status).toBe('active');
  });

  it('a refunded renewal takes back that period’s tokens', async () => {
    const user = await newUser(t.db);
    const { cpSubscriptionId } = await subscribe(t.app, user, catalog.monthly);
    const renewal = { TransactionId: nextTransactionId(), Amount: '2490.00', Currency: 'RUB', AccountId: String(user.id), SubscriptionId: cpSubscriptionId };
    await notify(t.app, 'pay', renewal);
    expect((await walletState(t.db, user.id)).balance.words).toBe(2_000_000);
    await notify(t.app, 'refund', { TransactionId: nextTransactionId(), PaymentTransactionId: renewal.TransactionId, Amount: '2490.00', Currency: 'RUB', AccountId: String(user.id) });
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: 1_000_000, media: 3_000 });
  });
});
