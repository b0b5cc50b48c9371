import { CP_CODES, type NotificationKind } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { verifyNotificationSignature } from './cloudpayments.ts';
import { claimNotification, handledResult, storeResult } from './notifications.queries.ts';
import { PaymentNotificationSchema, RecurrentNotificationSchema, type Code } from './notification.schema.ts';
import { check } from './check-notification.ts';
import { applyPay } from './pay-notification.ts';
import { applyFail } from './fail-notification.ts';
import { applyRefund } from './refund-notification.ts';
import { applyRecurrent } from './recurrent-notification.ts';

/*
 * CloudPayments' notifications: the signature, the body, the idempotency of each delivery, and
 * which kind's handler applies it (one module per kind: check, pay with its renewals and
 * duplicates, fail, refund and cancel, recurrent).
 */

/** Reads a notification body as sent (form-encoded or JSON). */
function parseBody(contentType: string | undefined, raw: string): Record<string, unknown> | undefined {
  if (contentType?.includes('application/json')) {
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return undefined;
    }
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  }
  const fields: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) if (!(key in fields)) fields[key] = value;
  return fields;
}

/**
 * A notification as it arrives: its signature over the body as sent is checked first
 * (INVALID_SIGNATURE otherwise), then it is parsed and handled. The webhook route and the
 * payment sandbox both come through here, so the sandbox runs the same verification.
 */
export async function receiveNotification(ctx: AppContext, kind: NotificationKind, raw: string, headers: Record<string, string | string[] | undefined>): Promise<Code> {
  if (!verifyNotificationSignature(ctx.secrets.cloudpaymentsSecret, raw, headers)) {
    ctx.metrics.paymentNotification(kind, 'invalid_signature');
    throw new AppError('INVALID_SIGNATURE');
  }
  const fields = parseBody(typeof headers['content-type'] === 'string' ? headers['content-type'] : undefined, raw);
  if (!fields) ctx.metrics.paymentNotification(kind, 'unreadable');
  const code = fields ? await handleNotification(ctx, kind, fields) : CP_CODES.cannotAccept;
  // Other kinds are counted by `once`, which knows a repeat from a first delivery.
  if (kind === 'check') ctx.metrics.paymentNotification(kind, code === CP_CODES.ok ? 'accepted' : 'refused');
  return code;
}

/**
 * Handles one verified notification. Every change happens in one transaction together with
 * the row that marks the notification as handled (unique idempotency key), so a notification
 * delivered any number of times, concurrently or out of order, changes money and tokens once.
 */
export async function handleNotification(ctx: AppContext, kind: NotificationKind, fields: Record<string, unknown>): Promise<Code> {
  if (kind === 'recurrent') {
    const parsed = RecurrentNotificationSchema.safeParse(fields);
    if (!parsed.success) return CP_CODES.cannotAccept;
    const n = parsed.data;
    return once(ctx, 'recurrent', `recurrent:${n.Id}:${n.Status}:${String(n.SuccessfulTransactionsNumber)}:${String(n.FailedTransactionsNumber)}`, null, fields, (tx) => applyRecurrent(ctx, tx, n));
  }
  const parsed = PaymentNotificationSchema.safeParse(fields);
  if (!parsed.success) return CP_CODES.cannotAccept;
  const n = parsed.data;
  switch (kind) {
    case 'check':
      return check(ctx, n);
    case 'pay':
      return once(ctx, kind, `pay:${String(n.TransactionId)}`, n.TransactionId, fields, (tx) => applyPay(ctx, tx, n));
    case 'fail':
      return once(ctx, kind, `fail:${String(n.TransactionId)}`, n.TransactionId, fields, (tx) => applyFail(tx, n));
    case 'refund':
      return once(ctx, kind, `refund:${String(n.TransactionId)}`, n.TransactionId, fields, (tx) => applyRefund(ctx, tx, n.PaymentTransactionId ?? 0, n, `refund:${String(n.TransactionId)}`));
    case 'cancel':
      return once(ctx, kind, `cancel:${String(n.TransactionId)}`, n.TransactionId, fields, (tx) => applyRefund(ctx, tx, n.PaymentTransactionId ?? n.TransactionId, n, `cancel:${String(n.TransactionId)}`));
    case 'confirm':
      return once(ctx, kind, `confirm:${String(n.TransactionId)}`, n.TransactionId, fields, async () => CP_CODES.ok);
  }
}

/** Rolls back a refused notification's transaction, idempotency row included. */
class Refused extends Error {
  constructor(readonly code: Code) {
    super(`payment notification refused with ${String(code)}`);
  }
}

/**
 * A refusal is not recorded: CloudPayments resends a notification until it gets code 0, and a
 * retry must be judged again (the subscription or payment it needs may have arrived meanwhile),
 * not answered from a stored refusal. Whatever a refused handler changed is rolled back.
 */
async function once(ctx: AppContext, kind: string, key: string, transactionId: number | null, payload: Record<string, unknown>, apply: (tx: Tx) => Promise<Code>): Promise<Code> {
  let outcome: 'accepted' | 'duplicate' = 'duplicate';
  try {
    const code = await ctx.db.transaction().execute(async (tx) => {
      const claimed = await claimNotification(tx, { kind, key, transactionId, payload });
      if (claimed === undefined) return (await handledResult(tx, key)) as Code;
      const code = await apply(tx);
      if (code !== CP_CODES.ok) throw new Refused(code);
      await storeResult(tx, claimed, code);
      outcome = 'accepted';
      return code;
    });
    ctx.metrics.paymentNotification(kind, outcome, payload);
    return code;
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    ctx.metrics.paymentNotification(kind, 'refused');
    ctx.log.warn({ kind, key, code: err.code }, 'payment notification refused');
    return err.code;
  }
}
