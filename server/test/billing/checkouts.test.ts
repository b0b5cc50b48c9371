import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CP_CODES } from '@app/contracts';
import { CHECKOUT_TTL_HOURS, expireCheckouts, expireCheckoutsJob } from '../../src/features/billing/billing.jobs.ts';
import { ALL_JOBS } from '../../src/jobs/registry.ts';
import { call, createTestApp, newUser, notify, payFields, seedCatalog, startPayment, subscribe, walletState, type Catalog, type TestApp, type TestUser } from '../support/index.ts';

let t: TestApp;
let catalog: Catalog;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
  catalog = await seedCatalog(t.db);
});
afterAll(() => t.close());

const invoiceOf = (id: number) => t.db.selectFrom('invoices').select(['status', 'failure_reason', 'subscription_id']).where('id', '=', id).executeTakeFirstOrThrow();
const subscriptionOfInvoice = async (invoiceId: number) => {
  const { subscription_id } = await invoiceOf(invoiceId);
  return t.db.selectFrom('subscriptions').selectAll().where('id', '=', subscription_id ?? 0).executeTakeFirstOrThrow();
};
const logOf = (subscriptionId: number) =>
  t.db.selectFrom('subscription_log').select(['from_status', 'to_status', 'cause', 'ref']).where('subscription_id', '=', subscriptionId).orderBy('id').execute();
const history = async (user: TestUser, page = 1) => (await call(t.app, { url: `/api/new/subscribe?page=${String(page)}`, token: user.token })).data.json as { data: { name: string; status: boolean; closed: boolean }[]; last_page: number };

/** Makes an invoice (and its plan) look `hours` old: the checkout was opened then. */
async function age(invoiceId: number, hours: number): Promise<void> {
  const { subscription_id } = await invoiceOf(invoiceId);
  await sql`update invoices set created_at = now() - make_interval(hours => ${hours}) where id = ${invoiceId}`.execute(t.db);
  if (subscription_id !== null) await sql`update subscriptions set created_at = now() - make_interval(hours => ${hours}) where id = ${subscription_id}`.execute(t.db);
}

describe('abandoned checkouts', () => {
  it('an invoice unpaid for a day fails and its plan expires with a line in the subscription log; a younger one waits', async () => {
    const user = await newUser(t.db);
    const old = await startPayment(t.app, user, catalog.monthly);
    await age(old.payment_id, CHECKOUT_TTL_HOURS + 1);
    const fresh = await startPayment(t.app, user, catalog.trial);
    await age(fresh.payment_id, CHECKOUT_TTL_HOURS - 1);

    await expireCheckouts(t.ctx);

    expect(await invoiceOf(old.payment_id)).toMatchObject({ status: 'failed', failure_reason: 'checkout_expired' });
    const expired = await subscriptionOfInvoice(old.payment_id);
    expect(expired).toMatchObject({ status: 'expired', paid_at: null });
    expect(expired.ended_at).not.toBeNull();
    expect(await logOf(expired.id)).toEqual([
      { from_status: null, to_status: 'pending', cause: 'invoice_created', ref: String(old.payment_id) },
      { from_status: 'pending', to_status: 'expired', cause: 'checkout_expired', ref: String(old.payment_id) },
    ]);
    expect(await invoiceOf(fresh.payment_id)).toMatchObject({ status: 'pending', failure_reason: null });
    expect((await subscriptionOfInvoice(fresh.payment_id)).status).toBe('pending');
    // Nothing left to do: a second run changes nothing.
    expect(await expireCheckouts(t.ctx)).toEqual({ invoices: 0, subscriptions: 0 });
  });

  it('the order history shows a checkout still open as unpaid and hides one that expired unpaid', async () => {
    const user = await newUser(t.db);
    const abandoned = await startPayment(t.app, user, catalog.monthly);
    expect(await history(user)).toEqual({ last_page: 1, data: [expect.objectContaining({ name: catalog.monthly.name, status: false, closed: false })] });
    await age(abandoned.payment_id, CHECKOUT_TTL_HOURS + 1);
    await expireCheckouts(t.ctx);
    expect(await history(user)).toEqual({ last_page: 1, data: [] });
    await subscribe(t.app, user, catalog.trial);
    expect(await history(user)).toEqual({ last_page: 1, data: [expect.objectContaining({ name: catalog.trial.name, status: true })] });
  });

  it('an abandoned package invoice fails too', async () => {
    const user = await newUser(t.db);
    await subscribe(t.app, user, catalog.monthly);
    const invoice = await startPayment(t.app, user, catalog.wordsPack);
    await age(invoice.payment_id, CHECKOUT_TTL_HOURS + 2);
    expect(await expireCheckouts(t.ctx)).toMatchObject({ invoices: 1 });
    expect(await invoiceOf(invoice.payment_id)).toMatchObject({ status: 'failed', failure_reason: 'checkout_expired' });
  });

  it('Check refuses an expired invoice (20): the card is not charged for it', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.monthly);
    await age(invoice.payment_id, CHECKOUT_TTL_HOURS + 1);
    await expireCheckouts(t.ctx);
    expect((await notify(t.app, 'check', payFields(invoice, user))).code).toBe(CP_CODES.expired);
  });

  it('a Pay that arrives late for an expired invoice is honoured: the plan is on, its tokens credited, the log says so', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.monthly);
    await age(invoice.payment_id, CHECKOUT_TTL_HOURS + 3);
    await expireCheckouts(t.ctx);
    const pay = payFields(invoice, user, { SubscriptionId: 'sc_late_pay' });
    expect((await notify(t.app, 'pay', pay)).code).toBe(0);
    expect(await invoiceOf(invoice.payment_id)).toMatchObject({ status: 'paid', failure_reason: null });
    const sub = await subscriptionOfInvoice(invoice.payment_id);
    expect(sub).toMatchObject({ status: 'active', ended_at: null, cp_subscription_id: 'sc_late_pay' });
    expect(sub.paid_at).not.toBeNull();
    expect((await logOf(sub.id)).map((l) => [l.from_status, l.to_status, l.cause])).toEqual([
      [null, 'pending', 'invoice_created'],
      ['pending', 'expired', 'checkout_expired'],
      ['expired', 'active', 'paid_after_checkout_closed'],
    ]);
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual({ words: catalog.monthly.words, media: catalog.monthly.media_tenths });
    expect(wallet.sums).toEqual(wallet.balance);
    expect((await call(t.app, { url: '/api/new/subscribe/check', token: user.token })).data.json).toMatchObject({ subscriptions: catalog.monthly.id });
    expect(await history(user)).toMatchObject({ data: [{ status: true }] });
    // The same Pay again changes nothing.
    expect((await notify(t.app, 'pay', pay)).code).toBe(0);
    expect((await walletState(t.db, user.id)).balance).toEqual(wallet.balance);
  });

  it('a late Pay for an expired package invoice credits the package', async () => {
    const user = await newUser(t.db);
    await subscribe(t.app, user, catalog.monthly);
    const before = (await walletState(t.db, user.id)).balance;
    const invoice = await startPayment(t.app, user, catalog.mediaPack);
    await age(invoice.payment_id, CHECKOUT_TTL_HOURS + 1);
    await expireCheckouts(t.ctx);
    expect((await notify(t.app, 'pay', payFields(invoice, user))).code).toBe(0);
    expect(await invoiceOf(invoice.payment_id)).toMatchObject({ status: 'paid' });
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: before.words + catalog.mediaPack.words, media: before.media + catalog.mediaPack.media_tenths });
  });

  it('expiry racing a Pay: whichever comes first, the payment ends up honoured once', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.monthly);
    await age(invoice.payment_id, CHECKOUT_TTL_HOURS + 1);
    const [, pay] = await Promise.all([expireCheckouts(t.ctx), notify(t.app, 'pay', payFields(invoice, user))]);
    expect(pay.code).toBe(0);
    expect(await invoiceOf(invoice.payment_id)).toMatchObject({ status: 'paid' });
    expect((await subscriptionOfInvoice(invoice.payment_id)).status).toBe('active');
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual({ words: catalog.monthly.words, media: catalog.monthly.media_tenths });
    expect(wallet.sums).toEqual(wallet.balance);
  });

  it('a plan left unpaid without an open invoice (declined before declines closed plans) expires too', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.monthly);
    // As an older Fail left it: the invoice failed, the plan still pending.
    await t.db.updateTable('invoices').set({ status: 'failed', failure_reason: 'InsufficientFunds' }).where('id', '=', invoice.payment_id).execute();
    await age(invoice.payment_id, CHECKOUT_TTL_HOURS + 1);
    expect(await expireCheckouts(t.ctx)).toEqual({ invoices: 0, subscriptions: 1 });
    const sub = await subscriptionOfInvoice(invoice.payment_id);
    expect(sub.status).toBe('expired');
    expect((await logOf(sub.id)).at(-1)).toMatchObject({ from_status: 'pending', to_status: 'expired', cause: 'checkout_expired' });
  });

  it('runs as a job every ten minutes', () => {
    expect(ALL_JOBS).toContain(expireCheckoutsJob);
    expect(expireCheckoutsJob.cron).toBe('*/10 * * * *');
  });
});

describe('declined checkouts', () => {
  it('a declined first payment leaves no plan waiting: it expires at once, with its log line, and leaves the order history', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.trial);
    const fail = payFields(invoice, user, { Reason: 'InsufficientFunds', ReasonCode: 5051, Status: 'Declined' });
    expect((await notify(t.app, 'fail', fail)).code).toBe(0);
    expect(await invoiceOf(invoice.payment_id)).toMatchObject({ status: 'failed', failure_reason: 'InsufficientFunds' });
    const sub = await subscriptionOfInvoice(invoice.payment_id);
    expect(sub.status).toBe('expired');
    expect((await logOf(sub.id)).at(-1)).toEqual({ from_status: 'pending', to_status: 'expired', cause: 'payment_declined', ref: String(fail.TransactionId) });
    expect(await history(user)).toEqual({ last_page: 1, data: [] });
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: 0, media: 0 });
  });

  it('another card in the same payment form after a decline pays it: honoured, and logged as the retry it is', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.trial);
    const fail = payFields(invoice, user, { Reason: 'InsufficientFunds', Status: 'Declined' });
    expect((await notify(t.app, 'fail', fail)).code).toBe(0);
    expect((await notify(t.app, 'check', payFields(invoice, user))).code).toBe(0);
    const pay = payFields(invoice, user);
    expect((await Promise.all([pay, pay, pay].map((n) => notify(t.app, 'pay', n)))).map((r) => r.code)).toEqual([0, 0, 0]);
    const sub = await subscriptionOfInvoice(invoice.payment_id);
    expect(sub).toMatchObject({ status: 'active', ended_at: null });
    expect((await logOf(sub.id)).map((l) => [l.from_status, l.to_status, l.cause, l.ref])).toEqual([
      [null, 'pending', 'invoice_created', String(invoice.payment_id)],
      ['pending', 'expired', 'payment_declined', String(fail.TransactionId)],
      ['expired', 'active', 'paid_after_decline', String(pay.TransactionId)],
    ]);
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual({ words: catalog.trial.words, media: catalog.trial.media_tenths });
    expect(wallet.sums).toEqual(wallet.balance);
    expect(await history(user)).toMatchObject({ data: [{ status: true, closed: false }] });
  });

  it('the decline and the retry’s Pay delivered at once and again, in either order: the plan is bought once; a retry reads as a retry or as the payment itself', async () => {
    for (let round = 0; round < 3; round++) {
      const user = await newUser(t.db);
      const invoice = await startPayment(t.app, user, catalog.pro);
      const fail = payFields(invoice, user, { Reason: 'InsufficientFunds', Status: 'Declined' });
      const pay = payFields(invoice, user);
      const deliveries = round % 2 === 0 ? [fail, pay, fail, pay] : [pay, fail, pay, fail];
      const codes = await Promise.all(deliveries.map((n) => notify(t.app, n === fail ? 'fail' : 'pay', n)));
      expect(codes.map((c) => c.code)).toEqual([0, 0, 0, 0]);
      const sub = await subscriptionOfInvoice(invoice.payment_id);
      expect(sub).toMatchObject({ status: 'active', ended_at: null });
      // The Pay applied first is the payment itself; after the decline it is its retry.
      const paid = (await logOf(sub.id)).filter((l) => l.to_status === 'active');
      expect(paid).toHaveLength(1);
      expect(['paid', 'paid_after_decline']).toContain(paid[0]?.cause);
      expect(await invoiceOf(invoice.payment_id)).toMatchObject({ status: 'paid', failure_reason: null });
      const wallet = await walletState(t.db, user.id);
      expect(wallet.balance).toEqual({ words: catalog.pro.words, media: catalog.pro.media_tenths });
      expect(wallet.sums).toEqual(wallet.balance);
    }
  });
});
