import crypto from 'node:crypto';
import { z } from 'zod';
import { CP_CODES, TEST_CARDS, type NotificationKind } from '@app/contracts';
import type { AppContext } from '../../../context.ts';
import { defineJob } from '../../../jobs/job.ts';
import { AppError } from '../../../lib/app-error.ts';
import { randomToken } from '../../../lib/crypto.ts';
import { DAY_MS, addMonths, rubles } from '../../billing/money.ts';
import { findSubscription } from '../../billing/subscriptions.queries.ts';
import { findUserInvoice } from '../../billing/invoices.queries.ts';
import { findUserById } from '../../accounts/users.queries.ts';
import { signNotification, type CloudPaymentsApi } from '../cloudpayments.ts';
import { receiveNotification } from '../notifications.service.ts';
import { cancelSandboxSubscription, dueSandboxSubscriptions, findSandboxSubscription, insertSandboxSubscription, nextSandboxTransactionId, sandboxRefundId, updateSandboxSubscription } from './sandbox.queries.ts';

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

/**
 * Sends one signed, form-encoded notification to our own webhook code (signature check
 * included, as for CloudPayments' own) and answers its code.
 */
export async function sendSandboxNotification(ctx: AppContext, kind: NotificationKind, fields: Record<string, string | number | undefined>): Promise<number> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) params.set(key, String(value));
  const body = params.toString();
  return receiveNotification(ctx, kind, body, {
    'content-type': 'application/x-www-form-urlencoded',
    'content-hmac': signNotification(ctx.secrets.cloudpaymentsSecret, body),
    'x-content-hmac': signNotification(ctx.secrets.cloudpaymentsSecret, decodeURIComponent(body.replace(/\+/g, ' '))),
  });
}

/** A notification the sandbox sends after the call that caused it has answered, as CloudPayments does. */
export const sandboxNotifyJob = defineJob({
  name: 'sandbox.notify',
  payload: z.object({ kind: z.enum(['check', 'pay', 'fail', 'confirm', 'refund', 'recurrent', 'cancel']), fields: z.record(z.string(), z.union([z.string(), z.number()])) }),
  // One transaction: a job still active after a minute lost its worker, and is sent again (applied once by its key).
  options: { retries: 5, retryDelaySeconds: 1, expireInSeconds: 60 },
  enabled: (ctx) => ctx.config.cloudpayments.sandbox,
  run: async (ctx, { kind, fields }) => {
    const code = await sendSandboxNotification(ctx, kind, fields);
    // CloudPayments resends until it gets code 0: so does the sandbox (the job is retried).
    if (code !== CP_CODES.ok) throw new Error(`sandbox ${kind} notification answered ${String(code)}`);
  },
});

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
export async function sandboxCharge(ctx: AppContext, userId: number, input: { payment_id: number; card_number: string; exp: string; cvv: string }, ip: string): Promise<SandboxChargeResult> {
  const invoice = await findUserInvoice(ctx.db, userId, input.payment_id);
  if (!invoice) throw new AppError('NOT_FOUND', 'Счёт не найден');
  if (invoice.status === 'paid' || invoice.status === 'refunded') throw new AppError('BAD_REQUEST', 'Этот счёт уже оплачен');
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new AppError('UNAUTHENTICATED');
  const sub = invoice.subscription_id ? await findSubscription(ctx.db, invoice.subscription_id) : undefined;
  const transactionId = await nextSandboxTransactionId(ctx.db);
  const card = input.card_number;
  const common = {
    TransactionId: transactionId,
    Amount: money(invoice.amount_kopecks),
    Currency: invoice.currency,
    PaymentAmount: money(invoice.amount_kopecks),
    PaymentCurrency: invoice.currency,
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
    await sendSandboxNotification(ctx, 'fail', { ...common, Status: 'Declined', OperationType: 'Payment', Reason: decline.reason, ReasonCode: decline.code });
    return { success: false, reason: decline.text, transaction_id: transactionId };
  };

  const known = (Object.values(TEST_CARDS) as string[]).includes(card);
  if (!known) return fail(DECLINE.unknownCard);
  if (expiryPassed(input.exp)) return fail(DECLINE.expired);
  if (card === TEST_CARDS.declined) return fail(DECLINE.insufficientFunds);

  const checkCode = await sendSandboxNotification(ctx, 'check', { ...common, Status: 'Authorized', OperationType: 'Payment' });
  if (checkCode !== CP_CODES.ok) return { success: false, reason: `${DECLINE.refused.text} (код ${String(checkCode)})`, transaction_id: transactionId };

  let subscriptionId: string | undefined;
  if (sub) {
    const now = new Date();
    // As the checkout's recurrent data: the first monthly charge after the trial the invoice keeps.
    const startAt = sub.is_trial ? new Date(now.getTime() + invoice.trial_days * DAY_MS) : addMonths(now, 1);
    subscriptionId = `sc_sandbox_${crypto.randomBytes(8).toString('hex')}`;
    await insertSandboxSubscription(ctx.db, { id: subscriptionId, account_id: String(user.id), email: user.email, description: invoice.description, amount_kopecks: sub.amount_kopecks, card_number: card, status: 'Active', start_at: startAt, next_transaction_at: startAt });
  }
  const payCode = await sendSandboxNotification(ctx, 'pay', {
    ...common,
    Status: 'Completed',
    OperationType: 'Payment',
    SubscriptionId: subscriptionId,
    Token: randomToken('tk_sandbox_', 12),
    AuthCode: 'A1B2C3',
    TotalFee: '0.00',
    Rrn: String(transactionId).padStart(12, '0'),
  });
  if (payCode !== CP_CODES.ok) ctx.log.error({ payCode, invoice: invoice.id }, 'sandbox Pay notification was refused');
  if (subscriptionId) await sendRecurrent(ctx, subscriptionId);
  return { success: true, reason: null, transaction_id: transactionId };
}

/** The Recurrent notification of a sandbox subscription as it stands. */
async function recurrentFields(ctx: AppContext, id: string): Promise<Record<string, string | number>> {
  const s = await findSandboxSubscription(ctx.db, id);
  if (!s) throw new Error(`sandbox subscription ${id} does not exist`);
  return {
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
  };
}

async function sendRecurrent(ctx: AppContext, id: string): Promise<void> {
  await sendSandboxNotification(ctx, 'recurrent', await recurrentFields(ctx, id));
}

/** Charges one sandbox subscription now: 4111… cards fail (insufficient funds), others succeed. */
async function chargeRenewal(ctx: AppContext, id: string): Promise<'charged' | 'failed' | 'skipped'> {
  const s = await findSandboxSubscription(ctx.db, id);
  if (!s || (s.status !== 'Active' && s.status !== 'PastDue')) return 'skipped';
  const transactionId = await nextSandboxTransactionId(ctx.db);
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
  const check = await sendSandboxNotification(ctx, 'check', { ...fields, Status: 'Authorized' });
  if (check !== CP_CODES.ok) {
    await updateSandboxSubscription(ctx.db, s.id, { status: 'Cancelled' });
    await sendRecurrent(ctx, s.id);
    return 'skipped';
  }
  if (s.card_number === TEST_CARDS.successThenDecline) {
    const failed = s.failed_transactions + 1;
    const status = failed >= MAX_FAILED_RENEWALS ? 'Rejected' : 'PastDue';
    await sendSandboxNotification(ctx, 'fail', { ...fields, Status: 'Declined', Reason: DECLINE.insufficientFunds.reason, ReasonCode: DECLINE.insufficientFunds.code });
    await updateSandboxSubscription(ctx.db, s.id, { failed_transactions: failed, status, next_transaction_at: new Date(Date.now() + DAY_MS) });
    await sendRecurrent(ctx, s.id);
    return 'failed';
  }
  await sendSandboxNotification(ctx, 'pay', { ...fields, Status: 'Completed', Token: randomToken('tk_sandbox_', 12), TotalFee: '0.00' });
  await updateSandboxSubscription(ctx.db, s.id, { successful_transactions: s.successful_transactions + 1, status: 'Active', next_transaction_at: addMonths(s.next_transaction_at.getTime() > Date.now() ? s.next_transaction_at : new Date(), 1) });
  if (s.status !== 'Active') await sendRecurrent(ctx, s.id);
  return 'charged';
}

/**
 * Charges sandbox subscriptions whose next charge date has come, or — when our
 * `subscriptionId` is given — that one subscription now (the admin's "renew now").
 */
export async function runSandboxRenewals(ctx: AppContext, subscriptionId?: number): Promise<{ charged: number; failed: number }> {
  let ids: string[];
  if (subscriptionId !== undefined) {
    const sub = await findSubscription(ctx.db, subscriptionId);
    if (!sub?.cp_subscription_id?.startsWith('sc_sandbox_')) throw new AppError('NOT_FOUND', 'Подписка песочницы не найдена');
    ids = [sub.cp_subscription_id];
  } else {
    ids = await dueSandboxSubscriptions(ctx.db, 200);
  }
  const result = { charged: 0, failed: 0 };
  for (const id of ids) {
    const outcome = await chargeRenewal(ctx, id);
    if (outcome === 'charged') result.charged += 1;
    if (outcome === 'failed') result.failed += 1;
  }
  return result;
}

/** Charges due sandbox renewals every minute, as CloudPayments would. */
export const sandboxRenewalsJob = defineJob({
  name: 'sandbox.renewals',
  payload: z.object({}),
  cron: '* * * * *',
  options: { retries: 0, policy: 'singleton' },
  enabled: (ctx) => ctx.config.cloudpayments.sandbox,
  run: async (ctx) => {
    // An admin switched the sandbox off (Настройки): nothing is charged until it is on again.
    if (!ctx.settings.current.sandbox_payments) return;
    await runSandboxRenewals(ctx);
  },
});

/** CloudPayments' API as the sandbox answers it; like CloudPayments, it reports changes in notifications after the call. */
export class SandboxCloudPaymentsApi implements CloudPaymentsApi {
  /** Takes the context lazily: the context holds this adapter. */
  constructor(private readonly ctx: () => AppContext) {}

  async cancelSubscription(id: string): Promise<void> {
    const ctx = this.ctx();
    if (await cancelSandboxSubscription(ctx.db, id)) {
      await ctx.jobs.send(sandboxNotifyJob, { kind: 'recurrent', fields: await recurrentFields(ctx, id) });
    }
  }

  async refund(transactionId: number, amountRub: number, requestId: string): Promise<number> {
    const ctx = this.ctx();
    // One refund per request id, however often the refund job retries (as CloudPayments' X-Request-ID): the same refund id, so its notification applies once.
    const refundId = await sandboxRefundId(ctx.db, requestId);
    await ctx.jobs.send(sandboxNotifyJob, {
      kind: 'refund',
      fields: { TransactionId: refundId, PaymentTransactionId: transactionId, Amount: amountRub.toFixed(2), Currency: 'RUB', DateTime: cpDateTime(new Date()), OperationType: 'Refund', TestMode: 1 },
    });
    return refundId;
  }
}
