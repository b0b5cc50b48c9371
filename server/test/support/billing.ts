import type { FastifyInstance } from 'fastify';
import { insertSeedTariffs } from '../../src/db/seed.ts';
import { getRawBalances, ledgerSums } from '../../src/features/wallet/wallet.queries.ts';
import type { Db } from '../../src/db/database.ts';
import { signNotification } from '../../src/features/payments/cloudpayments.ts';
import type { TariffRow } from '../../src/features/billing/billing.table.ts';
import { call } from './test-app.ts';
import type { TestUser } from './builders.ts';

export interface Catalog {
  /** Monthly with trial (type 1). */
  trial: TariffRow;
  /** Another monthly plan with trial, the popular one. */
  pro: TariffRow;
  /** Monthly without trial (type 2). */
  monthly: TariffRow;
  /** One-off packages (type 3). */
  wordsPack: TariffRow;
  mediaPack: TariffRow;
}

/** Inserts the seed's plans and packages. */
export async function seedCatalog(db: Db): Promise<Catalog> {
  const [trial, pro, monthly, wordsPack, mediaPack] = await insertSeedTariffs(db);
  if (!trial || !pro || !monthly || !wordsPack || !mediaPack) throw new Error('catalog not seeded');
  return { trial, pro, monthly, wordsPack, mediaPack };
}

let transactionCounter = 5_000_000;
/** A fresh CloudPayments-like transaction id. */
export const nextTransactionId = () => ++transactionCounter;

/**
 * A notification as CloudPayments sends it: form-encoded (or JSON) and signed with `Content-HMAC`
 * and `X-Content-HMAC` by `secret` (unless `sign: false`); the body and the headers to post.
 */
export function signedNotification(
  secret: string,
  fields: Record<string, string | number | undefined>,
  opts: { encoding?: 'form' | 'json'; headers?: Record<string, string>; sign?: boolean } = {},
): { body: string; headers: Record<string, string> } {
  const clean = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));
  const body = opts.encoding === 'json' ? JSON.stringify(clean) : new URLSearchParams(clean).toString();
  const headers: Record<string, string> = {
    'content-type': opts.encoding === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
    ...(opts.sign === false
      ? {}
      : {
          'content-hmac': signNotification(secret, body),
          'x-content-hmac': signNotification(secret, opts.encoding === 'json' ? body : decodeURIComponent(body.replace(/\+/g, ' '))),
        }),
    ...opts.headers,
  };
  return { body, headers };
}

/**
 * Posts a notification the way CloudPayments does (see `signedNotification`), signed by `secret`
 * (the app's secret unless a test forges one).
 */
export async function notify(
  app: FastifyInstance,
  kind: string,
  fields: Record<string, string | number | undefined>,
  opts: { secret?: string; encoding?: 'form' | 'json'; headers?: Record<string, string>; sign?: boolean } = {},
) {
  const { body, headers } = signedNotification(opts.secret ?? app.ctx.secrets.cloudpaymentsSecret, fields, opts);
  const res = await app.inject({ method: 'POST', url: `/api/payment/cloudpayments/notify/${kind}`, headers, payload: body });
  let code: number | undefined;
  try {
    code = res.json<{ code?: number }>().code;
  } catch {
    code = undefined;
  }
  return { status: res.statusCode, code, body: res.body };
}

/** Starts a payment through the API (`subscribe` for plans, `pay` for packages) and answers the invoice. */
export async function startPayment(app: FastifyInstance, user: TestUser, tariff: TariffRow) {
  const url = tariff.subscriptions_type === 3 ? `/api/payment/cloudpayments/pay?id=${String(tariff.id)}` : `/api/payment/cloudpayments/subscribe?id=${String(tariff.id)}`;
  const res = await call(app, { url, token: user.token });
  if (res.statusCode !== 200) throw new Error(`payment start failed: ${res.body}`);
  return res.data.json as { payment_id: number; email: string; amount: number; options: { invoiceId: string; accountId: string; amount: number } };
}

/** Pay fields for an invoice, as CloudPayments sends them. */
export function payFields(invoice: { payment_id: number; amount: number }, user: TestUser, extra: Record<string, string | number | undefined> = {}) {
  return {
    TransactionId: nextTransactionId(),
    Amount: invoice.amount.toFixed(2),
    Currency: 'RUB',
    DateTime: '2026-11-22 10:00:00',
    CardFirstSix: '424242',
    CardLastFour: '4242',
    CardType: 'Visa',
    TestMode: 1,
    Status: 'Completed',
    OperationType: 'Payment',
    InvoiceId: String(invoice.payment_id),
    AccountId: String(user.id),
    Email: user.email,
    Token: 'tk_test_token',
    ...extra,
  };
}

/** Subscribes `user` to `tariff` through the API and a signed Pay notification; answers the CloudPayments subscription id. */
export async function subscribe(app: FastifyInstance, user: TestUser, tariff: TariffRow, cpSubscriptionId = `sc_test_${String(nextTransactionId())}`) {
  const invoice = await startPayment(app, user, tariff);
  const res = await notify(app, 'pay', payFields(invoice, user, { SubscriptionId: cpSubscriptionId }));
  if (res.code !== 0) throw new Error(`pay refused with ${String(res.code)}`);
  return { invoice, cpSubscriptionId };
}

/** The balances and the ledger sums of a user: they must always be equal. */
export async function walletState(db: Db, userId: number) {
  const [balance, sums] = await Promise.all([getRawBalances(db, userId), ledgerSums(db, userId)]);
  return { balance, sums };
}
