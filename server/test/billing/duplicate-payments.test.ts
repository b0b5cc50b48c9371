import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminPaymentDetail } from '@app/contracts';
import { refundTransactionJob } from '../../src/features/payments/payments.jobs.ts';
import {
  adminCalls,
  call,
  createTestApp,
  eventually,
  fakeCloudPaymentsApi,
  newAdmin,
  newUser,
  nextTransactionId,
  notify,
  payFields,
  seedCatalog,
  startPayment,
  walletState,
  type Catalog,
  type FakeServer,
  type TestApp,
  type TestUser,
} from '../support/index.ts';

/*
 * One invoice charged by two transactions (two payment forms, a double click at CloudPayments):
 * the first buys the plan or package, the second buys nothing and goes back by itself — the
 * refund job asks CloudPayments (its X-Request-ID), the Refund notification applies it — recorded
 * for staff and shown in the user's orders. Whatever the order and repetition of the deliveries.
 */

type Payment = AdminPaymentDetail;

const PUBLIC_ID = 'pk_duplicates';
const API_SECRET = 'api_secret_duplicates';
const running = { id: 'test', attempt: 1, signal: new AbortController().signal };

let cp: FakeServer;
let t: TestApp;
let catalog: Catalog;
let api: ReturnType<typeof adminCalls>;
beforeAll(async () => {
  cp = fakeCloudPaymentsApi(PUBLIC_ID, API_SECRET);
  await cp.start();
  t = await createTestApp({ workers: false, env: { CLOUDPAYMENTS_PUBLIC_ID: PUBLIC_ID, CLOUDPAYMENTS_API_SECRET: API_SECRET, CLOUDPAYMENTS_API_URL: cp.url } });
  catalog = await seedCatalog(t.db);
  api = adminCalls(t.app, (await newAdmin(t.db)).token);
});
afterAll(async () => {
  await t.close();
  await cp.stop();
});

const payment = (id: number) => api.get<Payment>(`/api/admin/payments/${String(id)}`);
const refundCalls = () => cp.requests.filter((r) => r.path === '/payments/refund');
const invoiceOf = (id: number) => t.db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
/** The refund jobs the Pay transactions enqueued for `transactionId`. */
const refundJobs = async (transactionId: number) =>
  (
    await sql<{ data: { transactionId: number; amountKopecks: number; refundId?: number } }>`select data from pgboss.job where name = 'payments.refund-transaction' and (data->>'transactionId')::bigint = ${transactionId}`.execute(t.db)
  ).rows.map((r) => r.data);
/** Delivers each notification `times` times, all at once, interleaved; answers every code. */
async function deliverAll(kind: string, notifications: Record<string, string | number | undefined>[], times = 3): Promise<(number | undefined)[]> {
  const all = Array.from({ length: times }, () => notifications).flat();
  return (await Promise.all(all.map((n) => notify(t.app, kind, n)))).map((r) => r.code);
}

/** Pays `tariff`'s invoice for `user` with two transactions at once, each delivered three times; answers the original and the duplicate. */
async function paidTwice(user: TestUser, tariff: Catalog[keyof Catalog], extra: [Record<string, string>, Record<string, string>] = [{}, {}]) {
  const invoice = await startPayment(t.app, user, tariff);
  const first = payFields(invoice, user, extra[0]);
  const second = payFields(invoice, user, extra[1]);
  expect(await deliverAll('pay', [first, second])).toEqual(Array(6).fill(0));
  const original = await invoiceOf(invoice.payment_id);
  const duplicateTransaction = original.transaction_id === first.TransactionId ? second.TransactionId : first.TransactionId;
  expect([first.TransactionId, second.TransactionId]).toContain(original.transaction_id);
  const duplicate = await t.db.selectFrom('invoices').selectAll().where('transaction_id', '=', duplicateTransaction).executeTakeFirst();
  return { invoice, original, duplicate, duplicateTransaction, fields: original.transaction_id === first.TransactionId ? second : first };
}

describe('an invoice paid twice', () => {
  it('two Pays at once, each three times: the first buys the plan once, the second is refunded through CloudPayments with its own X-Request-ID, and buys nothing', async () => {
    cp.reset();
    const user = await newUser(t.db);
    const { invoice, duplicate, duplicateTransaction } = await paidTwice(user, catalog.monthly);
    // The refund of the second charge is asked at once, for the whole of it, by the job.
    const jobs = await refundJobs(duplicateTransaction);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ transactionId: duplicateTransaction, amountKopecks: 249_000 });
    expect(duplicate).toMatchObject({ duplicate_of: invoice.payment_id, status: 'paid', subscription_id: null, amount_kopecks: 249_000, words: 0, media_tenths: 0 });
    // The plan is bought once: its tokens once, the balance its ledger.
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual({ words: 1_000_000, media: 3_000 });
    expect(wallet.sums).toEqual(wallet.balance);
    const plan = await t.db.selectFrom('subscriptions').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(plan.status).toBe('active');
    const log = await t.db.selectFrom('subscription_log').select(['cause', 'ref']).where('subscription_id', '=', plan.id).orderBy('id').execute();
    expect(log).toEqual([
      { cause: 'invoice_created', ref: String(invoice.payment_id) },
      { cause: 'paid', ref: expect.any(String) as string },
      { cause: 'duplicate_payment_refunded', ref: String(duplicateTransaction) },
    ]);

    // The job, retried, is one refund at CloudPayments: the same request id.
    const refundId = jobs[0]?.refundId ?? 0;
    const payload = { transactionId: duplicateTransaction, amountKopecks: 249_000, refundId };
    await refundTransactionJob.run(t.ctx, payload, running);
    await refundTransactionJob.run(t.ctx, payload, { ...running, attempt: 2 });
    expect(refundCalls().map((c) => [c.body, c.headers['x-request-id']])).toEqual([
      [{ TransactionId: duplicateTransaction, Amount: 2490 }, `refund-${String(duplicateTransaction)}-${String(refundId)}`],
      [{ TransactionId: duplicateTransaction, Amount: 2490 }, `refund-${String(duplicateTransaction)}-${String(refundId)}`],
    ]);
    // CloudPayments' Refund notification, delivered three times at once, after the job's reply.
    const refundTransaction = duplicateTransaction + 1;
    const refund = { TransactionId: refundTransaction, PaymentTransactionId: duplicateTransaction, Amount: '2490.00', Currency: 'RUB', AccountId: String(user.id) };
    expect(await deliverAll('refund', [refund])).toEqual([0, 0, 0]);

    const dup = await payment(duplicate?.id ?? 0);
    expect(dup).toMatchObject({ duplicate_of: invoice.payment_id, status: 'refunded', refunded: 2490, refunding: 0, refundable: 0, ledger: [] });
    expect(dup.refunds).toEqual([
      expect.objectContaining({ status: 'done', amount: 2490, applied: 2490, cause: 'duplicate_payment', actor_id: null, refund_transaction_id: refundTransaction, reason: expect.stringContaining(`№${String(invoice.payment_id)}`) as string }),
    ]);
    const original = await payment(invoice.payment_id);
    expect(original).toMatchObject({ status: 'paid', refunded: 0, duplicate_of: null, duplicates: [{ id: duplicate?.id, amount: 2490, status: 'refunded', refunded: 2490, transaction_id: duplicateTransaction }] });
    // Nothing of the plan moved: still current, its tokens where they were.
    expect((await t.db.selectFrom('subscriptions').select('status').where('id', '=', plan.id).executeTakeFirstOrThrow()).status).toBe('active');
    const after = await walletState(t.db, user.id);
    expect(after.balance).toEqual({ words: 1_000_000, media: 3_000 });
    expect(after.sums).toEqual(after.balance);
    // The user's order says so.
    const orders = await call(t.app, { url: '/api/new/subscribe?page=1', token: user.token });
    expect(orders.data.json).toMatchObject({ last_page: 1, data: [{ name: 'Бизнес', status: true, amount: 2490, refunded: 0, duplicates: [{ amount: 2490, refunded: true }] }] });
  });

  it('the Refund notification before CloudPayments’ reply to the job: one refund, done', async () => {
    cp.reset();
    const user = await newUser(t.db);
    const { duplicate, duplicateTransaction } = await paidTwice(user, catalog.trial);
    const [job] = await refundJobs(duplicateTransaction);
    const refundTransaction = nextTransactionId();
    cp.respond(() => ({ status: 200, body: { Success: true, Message: null, Model: { TransactionId: refundTransaction } }, delayMs: 1000 }));
    const running1 = refundTransactionJob.run(t.ctx, { transactionId: duplicateTransaction, amountKopecks: 9_900, refundId: job?.refundId }, running);
    await eventually(async () => refundCalls().length, (n) => n === 1);
    const refund = { TransactionId: refundTransaction, PaymentTransactionId: duplicateTransaction, Amount: '99.00', Currency: 'RUB', AccountId: String(user.id) };
    expect(await deliverAll('refund', [refund], 2)).toEqual([0, 0]);
    await running1;
    const rows = await t.db.selectFrom('payment_refunds').selectAll().where('invoice_id', '=', duplicate?.id ?? 0).execute();
    expect(rows).toEqual([expect.objectContaining({ id: job?.refundId, status: 'done', applied_kopecks: 9_900, refund_transaction_id: refundTransaction, cause: 'duplicate_payment' })]);
    expect(await invoiceOf(duplicate?.id ?? 0)).toMatchObject({ status: 'refunded', refunded_kopecks: 9_900 });
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual({ words: catalog.trial.words, media: catalog.trial.media_tenths });
    expect(wallet.sums).toEqual(wallet.balance);
  });

  it('a refund CloudPayments refuses for good is shown failed, and staff can return the money by hand', async () => {
    cp.reset();
    const user = await newUser(t.db);
    const { duplicate, duplicateTransaction } = await paidTwice(user, catalog.pro);
    const [job] = await refundJobs(duplicateTransaction);
    cp.respond(() => ({ status: 200, body: { Success: false, Message: 'Refund is not allowed' } }));
    const payload = { transactionId: duplicateTransaction, amountKopecks: 14_900, refundId: job?.refundId };
    await expect(refundTransactionJob.run(t.ctx, payload, { ...running, attempt: refundTransactionJob.options.retries + 1 })).rejects.toThrow();
    const dup = await payment(duplicate?.id ?? 0);
    expect(dup).toMatchObject({ status: 'paid', refunding: 0, refundable: 149, refunds: [{ status: 'failed', cause: 'duplicate_payment' }] });
    cp.reset();
    const byHand = await api.change<Payment>('POST', `/api/admin/payments/${String(duplicate?.id ?? 0)}/refund`, { amount: 149, reason: 'Двойное списание', request_id: crypto.randomUUID() });
    expect(byHand.refunding).toBe(149);
  });

  it('a second payment form’s own CloudPayments subscription: the charge is refunded and that subscription cancelled; the plan’s renewals stay renewals', async () => {
    cp.reset();
    const user = await newUser(t.db);
    const { invoice, duplicate, duplicateTransaction } = await paidTwice(user, catalog.monthly, [{ SubscriptionId: 'sc_dup_first' }, { SubscriptionId: 'sc_dup_second' }]);
    expect(duplicate?.duplicate_of).not.toBeNull();
    const plan = await t.db.selectFrom('subscriptions').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    const second = plan.cp_subscription_id === 'sc_dup_first' ? 'sc_dup_second' : 'sc_dup_first';
    const cancels = (await sql<{ data: { id: string } }>`select data from pgboss.job where name = 'payments.cancel-cp-subscription'`.execute(t.db)).rows.map((r) => r.data.id);
    expect(cancels).toContain(second);
    expect(cancels).not.toContain(plan.cp_subscription_id);
    expect((await refundJobs(duplicateTransaction)).length).toBe(1);
    // A renewal of the plan's own subscription, naming the paid invoice as CloudPayments may: a renewal.
    const renewal = { TransactionId: nextTransactionId(), Amount: '2490.00', Currency: 'RUB', AccountId: String(user.id), InvoiceId: String(invoice.payment_id), SubscriptionId: plan.cp_subscription_id ?? '' };
    expect(await deliverAll('pay', [renewal])).toEqual([0, 0, 0]);
    expect(await refundJobs(renewal.TransactionId)).toEqual([]);
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual({ words: 2_000_000, media: 6_000 });
    expect(wallet.sums).toEqual(wallet.balance);
  });

  it('a package paid twice: tokens once, one purchase in the orders with its second charge on its way back', async () => {
    const user = await newUser(t.db);
    await paidTwice(user, catalog.monthly);
    const { invoice } = await paidTwice(user, catalog.wordsPack);
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual({ words: 1_000_000 + 100_000, media: 3_000 });
    expect(wallet.sums).toEqual(wallet.balance);
    const packages = await call(t.app, { url: '/api/new/subscribe/packages?page=1', token: user.token });
    expect(packages.data.json).toEqual({ last_page: 1, data: [expect.objectContaining({ id: invoice.payment_id, status: 'paid', amount: 290, duplicates: [expect.objectContaining({ amount: 290, refunded: false })] })] });
    // The conversion goal counts the purchase, not its second charge.
    expect((await call(t.app, { url: '/api/new/target_2', token: user.token })).data.json).toEqual({ recorded: true });
    expect((await call(t.app, { url: '/api/new/target_2', token: user.token })).data.json).toEqual({ recorded: true });
    expect((await call(t.app, { url: '/api/new/target_2', token: user.token })).data.json).toEqual({ recorded: false });
  });
});

describe('through the payment sandbox (job workers on)', () => {
  let s: TestApp;
  let sandboxCatalog: Catalog;
  beforeAll(async () => {
    s = await createTestApp();
    sandboxCatalog = await seedCatalog(s.db);
  });
  afterAll(() => s.close());

  it('the second charge comes back by itself: the sandbox refunds it, its notification applies it; the plan and its tokens stay', async () => {
    const user = await newUser(s.db);
    const invoice = await startPayment(s.app, user, sandboxCatalog.trial);
    const first = payFields(invoice, user);
    const second = payFields(invoice, user);
    const codes = await Promise.all([first, second, first, second].map((n) => notify(s.app, 'pay', n)));
    expect(codes.map((c) => c.code)).toEqual([0, 0, 0, 0]);
    const refunded = await eventually(
      () => s.db.selectFrom('invoices').select(['status', 'refunded_kopecks', 'duplicate_of']).where('duplicate_of', '=', invoice.payment_id).execute(),
      (rows) => rows.length === 1 && rows[0]?.status === 'refunded',
      20_000,
    );
    expect(refunded).toEqual([{ status: 'refunded', refunded_kopecks: 9_900, duplicate_of: invoice.payment_id }]);
    const requests = await s.db.selectFrom('payment_refunds').select(['status', 'cause']).where('user_id', '=', user.id).execute();
    expect(requests).toEqual([{ status: 'done', cause: 'duplicate_payment' }]);
    expect(await s.db.selectFrom('invoices').select('status').where('id', '=', invoice.payment_id).executeTakeFirstOrThrow()).toEqual({ status: 'paid' });
    const wallet = await walletState(s.db, user.id);
    expect(wallet.balance).toEqual({ words: sandboxCatalog.trial.words, media: sandboxCatalog.trial.media_tenths });
    expect(wallet.sums).toEqual(wallet.balance);
  });
});
