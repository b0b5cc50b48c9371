import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refundTransactionJob } from '../../src/features/payments/payments.jobs.ts';
import {
  adminCalls,
  createTestApp,
  eventually,
  fakeCloudPaymentsApi,
  newAdmin,
  newUser,
  nextTransactionId,
  notify,
  seedCatalog,
  startPayment,
  subscribe,
  walletState,
  type Catalog,
  type FakeServer,
  type Page,
  type TestApp,
  type TestUser,
} from '../support/index.ts';

/*
 * Subscriptions, payments and the subscription log in the admin panel, and refunds through the
 * provider: the payment sandbox (its Refund notification comes back through the webhook code) and
 * CloudPayments' API (a protocol fake). Money and tokens move once per refund, whatever repeats.
 */

interface Refund {
  id: number;
  amount: number;
  applied: number | null;
  status: string;
  reason: string | null;
  actor_email: string | null;
  refund_transaction_id: number | null;
}
interface Payment {
  id: number;
  email: string;
  status: string;
  amount: number;
  transaction_id: number | null;
  refunded: number;
  refunding: number;
  refundable: number;
  refunds: Refund[];
  ledger: { kind: string; amount: number; reason: string }[];
}
interface Subscription {
  id: number;
  email: string;
  status: string;
  amount: number;
  log: LogLine[];
  payments: Payment[];
}
interface LogLine {
  kind: 'status' | 'charge';
  email: string;
  subscription_id: number;
  from_status: string | null;
  to_status: string | null;
  cause: string | null;
  amount: number | null;
  success: boolean | null;
  failure_reason: string | null;
  transaction_id: number | null;
}

const reason = 'Клиент попросил вернуть деньги';
const refundBody = (amount: number, extra: Record<string, unknown> = {}) => ({ amount, reason, request_id: crypto.randomUUID(), ...extra });

describe('through the payment sandbox (job workers on)', () => {
  let t: TestApp;
  let catalog: Catalog;
  let admin: TestUser;
  let api: ReturnType<typeof adminCalls>;
  beforeAll(async () => {
    t = await createTestApp();
    catalog = await seedCatalog(t.db);
    admin = await newAdmin(t.db);
    api = adminCalls(t.app, admin.token);
  });
  afterAll(() => t.close());

  const payment = (id: number) => api.get<Payment>(`/api/admin/payments/${String(id)}`);
  const refund = (id: number, body: unknown, token = admin.token) => api.send('POST', `/api/admin/payments/${String(id)}/refund`, body, token);
  const settled = (id: number) => eventually(() => payment(id), (p) => p.refunds.length > 0 && p.refunds.every((r) => r.status !== 'requested'));
  const refundRows = (invoiceId: number) => t.db.selectFrom('payment_refunds').selectAll().where('invoice_id', '=', invoiceId).execute();
  /** The sandbox's notifications still waiting in the queue. */
  const queuedNotifications = async () =>
    (await sql<{ n: number }>`select count(*)::int as n from pgboss.job where name = 'sandbox.notify' and state in ('created', 'retry', 'active')`.execute(t.db)).rows[0]?.n ?? 0;

  it('a partial refund, then the rest: CloudPayments (the sandbox) returns the money, the tokens go back in proportion, the plan ends', async () => {
    const user = await newUser(t.db);
    const { invoice } = await subscribe(t.app, user, catalog.monthly);
    const id = invoice.payment_id;
    const asked = await refund(id, refundBody(1245));
    expect(asked.statusCode).toBe(200);
    // Asked, not done: CloudPayments has not reported it yet, and what is on its way back cannot be asked again.
    expect(asked.data.json).toMatchObject({ status: 'paid', refunded: 0, refunding: 1245, refundable: 1245, refunds: [{ status: 'requested', amount: 1245, reason, actor_email: admin.email, applied: null }] });
    const half = await settled(id);
    expect(half).toMatchObject({ status: 'paid', refunded: 1245, refunding: 0, refundable: 1245, refunds: [{ status: 'done', amount: 1245, applied: 1245 }] });
    expect(half.refunds[0]?.refund_transaction_id).toBeGreaterThan(0);
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: 500_000, media: 1_500 });
    expect(half.ledger.map((l) => [l.kind, l.amount, l.reason])).toEqual([
      ['words', 1_000_000, 'subscription_grant'],
      ['media', 300, 'subscription_grant'],
      ['words', -500_000, 'refund'],
      ['media', -150, 'refund'],
    ]);

    await refund(id, refundBody(1245));
    const whole = await settled(id);
    expect(whole).toMatchObject({ status: 'refunded', refunded: 2490, refunding: 0, refundable: 0 });
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual({ words: 0, media: 0 });
    expect(wallet.sums).toEqual(wallet.balance);
    const sub = await t.db.selectFrom('subscriptions').select(['status']).where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(sub.status).toBe('expired');
    // Nothing is left to refund.
    const more = await refund(id, refundBody(1));
    expect(more.statusCode).toBe(409);
    expect(more.data.code).toBe('REFUND_NOT_ALLOWED');
    const audit = await api.audit('payment', id);
    expect(audit.map((a) => [a.action, a.actor_id])).toEqual([
      ['payment.refund', admin.id],
      ['payment.refund', admin.id],
    ]);
    expect(audit[1]).toMatchObject({ before: { refunded: 0, refunding: 0, refundable: 2490 }, after: { amount: 1245, reason, refunding: 1245, refundable: 1245 } });
    expect(audit[0]).toMatchObject({ before: { refunded: 1245, refunding: 0, refundable: 1245 }, after: { amount: 1245, refundable: 0 } });
  });

  it('a double click (the same request five times at once) refunds once; a retried job and a repeated notification change nothing', async () => {
    const user = await newUser(t.db);
    const { invoice } = await subscribe(t.app, user, catalog.monthly);
    const body = refundBody(2490);
    const replies = await Promise.all(Array.from({ length: 5 }, () => refund(invoice.payment_id, body)));
    expect(replies.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    // One request. (Beside it there may already be a row of CloudPayments' Refund notification, if
    // that came before the job stored the refund's transaction id: the request takes it over then.)
    const requests = await refundRows(invoice.payment_id);
    expect(requests.filter((r) => r.request_id !== null).map((r) => r.request_id)).toEqual([body.request_id]);
    expect(requests.filter((r) => r.request_id === null).every((r) => r.status === 'done')).toBe(true);
    expect(await api.audit('payment', invoice.payment_id)).toHaveLength(1);
    const done = await settled(invoice.payment_id);
    expect(done).toMatchObject({ status: 'refunded', refunded: 2490, refunds: [{ status: 'done', applied: 2490 }] });
    expect(await refundRows(invoice.payment_id)).toHaveLength(1);
    const after = await walletState(t.db, user.id);
    expect(after.balance).toEqual({ words: 0, media: 0 });

    // The job again, as after a crash between CloudPayments' answer and the queue's acknowledgement.
    const [row] = await refundRows(invoice.payment_id);
    if (!row) throw new Error('no refund');
    await refundTransactionJob.run(t.ctx, { transactionId: row.payment_transaction_id, amountKopecks: row.amount_kopecks, refundId: row.id }, { id: 'retry', attempt: 2, signal: new AbortController().signal });
    await eventually(queuedNotifications, (n) => n === 0);
    expect(await refundRows(invoice.payment_id)).toEqual([row]);
    expect(await payment(invoice.payment_id)).toMatchObject({ refunded: 2490, refunds: [{ id: row.id, status: 'done', applied: 2490, refund_transaction_id: row.refund_transaction_id }] });
    const notified = await t.db.selectFrom('payment_notifications').select('idempotency_key').where('kind', '=', 'refund').where('idempotency_key', '=', `refund:${String(row.refund_transaction_id)}`).execute();
    expect(notified).toHaveLength(1);
    expect(await walletState(t.db, user.id)).toEqual(after);
  });

  it('two admins asking at once for more than is left together: one refund goes, the other is refused with the amount left', async () => {
    const user = await newUser(t.db);
    const { invoice } = await subscribe(t.app, user, catalog.monthly);
    const other = await newAdmin(t.db);
    const [a, b] = await Promise.all([refund(invoice.payment_id, refundBody(1500)), refund(invoice.payment_id, refundBody(1500), other.token)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const refused = a.statusCode === 409 ? a : b;
    expect(refused.data.code).toBe('REFUND_TOO_LARGE');
    expect((refused.data.text as Record<string, string[]>).amount?.[0]).toMatch(/^Можно вернуть не больше 990,00 ₽$/);
    // One request (and perhaps already the row of its Refund notification, which it takes over).
    expect((await refundRows(invoice.payment_id)).filter((r) => r.request_id !== null)).toHaveLength(1);
    await settled(invoice.payment_id);
    expect(await refundRows(invoice.payment_id)).toHaveLength(1);
    expect(await payment(invoice.payment_id)).toMatchObject({ status: 'paid', refunded: 1500, refundable: 990 });
  });

  it('refuses unpaid payments, amounts above what is left, malformed and hostile bodies, changing nothing', async () => {
    const user = await newUser(t.db);
    const { invoice } = await subscribe(t.app, user, catalog.monthly);
    const unpaid = await startPayment(t.app, user, catalog.wordsPack);
    const notPaid = await refund(unpaid.payment_id, refundBody(10));
    expect(notPaid.statusCode).toBe(409);
    expect(notPaid.data.text).toBe('Вернуть можно только оплаченный платёж');
    const tooMuch = await refund(invoice.payment_id, refundBody(2490.01));
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.data.text).toEqual({ amount: ['Можно вернуть не больше 2\u00a0490,00 ₽'] });
    const bad: [unknown, string][] = [
      [refundBody(0), 'amount'],
      [refundBody(-5), 'amount'],
      [refundBody(10.001), 'amount'],
      [{ ...refundBody(10), amount: '10' }, 'amount'],
      [{ ...refundBody(10), amount: undefined }, 'amount'],
      [{ ...refundBody(10), reason: undefined }, 'reason'],
      [{ ...refundBody(10), reason: ' a ' }, 'reason'],
      [{ ...refundBody(10), reason: 'x'.repeat(501) }, 'reason'],
      [{ ...refundBody(10), request_id: 'again' }, 'request_id'],
      [{ ...refundBody(10), request_id: undefined }, 'request_id'],
      [{ ...refundBody(10), user_id: user.id }, ''],
    ];
    for (const [body, field] of bad) {
      const res = await refund(invoice.payment_id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.data.text)).toMatch(/[а-я]/i);
      if (field) expect(Object.keys(res.data.text as object)).toContain(field);
    }
    const missing = await refund(99_999_999, refundBody(10));
    expect(missing.statusCode).toBe(404);
    expect(missing.data.text).toBe('Платёж не найден');
    expect((await refund(0, refundBody(10))).statusCode).toBe(400);
    // One request id, two payments: the second is refused.
    const first = await newUser(t.db);
    const paid = await subscribe(t.app, first, catalog.monthly);
    const body = refundBody(5);
    expect((await refund(paid.invoice.payment_id, body)).statusCode).toBe(200);
    const reused = await refund(invoice.payment_id, body);
    expect(reused.statusCode).toBe(400);
    expect(reused.data.text).toEqual({ request_id: ['Этот запрос уже применён к другому платежу'] });
    expect(await refundRows(invoice.payment_id)).toEqual([]);
    expect(await api.audit('payment', invoice.payment_id)).toEqual([]);
    expect((await payment(invoice.payment_id)).refundable).toBe(2490);
  });

  it('lists subscriptions by email and status, sorted; one subscription with its log and payments', async () => {
    const mark = crypto.randomBytes(3).toString('hex');
    const [anna, boris] = [await newUser(t.db, { email: `anna-${mark}@subs.ru` }), await newUser(t.db, { email: `boris-${mark}@subs.ru` })];
    await subscribe(t.app, anna, catalog.monthly);
    await subscribe(t.app, boris, catalog.pro);
    await startPayment(t.app, boris, catalog.trial);
    const byEmail = await api.get<Page<Subscription>>(`/api/admin/subscriptions?q=anna-${mark}`);
    expect(byEmail.data.map((s) => [s.email, s.status, s.amount])).toEqual([[anna.email, 'active', 2490]]);
    const active = await api.get<Page<Subscription>>(`/api/admin/subscriptions?q=${mark}&status=active&sort=amount&dir=asc`);
    expect(active.data.map((s) => s.email)).toEqual([boris.email, anna.email]);
    const pending = await api.get<Page<Subscription>>(`/api/admin/subscriptions?q=${mark}&status=pending`);
    expect(pending.data.map((s) => [s.email, s.status])).toEqual([[boris.email, 'pending']]);
    const id = byEmail.data[0]?.id ?? 0;
    const one = await api.get<Subscription>(`/api/admin/subscriptions/${String(id)}`);
    expect(one.log.map((l) => [l.kind, l.from_status, l.to_status, l.cause])).toEqual([
      ['status', 'pending', 'active', 'paid'],
      ['status', null, 'pending', 'invoice_created'],
    ]);
    expect(one.payments.map((p) => [p.status, p.amount])).toEqual([['paid', 2490]]);
    for (const q of ['status=paid', 'sort=email', 'dir=down']) expect((await api.send('GET', `/api/admin/subscriptions?${q}`)).statusCode, q).toBe(400);
    expect((await api.send('GET', '/api/admin/subscriptions/99999999')).data.text).toBe('Подписка не найдена');
  });

  it('lists payments by email or transaction id and by status; one payment with its grant lines', async () => {
    const mark = crypto.randomBytes(3).toString('hex');
    const user = await newUser(t.db, { email: `payer-${mark}@pay.ru` });
    const { invoice } = await subscribe(t.app, user, catalog.monthly);
    const unpaid = await startPayment(t.app, user, catalog.wordsPack);
    const all = await api.get<Page<Payment>>(`/api/admin/payments?q=payer-${mark}&sort=id&dir=asc`);
    expect(all.data.map((p) => [p.id, p.status])).toEqual([
      [invoice.payment_id, 'paid'],
      [unpaid.payment_id, 'pending'],
    ]);
    const paid = all.data[0];
    const byTransaction = await api.get<Page<Payment>>(`/api/admin/payments?q=${String(paid?.transaction_id)}`);
    expect(byTransaction.data.map((p) => p.id)).toEqual([invoice.payment_id]);
    expect((await api.get<Page<Payment>>(`/api/admin/payments?q=payer-${mark}&status=pending`)).data.map((p) => p.id)).toEqual([unpaid.payment_id]);
    expect(await payment(invoice.payment_id)).toMatchObject({ email: user.email, amount: 2490, refundable: 2490, refunds: [], ledger: [{ kind: 'words', amount: 1_000_000 }, { kind: 'media', amount: 300 }] });
    expect((await payment(unpaid.payment_id)).refundable).toBe(0);
    for (const q of ['status=done', 'sort=transaction_id', `q=${'x'.repeat(201)}`]) expect((await api.send('GET', `/api/admin/payments?${q}`)).statusCode, q).toBe(400);
  });

  it('the subscription log: status changes and renewal charges, newest first, searched and filtered', async () => {
    const mark = crypto.randomBytes(3).toString('hex');
    const user = await newUser(t.db, { email: `renew-${mark}@log.ru` });
    const { cpSubscriptionId } = await subscribe(t.app, user, catalog.monthly);
    const charge = { Amount: '2490.00', Currency: 'RUB', AccountId: String(user.id), SubscriptionId: cpSubscriptionId };
    const renewal = nextTransactionId();
    expect((await notify(t.app, 'pay', { ...charge, TransactionId: renewal })).code).toBe(0);
    expect((await notify(t.app, 'fail', { ...charge, TransactionId: nextTransactionId(), Reason: 'InsufficientFunds' })).code).toBe(0);
    const log = await api.get<Page<LogLine>>(`/api/admin/subscription-log?q=renew-${mark}`);
    expect(log.data.map((l) => [l.kind, l.to_status, l.cause, l.amount, l.success, l.failure_reason])).toEqual([
      ['status', 'past_due', 'renewal_failed', null, null, null],
      ['charge', null, null, 2490, false, 'InsufficientFunds'],
      ['status', 'active', 'renewed', null, null, null],
      ['charge', null, null, 2490, true, null],
      ['status', 'active', 'paid', null, null, null],
      ['status', 'pending', 'invoice_created', null, null, null],
    ]);
    const charges = await api.get<Page<LogLine>>(`/api/admin/subscription-log?q=renew-${mark}&kind=charge&dir=asc`);
    expect(charges.data.map((l) => l.success)).toEqual([true, false]);
    // The renewal's transaction: the charge, and the status line it caused (its ref).
    const byTransaction = await api.get<Page<LogLine & { ref: string | null }>>(`/api/admin/subscription-log?q=${String(renewal)}`);
    expect(byTransaction.data.map((l) => [l.kind, l.transaction_id, l.ref])).toEqual([
      ['status', null, String(renewal)],
      ['charge', renewal, null],
    ]);
    for (const q of ['kind=refund', 'sort=email']) expect((await api.send('GET', `/api/admin/subscription-log?${q}`)).statusCode, q).toBe(400);
  });
});

describe('through CloudPayments’ API (a protocol fake; jobs run by the test)', () => {
  const PUBLIC_ID = 'pk_admin_refunds';
  const API_SECRET = 'api_secret_admin_refunds';
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
  const running = { id: 'test', attempt: 1, signal: new AbortController().signal };
  const requestOf = async (invoiceId: number) => {
    const row = await t.db.selectFrom('payment_refunds').selectAll().where('invoice_id', '=', invoiceId).where('actor_id', 'is not', null).orderBy('id', 'desc').executeTakeFirstOrThrow();
    return { row, payload: { transactionId: row.payment_transaction_id, amountKopecks: row.amount_kopecks, refundId: row.id } };
  };
  const refundCalls = () => cp.requests.filter((r) => r.path === '/payments/refund');

  it('each refund is one request id at CloudPayments, repeated by a retried job; its notification, delivered twice, takes tokens back once', async () => {
    cp.reset();
    const user = await newUser(t.db);
    const { invoice } = await subscribe(t.app, user, catalog.monthly);
    await api.change('POST', `/api/admin/payments/${String(invoice.payment_id)}/refund`, refundBody(249));
    const first = await requestOf(invoice.payment_id);
    await refundTransactionJob.run(t.ctx, first.payload, running);
    await refundTransactionJob.run(t.ctx, first.payload, { ...running, attempt: 2 });
    const calls = refundCalls();
    expect(calls.map((c) => c.body)).toEqual([
      { TransactionId: first.row.payment_transaction_id, Amount: 249 },
      { TransactionId: first.row.payment_transaction_id, Amount: 249 },
    ]);
    expect(calls[0]?.headers['x-request-id']).toBe(`refund-${String(first.row.payment_transaction_id)}-${String(first.row.id)}`);
    expect(calls[1]?.headers['x-request-id']).toBe(calls[0]?.headers['x-request-id']);
    // The fake answers the refund's transaction as the payment's + 1; the request keeps it until the notification.
    const refundTransaction = first.row.payment_transaction_id + 1;
    expect((await requestOf(invoice.payment_id)).row).toMatchObject({ status: 'requested', refund_transaction_id: refundTransaction });
    const notification = { TransactionId: refundTransaction, PaymentTransactionId: first.row.payment_transaction_id, Amount: '249.00', Currency: 'RUB', AccountId: String(user.id) };
    expect((await notify(t.app, 'refund', notification)).code).toBe(0);
    expect((await notify(t.app, 'refund', notification)).code).toBe(0);
    expect(await api.get<Payment>(`/api/admin/payments/${String(invoice.payment_id)}`)).toMatchObject({ refunded: 249, refunding: 0, refundable: 2241, refunds: [{ status: 'done', applied: 249, refund_transaction_id: refundTransaction }] });
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: 900_000, media: 2_700 });

    // A second refund of the same payment is another request at CloudPayments.
    await api.change('POST', `/api/admin/payments/${String(invoice.payment_id)}/refund`, refundBody(100));
    const second = await requestOf(invoice.payment_id);
    await refundTransactionJob.run(t.ctx, second.payload, running);
    expect(refundCalls()[2]?.headers['x-request-id']).toBe(`refund-${String(first.row.payment_transaction_id)}-${String(second.row.id)}`);
  });

  it('a notification that arrives before CloudPayments’ answer is taken over by the request: one refund, done', async () => {
    cp.reset();
    const user = await newUser(t.db);
    const { invoice } = await subscribe(t.app, user, catalog.monthly);
    await api.change('POST', `/api/admin/payments/${String(invoice.payment_id)}/refund`, refundBody(2490));
    const { row, payload } = await requestOf(invoice.payment_id);
    const refundTransaction = nextTransactionId();
    cp.respond(() => ({ status: 200, body: { Success: true, Message: null, Model: { TransactionId: refundTransaction } }, delayMs: 1000 }));
    const job = refundTransactionJob.run(t.ctx, payload, running);
    await eventually(async () => refundCalls().length, (n) => n === 1);
    expect((await notify(t.app, 'refund', { TransactionId: refundTransaction, PaymentTransactionId: row.payment_transaction_id, Amount: '2490.00', Currency: 'RUB', AccountId: String(user.id) })).code).toBe(0);
    // Reported but not matched yet: both count, so nothing more can be asked meanwhile.
    expect(await api.get<Payment>(`/api/admin/payments/${String(invoice.payment_id)}`)).toMatchObject({ status: 'refunded', refunded: 2490, refundable: 0 });
    await job;
    const rows = await t.db.selectFrom('payment_refunds').selectAll().where('invoice_id', '=', invoice.payment_id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: row.id, status: 'done', applied_kopecks: 249_000, refund_transaction_id: refundTransaction, reason });
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: 0, media: 0 });
  });

  it('a refund CloudPayments refuses on the job’s last attempt no longer counts as on its way', async () => {
    cp.reset();
    const user = await newUser(t.db);
    const { invoice } = await subscribe(t.app, user, catalog.monthly);
    await api.change('POST', `/api/admin/payments/${String(invoice.payment_id)}/refund`, refundBody(490));
    const { payload } = await requestOf(invoice.payment_id);
    expect((await api.get<Payment>(`/api/admin/payments/${String(invoice.payment_id)}`)).refundable).toBe(2000);
    cp.respond(() => ({ status: 200, body: { Success: false, Message: 'Refund is not allowed' } }));
    await expect(refundTransactionJob.run(t.ctx, payload, running)).rejects.toThrow();
    expect((await api.get<Payment>(`/api/admin/payments/${String(invoice.payment_id)}`)).refunds[0]?.status).toBe('requested');
    await expect(refundTransactionJob.run(t.ctx, payload, { ...running, attempt: refundTransactionJob.options.retries + 1 })).rejects.toThrow();
    expect(await api.get<Payment>(`/api/admin/payments/${String(invoice.payment_id)}`)).toMatchObject({ refunded: 0, refunding: 0, refundable: 2490, refunds: [{ status: 'failed' }] });
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: 1_000_000, media: 3_000 });
  });
});
