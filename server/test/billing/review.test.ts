import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credit } from '../../src/features/wallet/wallet.queries.ts';
import { call, createTestApp, newUser, nextTransactionId, notify, payFields, seedCatalog, startPayment, subscribe, walletState, type Catalog, type TestApp } from '../support/index.ts';

/** Races, retries and out-of-order notifications found in review of the money and token code. */

let t: TestApp;
let catalog: Catalog;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
  catalog = await seedCatalog(t.db);
});
afterAll(() => t.close());

const subscriptionsOf = (userId: number) => t.db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).orderBy('id').execute();
const invoiceOf = (id: number) => t.db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const cancelJobs = async () => {
  const rows = await t.db.selectFrom('pgboss.job' as never).select(['data' as never]).where('name' as never, '=', 'payments.cancel-cp-subscription' as never).execute();
  return rows.map((r) => (r as { data: { id: string } }).data.id);
};
const cancel = (token: string) => call(t.app, { method: 'DELETE', url: '/api/new/subscribe/', token });

/** Waits until some connection of this test database waits for a row lock. */
async function waitForLockWaiter(): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const res = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(t.db);
    if ((res.rows[0]?.n ?? 0) > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('nobody waited for a lock');
}

describe('retries', () => {
  it('a renewal answered 13 while its subscription was unknown is applied when CloudPayments retries it', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.monthly);
    const renewal = { TransactionId: nextTransactionId(), Amount: '2490.00', Currency: 'RUB', AccountId: String(user.id), SubscriptionId: 'sc_retry_later' };
    // The first Pay is still being retried by CloudPayments (our server failed it earlier).
    expect((await notify(t.app, 'pay', renewal)).code).toBe(13);
    expect((await notify(t.app, 'pay', payFields(invoice, user, { SubscriptionId: 'sc_retry_later' }))).code).toBe(0);
    // CloudPayments retries the renewal: it must now be applied, not answered from the stored refusal.
    expect((await notify(t.app, 'pay', renewal)).code).toBe(0);
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual({ words: 2_000_000, media: 6_000 });
    expect(wallet.sums).toEqual(wallet.balance);
    // And once applied, further retries change nothing.
    expect((await notify(t.app, 'pay', renewal)).code).toBe(0);
    expect((await walletState(t.db, user.id)).balance.words).toBe(2_000_000);
  });

  it('a refund that arrives before its payment is retried until the payment is known, then takes the tokens back', async () => {
    const user = await newUser(t.db);
    await subscribe(t.app, user, catalog.monthly);
    const invoice = await startPayment(t.app, user, catalog.wordsPack);
    const pay = payFields(invoice, user);
    const refund = { TransactionId: nextTransactionId(), PaymentTransactionId: pay.TransactionId, Amount: '290.00', Currency: 'RUB', AccountId: String(user.id) };
    expect((await notify(t.app, 'refund', refund)).code).not.toBe(0);
    expect((await notify(t.app, 'pay', pay)).code).toBe(0);
    expect((await notify(t.app, 'refund', refund)).code).toBe(0);
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance.words).toBe(1_000_000);
    expect(wallet.sums).toEqual(wallet.balance);
    expect((await invoiceOf(invoice.payment_id)).status).toBe('refunded');
  });
});

describe('refund arithmetic', () => {
  it('partial refunds adding up to the whole payment refund the invoice and end the plan', async () => {
    const user = await newUser(t.db);
    const { invoice } = await subscribe(t.app, user, catalog.monthly);
    const paid = await invoiceOf(invoice.payment_id);
    for (const amount of ['1245.00', '1245.00']) {
      expect((await notify(t.app, 'refund', { TransactionId: nextTransactionId(), PaymentTransactionId: paid.transaction_id ?? 0, Amount: amount, Currency: 'RUB', AccountId: String(user.id) })).code).toBe(0);
    }
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: 0, media: 0 });
    expect((await invoiceOf(invoice.payment_id)).status).toBe('refunded');
    const [sub] = await subscriptionsOf(user.id);
    expect(sub?.status).toBe('expired');
  });

  it('three partial refunds of a third take back exactly what was granted', async () => {
    const user = await newUser(t.db);
    await subscribe(t.app, user, catalog.monthly);
    const invoice = await startPayment(t.app, user, catalog.wordsPack);
    const pay = payFields(invoice, user);
    await notify(t.app, 'pay', pay);
    for (const amount of ['96.67', '96.67', '96.66']) {
      expect((await notify(t.app, 'refund', { TransactionId: nextTransactionId(), PaymentTransactionId: pay.TransactionId, Amount: amount, Currency: 'RUB', AccountId: String(user.id) })).code).toBe(0);
    }
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance.words).toBe(1_000_000);
    expect(wallet.sums).toEqual(wallet.balance);
    expect((await invoiceOf(invoice.payment_id)).status).toBe('refunded');
  });
});

describe('trial', () => {
  it('Check refuses a trial invoice once the user has paid for a plan (two trial invoices opened up front)', async () => {
    const user = await newUser(t.db);
    const first = await startPayment(t.app, user, catalog.trial);
    const second = await startPayment(t.app, user, catalog.pro);
    expect(first.amount).toBe(99);
    expect(second.amount).toBe(149);
    expect((await notify(t.app, 'check', payFields(first, user))).code).toBe(0);
    expect((await notify(t.app, 'pay', payFields(first, user, { SubscriptionId: 'sc_trial_once_1' }))).code).toBe(0);
    // The second trial invoice is still pending: the card must not be charged for a second trial.
    expect((await notify(t.app, 'check', payFields(second, user))).code).toBe(13);
  });

  it('Check refuses a trial invoice opened before a full-price plan was paid', async () => {
    const user = await newUser(t.db);
    const trial = await startPayment(t.app, user, catalog.trial);
    await subscribe(t.app, user, catalog.monthly);
    expect((await notify(t.app, 'check', payFields(trial, user))).code).toBe(13);
  });
});

describe('races', () => {
  it('a payment start does not deadlock with a notification that holds the plan and writes the ledger', async () => {
    const user = await newUser(t.db);
    await subscribe(t.app, user, catalog.trial);
    let start: ReturnType<typeof call> | undefined;
    // Plays a renewal handler in flight: it has locked the plan and now writes the ledger (whose user_id is a foreign key).
    await t.db.transaction().execute(async (tx) => {
      await tx.selectFrom('subscriptions').select('id').where('user_id', '=', user.id).where('status', '=', 'active').forUpdate().execute();
      start = call(t.app, { url: `/api/payment/cloudpayments/subscribe?id=${String(catalog.monthly.id)}`, token: user.token });
      await waitForLockWaiter();
      await credit(tx, { userId: user.id, kind: 'words', reason: 'subscription_grant', idempotencyKey: `race-${String(user.id)}` }, 1);
    });
    expect((await start)?.statusCode).toBe(200);
  });

  it('a full refund does not deadlock with a renewal of the same plan (plan before wallet in both)', async () => {
    const user = await newUser(t.db);
    const { invoice } = await subscribe(t.app, user, catalog.monthly);
    const paid = await invoiceOf(invoice.payment_id);
    let refund: ReturnType<typeof notify> | undefined;
    // Plays a renewal Pay in flight: it has locked the plan and is about to credit the wallet.
    await t.db.transaction().execute(async (tx) => {
      await tx.selectFrom('subscriptions').select('id').where('user_id', '=', user.id).forUpdate().execute();
      refund = notify(t.app, 'refund', { TransactionId: nextTransactionId(), PaymentTransactionId: paid.transaction_id ?? 0, Amount: '2490.00', Currency: 'RUB', AccountId: String(user.id) });
      await waitForLockWaiter();
      await credit(tx, { userId: user.id, kind: 'words', reason: 'subscription_grant', idempotencyKey: `renewal-race-${String(user.id)}` }, 1_000_000);
    });
    expect(await refund).toMatchObject({ status: 200, code: 0 });
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance.words).toBe(1_000_000);
    expect(wallet.sums).toEqual(wallet.balance);
  });

  it('a new plan paid while a renewal of the old one is in flight does not deadlock on the saved card', async () => {
    const user = await newUser(t.db);
    await subscribe(t.app, user, catalog.trial);
    const invoice = await startPayment(t.app, user, catalog.monthly);
    let pay: ReturnType<typeof notify> | undefined;
    // Plays a renewal Pay of the old plan in flight: it has locked the plan and now saves the card.
    await t.db.transaction().execute(async (tx) => {
      await tx.selectFrom('subscriptions').select('id').where('user_id', '=', user.id).where('status', '=', 'active').forUpdate().execute();
      pay = notify(t.app, 'pay', payFields(invoice, user, { SubscriptionId: `sc_card_race_${String(user.id)}` }));
      await waitForLockWaiter();
      await tx.updateTable('user_cards').set({ token: 'tk_renewal', updated_at: new Date() }).where('user_id', '=', user.id).execute();
    });
    expect(await pay).toMatchObject({ status: 200, code: 0 });
    expect((await subscriptionsOf(user.id)).map((s) => s.status)).toEqual(['replaced', 'active']);
  });

  it('two plans paid at the same moment: both Pays are accepted and one plan stays current', async () => {
    // Without a card token (SBP and wallet payments send none), so nothing else serialises the two.
    for (let i = 0; i < 5; i++) {
      const user = await newUser(t.db);
      const a = await startPayment(t.app, user, catalog.trial);
      const b = await startPayment(t.app, user, catalog.monthly);
      const results = await Promise.all([notify(t.app, 'pay', payFields(a, user, { SubscriptionId: `sc_race_a_${String(user.id)}`, Token: undefined })), notify(t.app, 'pay', payFields(b, user, { SubscriptionId: `sc_race_b_${String(user.id)}`, Token: undefined }))]);
      expect(results.map((r) => [r.status, r.code])).toEqual([
        [200, 0],
        [200, 0],
      ]);
      const current = (await subscriptionsOf(user.id)).filter((s) => ['active', 'past_due', 'cancelled'].includes(s.status));
      expect(current).toHaveLength(1);
    }
  });

  it('a Recurrent that arrives after the user cancelled cancels that CloudPayments subscription', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.monthly);
    // The first Pay did not name the CloudPayments subscription; its Recurrent is still on the way.
    expect((await notify(t.app, 'pay', payFields(invoice, user))).code).toBe(0);
    expect((await cancel(user.token)).statusCode).toBe(200);
    expect((await notify(t.app, 'recurrent', { Id: 'sc_after_cancel', AccountId: String(user.id), Status: 'Active', Amount: '2490.00' })).code).toBe(0);
    expect(await cancelJobs()).toContain('sc_after_cancel');
    const [sub] = await subscriptionsOf(user.id);
    expect(sub).toMatchObject({ status: 'cancelled', cp_subscription_id: 'sc_after_cancel' });
  });

  it('a cancel racing the Recurrent that links the plan still cancels at CloudPayments', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.monthly);
    expect((await notify(t.app, 'pay', payFields(invoice, user))).code).toBe(0);
    let res: ReturnType<typeof cancel> | undefined;
    // The cancel has read the plan (no CloudPayments id yet); the Recurrent links it before the cancel writes.
    await t.db.transaction().execute(async (tx) => {
      await tx.selectFrom('subscriptions').select('id').where('user_id', '=', user.id).forUpdate().execute();
      res = cancel(user.token);
      await waitForLockWaiter();
      await tx.updateTable('subscriptions').set({ cp_subscription_id: 'sc_linked_meanwhile' }).where('user_id', '=', user.id).execute();
    });
    expect((await res)?.statusCode).toBe(200);
    expect(await cancelJobs()).toContain('sc_linked_meanwhile');
  });
});

describe('Check of renewals', () => {
  it('a renewal charge that carries the first invoice id is checked as a renewal, as Pay treats it', async () => {
    const user = await newUser(t.db);
    const { invoice, cpSubscriptionId } = await subscribe(t.app, user, catalog.monthly);
    const renewal = { TransactionId: nextTransactionId(), Amount: '2490.00', Currency: 'RUB', AccountId: String(user.id), SubscriptionId: cpSubscriptionId, InvoiceId: String(invoice.payment_id) };
    expect((await notify(t.app, 'check', renewal)).code).toBe(0);
    expect((await notify(t.app, 'pay', renewal)).code).toBe(0);
    expect((await walletState(t.db, user.id)).balance.words).toBe(2_000_000);
    // A second payment of the paid invoice with a new CloudPayments subscription (another tab) is still refused.
    expect((await notify(t.app, 'check', { ...renewal, TransactionId: nextTransactionId(), SubscriptionId: 'sc_second_tab' })).code).not.toBe(0);
  });
});

describe('out of order', () => {
  it('a Recurrent linked to the wrong unpaid invoice does not turn the Pay of the paid one into a 500 loop', async () => {
    const user = await newUser(t.db);
    // Two tabs: the plan's payment was started twice; the older invoice is the one paid.
    const older = await startPayment(t.app, user, catalog.monthly);
    await startPayment(t.app, user, catalog.monthly);
    // The Recurrent comes first and is remembered on the newest unpaid plan with that amount.
    expect((await notify(t.app, 'recurrent', { Id: 'sc_two_tabs', AccountId: String(user.id), Status: 'Active', Amount: '2490.00' })).code).toBe(0);
    const pay = await notify(t.app, 'pay', payFields(older, user, { SubscriptionId: 'sc_two_tabs' }));
    expect([pay.status, pay.code]).toEqual([200, 0]);
    const subs = await subscriptionsOf(user.id);
    expect(subs.map((s) => [s.status, s.cp_subscription_id])).toEqual([
      ['active', 'sc_two_tabs'],
      ['pending', null],
    ]);
    expect((await walletState(t.db, user.id)).balance.words).toBe(1_000_000);
  });

  it('a stale Active Recurrent after Cancelled does not revive auto-renewal', async () => {
    const user = await newUser(t.db);
    const invoice = await startPayment(t.app, user, catalog.monthly);
    const recurrent = { Id: 'sc_stale_active', AccountId: String(user.id), Amount: '2490.00', Currency: 'RUB', SuccessfulTransactionsNumber: 0, FailedTransactionsNumber: 0 };
    expect((await notify(t.app, 'recurrent', { ...recurrent, Status: 'Cancelled' })).code).toBe(0);
    // The Active one was sent first but delivered late (a retry).
    expect((await notify(t.app, 'recurrent', { ...recurrent, Status: 'Active' })).code).toBe(0);
    expect((await notify(t.app, 'pay', payFields(invoice, user, { SubscriptionId: 'sc_stale_active' }))).code).toBe(0);
    const [sub] = await subscriptionsOf(user.id);
    expect(sub?.status).toBe('cancelled');
  });
});
