import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { CP_CODES, TEST_CARDS, type NotificationKind } from '@app/contracts';
import { AppError } from '../../../lib/app-error.ts';
import { randomToken } from '../../../lib/crypto.ts';
import { DAY_MS, addMonths, rubles } from '../../billing/money.ts';
import { signNotification, type CloudPaymentsApi } from '../cloudpayments.ts';

/**
 * The payment sandbox plays CloudPayments' part when no keys are configured: it "charges"
 * test cards, keeps subscriptions on its side and sends signed notifications to the same
 * webhook code, so everything past the adapter boundary runs as in production.
 */

const DECLINE = {
  insufficientFunds: { reason: 'InsufficientFunds', code: '5051', text: 'Недостаточно средств на карте' },
  expired: { reason: 'ExpiredCard', code: '5054', text: 'Истёк срок действия карты' },
  unknownCard: { reason: 'RejectedByBank', code: '5005', text: 'Карта отклонена: в тестовом режиме принимаются только тестовые карты' },
  refused: { reason: 'RejectedByMerchant', code: '5057', text: 'Платёж отклонён магазином' },
} as const;

/** After this many failed renewal charges the subscription is Rejected (as CloudPayments does). */
const MAX_FAILED_RENEWALS = 3;

const pad = (n: number) => String(n).padStart(2, '0');
const cpDateTime = (d: Date) => `${String(d.getUTCFullYear())}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
const money = (kopecks: number) => rubles(kopecks).toFixed(2);

/** Posts one signed, form-encoded notification to our own webhook and answers its code. */
export async function sendSandboxNotification(app: FastifyInstance, kind: NotificationKind, fields: Record<string, string | number | undefined>): Promise<number> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) params.set(key, String(value));
  const body = params.toString();
  const res = await app.inject({
    method: 'POST',
    url: `/api/payment/cloudpayments/notify/${kind}`,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'content-hmac': signNotification(app.secrets.cloudpaymentsSecret, body),
      'x-content-hmac': signNotification(app.secrets.cloudpaymentsSecret, decodeURIComponent(body.replace(/\+/g, ' '))),
    },
    payload: body,
  });
  if (res.statusCode !== 200) throw new Error(`sandbox ${kind} notification answered ${String(res.statusCode)}`);
  return (res.json<{ code: number }>()).code;
}

async function nextTransactionId(app: FastifyInstance): Promise<number> {
  const row = await sql<{ id: number }>`select nextval('sandbox_transaction_seq')::bigint as id`.execute(app.db);
  const first = row.rows[0];
  if (!first) throw new Error('no transaction id');
  return first.id;
}

function expiryPassed(exp: string): boolean {
  const [mm, yy] = exp.split('/').map(Number);
  if (!mm || yy === undefined) return true;
  const now = new Date();
  const year = 2000 + yy;
  return year < now.getUTCFullYear() || (year === now.getUTCFullYear() && mm < now.getUTCMonth() + 1);
}

function cardType(number: string): string {
  if (number.startsWith('4')) return 'Visa';
  if (/^5[1-5]/.test(number)) return 'MasterCard';
  if (number.startsWith('2')) return 'MIR';
  return 'Unknown';
}

export interface SandboxChargeResult {
  success: boolean;
  reason: string | null;
  transaction_id: number;
}

/** The checkout of one invoice with a test card: Check, then Pay (and Recurrent) or Fail. */
export async function sandboxCharge(app: FastifyInstance, userId: number, input: { payment_id: number; card_number: string; exp: string; cvv: string }, ip: string): Promise<SandboxChargeResult> {
  const invoice = await app.db.selectFrom('invoices').selectAll().where('id', '=', input.payment_id).where('user_id', '=', userId).executeTakeFirst();
  if (!invoice) throw new AppError('NOT_FOUND', 'Счёт не найден');
  if (invoice.status === 'paid' || invoice.status === 'refunded') throw new AppError('BAD_REQUEST', 'Этот счёт уже оплачен');
  const user = await app.db.selectFrom('users').select(['id', 'email']).where('id', '=', userId).executeTakeFirstOrThrow();
  const sub = invoice.subscription_id ? await app.db.selectFrom('subscriptions').selectAll().where('id', '=', invoice.subscription_id).executeTakeFirst() : undefined;
  const transactionId = await nextTransactionId(app);
  const card = input.card_number;
  const common = {
    TransactionId: transactionId,
    Amount: money(invoice.amount_kopecks),
    Currency: 'RUB',
    PaymentAmount: money(invoice.amount_kopecks),
    PaymentCurrency: 'RUB',
    DateTime: cpDateTime(new Date()),
    CardFirstSix: card.slice(0, 6),
    CardLastFour: card.slice(-4),
    CardType: cardType(card),
    CardExpDate: input.exp,
    TestMode: 1,
    InvoiceId: String(invoice.id),
    AccountId: String(user.id),
    Email: user.email,
    IpAddress: ip,
    Description: invoice.description,
    Data: JSON.stringify({ sandbox: true }),
  };

  const fail = async (decline: { reason: string; code: string; text: string }): Promise<SandboxChargeResult> => {
    await sendSandboxNotification(app, 'fail', { ...common, Status: 'Declined', OperationType: 'Payment', Reason: decline.reason, ReasonCode: decline.code });
    return { success: false, reason: decline.text, transaction_id: transactionId };
  };

  const known = (Object.values(TEST_CARDS) as string[]).includes(card);
  if (!known) return fail(DECLINE.unknownCard);
  if (expiryPassed(input.exp)) return fail(DECLINE.expired);
  if (card === TEST_CARDS.declined) return fail(DECLINE.insufficientFunds);

  const checkCode = await sendSandboxNotification(app, 'check', { ...common, Status: 'Authorized', OperationType: 'Payment' });
  if (checkCode !== CP_CODES.ok) return { success: false, reason: `${DECLINE.refused.text} (код ${String(checkCode)})`, transaction_id: transactionId };

  let subscriptionId: string | undefined;
  if (sub) {
    const tariff = await app.db.selectFrom('tariffs').select(['trial_days']).where('id', '=', sub.tariff_id).executeTakeFirstOrThrow();
    const now = new Date();
    const startAt = sub.is_trial ? new Date(now.getTime() + tariff.trial_days * DAY_MS) : addMonths(now, 1);
    subscriptionId = `sc_sandbox_${crypto.randomBytes(8).toString('hex')}`;
    await app.db
      .insertInto('sandbox_subscriptions')
      .values({ id: subscriptionId, account_id: String(user.id), email: user.email, description: invoice.description, amount_kopecks: sub.amount_kopecks, card_number: card, status: 'Active', start_at: startAt, next_transaction_at: startAt })
      .execute();
  }
  const payCode = await sendSandboxNotification(app, 'pay', {
    ...common,
    Status: 'Completed',
    OperationType: 'Payment',
    SubscriptionId: subscriptionId,
    Token: randomToken('tk_sandbox_', 12),
    AuthCode: 'A1B2C3',
    TotalFee: '0.00',
    Rrn: String(transactionId).padStart(12, '0'),
  });
  if (payCode !== CP_CODES.ok) app.log.error({ payCode, invoice: invoice.id }, 'sandbox Pay notification was refused');
  if (subscriptionId) await sendRecurrent(app, subscriptionId);
  return { success: true, reason: null, transaction_id: transactionId };
}

async function sendRecurrent(app: FastifyInstance, id: string): Promise<void> {
  const s = await app.db.selectFrom('sandbox_subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  await sendSandboxNotification(app, 'recurrent', {
    Id: s.id,
    AccountId: s.account_id,
    Description: s.description,
    Email: s.email,
    Amount: money(s.amount_kopecks),
    Currency: 'RUB',
    RequireConfirmation: 'false',
    StartDate: cpDateTime(s.start_at),
    Interval: 'Month',
    Period: 1,
    Status: s.status,
    SuccessfulTransactionsNumber: s.successful_transactions,
    FailedTransactionsNumber: s.failed_transactions,
    NextTransactionDate: cpDateTime(s.next_transaction_at),
  });
}

/** Charges one sandbox subscription now: 4111… cards fail (insufficient funds), others succeed. */
async function chargeRenewal(app: FastifyInstance, id: string): Promise<'charged' | 'failed' | 'skipped'> {
  const s = await app.db.selectFrom('sandbox_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
  if (!s || (s.status !== 'Active' && s.status !== 'PastDue')) return 'skipped';
  const transactionId = await nextTransactionId(app);
  const fields = {
    TransactionId: transactionId,
    Amount: money(s.amount_kopecks),
    Currency: 'RUB',
    DateTime: cpDateTime(new Date()),
    CardFirstSix: s.card_number.slice(0, 6),
    CardLastFour: s.card_number.slice(-4),
    CardType: cardType(s.card_number),
    TestMode: 1,
    AccountId: s.account_id,
    SubscriptionId: s.id,
    Email: s.email,
    Description: s.description,
    OperationType: 'Payment',
  };
  const check = await sendSandboxNotification(app, 'check', { ...fields, Status: 'Authorized' });
  if (check !== CP_CODES.ok) {
    await app.db.updateTable('sandbox_subscriptions').set({ status: 'Cancelled' }).where('id', '=', s.id).execute();
    await sendRecurrent(app, s.id);
    return 'skipped';
  }
  if (s.card_number === TEST_CARDS.successThenDecline) {
    const failed = s.failed_transactions + 1;
    const status = failed >= MAX_FAILED_RENEWALS ? 'Rejected' : 'PastDue';
    await sendSandboxNotification(app, 'fail', { ...fields, Status: 'Declined', Reason: DECLINE.insufficientFunds.reason, ReasonCode: DECLINE.insufficientFunds.code });
    await app.db
      .updateTable('sandbox_subscriptions')
      .set({ failed_transactions: failed, status, next_transaction_at: new Date(Date.now() + DAY_MS) })
      .where('id', '=', s.id)
      .execute();
    await sendRecurrent(app, s.id);
    return 'failed';
  }
  await sendSandboxNotification(app, 'pay', { ...fields, Status: 'Completed', Token: randomToken('tk_sandbox_', 12), TotalFee: '0.00' });
  await app.db
    .updateTable('sandbox_subscriptions')
    .set({ successful_transactions: s.successful_transactions + 1, status: 'Active', next_transaction_at: addMonths(s.next_transaction_at.getTime() > Date.now() ? s.next_transaction_at : new Date(), 1) })
    .where('id', '=', s.id)
    .execute();
  if (s.status !== 'Active') await sendRecurrent(app, s.id);
  return 'charged';
}

/**
 * Charges sandbox subscriptions whose next charge date has come, or — when our
 * `subscriptionId` is given — that one subscription now (the admin's "renew now").
 */
export async function runSandboxRenewals(app: FastifyInstance, subscriptionId?: number): Promise<{ charged: number; failed: number }> {
  let ids: string[];
  if (subscriptionId !== undefined) {
    const sub = await app.db.selectFrom('subscriptions').select('cp_subscription_id').where('id', '=', subscriptionId).executeTakeFirst();
    if (!sub?.cp_subscription_id?.startsWith('sc_sandbox_')) throw new AppError('NOT_FOUND', 'Подписка песочницы не найдена');
    ids = [sub.cp_subscription_id];
  } else {
    const due = await app.db
      .selectFrom('sandbox_subscriptions')
      .select('id')
      .where('status', 'in', ['Active', 'PastDue'])
      .where('next_transaction_at', '<=', new Date())
      .limit(200)
      .execute();
    ids = due.map((d) => d.id);
  }
  const result = { charged: 0, failed: 0 };
  for (const id of ids) {
    const outcome = await chargeRenewal(app, id);
    if (outcome === 'charged') result.charged += 1;
    if (outcome === 'failed') result.failed += 1;
  }
  return result;
}

/** CloudPayments' API as the sandbox answers it. */
export class SandboxCloudPaymentsApi implements CloudPaymentsApi {
  constructor(private readonly app: FastifyInstance) {}

  async cancelSubscription(id: string): Promise<void> {
    const res = await this.app.db.updateTable('sandbox_subscriptions').set({ status: 'Cancelled' }).where('id', '=', id).where('status', 'in', ['Active', 'PastDue']).executeTakeFirst();
    // CloudPayments tells about the change in a Recurrent notification after the API call answered.
    if (Number(res.numUpdatedRows) > 0) {
      setTimeout(() => {
        sendRecurrent(this.app, id).catch((err: unknown) => this.app.log.error({ err }, 'sandbox Recurrent notification failed'));
      }, 50);
    }
  }

  /** Refunds a sandbox payment: CloudPayments answers the call, then sends a signed Refund notification. */
  async refund(transactionId: number, amountRub: number): Promise<void> {
    const refundId = await nextTransactionId(this.app);
    setTimeout(() => {
      sendSandboxNotification(this.app, 'refund', {
        TransactionId: refundId,
        PaymentTransactionId: transactionId,
        Amount: amountRub.toFixed(2),
        Currency: 'RUB',
        DateTime: cpDateTime(new Date()),
        OperationType: 'Refund',
        TestMode: 1,
      }).catch((err: unknown) => this.app.log.error({ err }, 'sandbox Refund notification failed'));
    }, 50);
  }
}
