import type { Receipt, WidgetOptions } from '@app/contracts';
import { AppError } from '../../lib/app-error.ts';
import { hmacSha256, randomToken, safeEqual } from '../../lib/crypto.ts';

/** `base64(HMAC-SHA256(message, secret))`, as CloudPayments signs notifications. */
export const signNotification = (secret: string, message: string) => hmacSha256(secret, Buffer.from(message, 'utf8'), 'base64');

function urlDecoded(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/**
 * Checks a notification's signature: `Content-HMAC` over the body as sent is required
 * (`X-Content-HMAC`, over the URL-decoded form, alone would let two different bodies that decode
 * alike share a signature); `X-Content-HMAC`, when sent too, must match as well. Timing-safe.
 */
export function verifyNotificationSignature(secret: string, rawBody: string, headers: Record<string, string | string[] | undefined>): boolean {
  if (!secret) return false;
  const header = (name: string) => {
    const v = headers[name];
    return typeof v === 'string' ? v.trim() : undefined;
  };
  const contentHmac = header('content-hmac');
  const xContentHmac = header('x-content-hmac');
  if (!contentHmac) return false;
  if (!safeEqual(contentHmac, signNotification(secret, rawBody))) return false;
  if (xContentHmac && !safeEqual(xContentHmac, signNotification(secret, urlDecoded(rawBody)))) return false;
  return true;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** A 54-ФЗ receipt of one service item paid in full, electronically. */
export function buildReceipt(opts: { label: string; amountRub: number; email: string; taxationSystem: number }): Receipt {
  const amount = round2(opts.amountRub);
  return {
    Items: [{ label: opts.label.slice(0, 128), price: amount, quantity: 1, amount, vat: null, method: 4, object: 4 }],
    taxationSystem: opts.taxationSystem,
    email: opts.email,
    amounts: { electronic: amount },
  };
}

/**
 * Options of `cp.CloudPayments().pay('charge', options)`: RUB with a receipt; for a plan,
 * monthly recurrent data (the trial charges `first_amount` now and the monthly amount from
 * the end of the trial).
 */
export function buildWidgetOptions(opts: {
  publicId: string;
  invoiceId: number;
  accountId: number;
  email: string;
  description: string;
  amountRub: number;
  taxationSystem: number;
  recurrent?: { amountRub: number; startDate: Date; label: string };
}): WidgetOptions {
  const receipt = buildReceipt({ label: opts.description, amountRub: opts.amountRub, email: opts.email, taxationSystem: opts.taxationSystem });
  return {
    publicId: opts.publicId,
    description: opts.description,
    amount: round2(opts.amountRub),
    currency: 'RUB',
    accountId: String(opts.accountId),
    invoiceId: String(opts.invoiceId),
    email: opts.email,
    skin: 'mini',
    data: {
      CloudPayments: {
        CustomerReceipt: receipt,
        ...(opts.recurrent
          ? {
              recurrent: {
                interval: 'Month' as const,
                period: 1,
                amount: round2(opts.recurrent.amountRub),
                startDate: opts.recurrent.startDate.toISOString(),
                customerReceipt: buildReceipt({ label: opts.recurrent.label, amountRub: opts.recurrent.amountRub, email: opts.email, taxationSystem: opts.taxationSystem }),
              },
            }
          : {}),
      },
    },
  };
}

/** The calls our server makes to CloudPayments' API. */
export interface CloudPaymentsApi {
  cancelSubscription(id: string): Promise<void>;
  /**
   * Refunds `amountRub` of a payment; CloudPayments confirms with a Refund notification. Calls with
   * the same `requestId` are one refund (a retried job repeats it); answers the refund's
   * transaction id when the reply names it.
   */
  refund(transactionId: number, amountRub: number, requestId: string): Promise<number | null>;
}

interface ApiReply {
  Success?: boolean;
  Message?: string | null;
  Model?: { TransactionId?: unknown } | null;
}

/** CloudPayments' server API: POST JSON, HTTP Basic `PublicId:ApiSecret`, idempotent by X-Request-ID. */
export class HttpCloudPaymentsApi implements CloudPaymentsApi {
  constructor(
    private readonly baseUrl: string,
    private readonly publicId: string,
    private readonly apiSecret: string,
    private readonly timeoutMs = 10_000,
  ) {}

  /** `requestId` makes retries of one operation idempotent at CloudPayments (an hour); random by default. */
  private async post(path: string, body: object, requestId = randomToken('', 16)): Promise<ApiReply> {
    for (let attempt = 0; attempt < 3; attempt++) {
      let res: Response;
      try {
        res = await fetch(`${this.baseUrl}${path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Basic ${Buffer.from(`${this.publicId}:${this.apiSecret}`).toString('base64')}`,
            'x-request-id': requestId,
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch {
        if (attempt < 2) continue;
        throw new AppError('PAYMENT_PROVIDER_ERROR');
      }
      // Above the concurrency limit: the same X-Request-ID makes the retry safe.
      if (res.status === 429 && attempt < 2) {
        await new Promise((r) => setTimeout(r, 300 * (attempt + 1)));
        continue;
      }
      if (!res.ok) throw new AppError('PAYMENT_PROVIDER_ERROR');
      return (await res.json().catch(() => ({}))) as ApiReply;
    }
    throw new AppError('PAYMENT_PROVIDER_ERROR');
  }

  async cancelSubscription(id: string): Promise<void> {
    const reply = await this.post('/subscriptions/cancel', { Id: id });
    if (reply.Success !== true) throw new AppError('PAYMENT_PROVIDER_ERROR');
  }

  async refund(transactionId: number, amountRub: number, requestId: string): Promise<number | null> {
    const reply = await this.post('/payments/refund', { TransactionId: transactionId, Amount: round2(amountRub) }, requestId);
    if (reply.Success !== true) throw new AppError('PAYMENT_PROVIDER_ERROR');
    const id = reply.Model?.TransactionId;
    return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : null;
  }
}
