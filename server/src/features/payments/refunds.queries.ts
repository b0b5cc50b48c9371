import type { Executor, Tx } from '../../db/database.ts';
import { lockInvoice } from '../billing/invoices.queries.ts';
import type { RefundCause } from '../billing/billing.table.ts';

/** An admin's refund request by its form's request id. */
export const findRefundRequest = (db: Executor, requestId: string) =>
  db.selectFrom('payment_refunds').select(['id', 'invoice_id']).where('request_id', '=', requestId).executeTakeFirst();

/** Kopecks of a payment asked back and not reported by CloudPayments yet (call with the invoice locked). */
export async function pendingRefunds(db: Executor, invoiceId: number): Promise<number> {
  const row = await db
    .selectFrom('payment_refunds')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_kopecks'), eb.lit(0)).as('kopecks'))
    .where('invoice_id', '=', invoiceId)
    .where('status', '=', 'requested')
    .executeTakeFirstOrThrow();
  return row.kopecks;
}

/**
 * A refund asked of CloudPayments, `requested` until its notification: an admin's (its form's
 * request id, the admin, the reason) or the service's own (`cause`, the reason in staff's words).
 */
export const insertRefundRequest = (
  tx: Tx,
  r: { invoiceId: number; userId: number; paymentTransactionId: number; amountKopecks: number; reason: string } & ({ requestId: string; actorId: number } | { cause: RefundCause }),
) =>
  tx
    .insertInto('payment_refunds')
    .values({
      invoice_id: r.invoiceId,
      user_id: r.userId,
      payment_transaction_id: r.paymentTransactionId,
      amount_kopecks: r.amountKopecks,
      status: 'requested',
      reason: r.reason,
      ...('cause' in r ? { cause: r.cause } : { request_id: r.requestId, actor_id: r.actorId }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();

/**
 * Records a refund CloudPayments reported (its Refund or Cancel notification, applied in `tx`
 * with the payment locked): it completes the admin's request that carries this refund's
 * transaction id, or is recorded on its own (a refund made at CloudPayments, or one whose
 * request has not learnt its id yet: `refundSent` then takes it over).
 */
export async function recordAppliedRefund(
  tx: Tx,
  r: { payment: { invoiceId: number } | { autoChargeId: number }; userId: number; paymentTransactionId: number; refundTransactionId: number; reportedKopecks: number; appliedKopecks: number },
): Promise<void> {
  const now = new Date();
  const done = await tx
    .updateTable('payment_refunds')
    .set({ status: 'done', applied_kopecks: r.appliedKopecks, applied_at: now, updated_at: now })
    .where('refund_transaction_id', '=', r.refundTransactionId)
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) > 0) return;
  await tx
    .insertInto('payment_refunds')
    .values({
      ...('invoiceId' in r.payment ? { invoice_id: r.payment.invoiceId } : { auto_charge_id: r.payment.autoChargeId }),
      user_id: r.userId,
      payment_transaction_id: r.paymentTransactionId,
      amount_kopecks: Number.isFinite(r.reportedKopecks) && r.reportedKopecks >= 0 ? r.reportedKopecks : r.appliedKopecks,
      applied_kopecks: r.appliedKopecks,
      status: 'done',
      refund_transaction_id: r.refundTransactionId,
      applied_at: now,
    })
    .execute();
}

/**
 * CloudPayments accepted an admin's refund as transaction `refundTransactionId`: the request
 * keeps that id, so the Refund notification completes it. A notification that came first was
 * recorded on its own: the request takes it over (done, with what it applied). The payment is
 * locked first, as the notification's handler locks it, so the two never miss each other.
 */
export async function refundSent(db: Executor, refundId: number, refundTransactionId: number | null): Promise<void> {
  if (refundTransactionId === null) return;
  await db.transaction().execute(async (tx) => {
    const request = await tx.selectFrom('payment_refunds').select(['invoice_id']).where('id', '=', refundId).executeTakeFirst();
    if (!request?.invoice_id) return;
    await lockInvoice(tx, request.invoice_id);
    const known = await tx.selectFrom('payment_refunds').select('refund_transaction_id').where('id', '=', refundId).executeTakeFirstOrThrow();
    if (known.refund_transaction_id !== null) return;
    const reported = await tx
      .selectFrom('payment_refunds')
      .select(['id', 'applied_kopecks', 'applied_at'])
      .where('refund_transaction_id', '=', refundTransactionId)
      .where('id', '!=', refundId)
      .executeTakeFirst();
    if (reported) await tx.deleteFrom('payment_refunds').where('id', '=', reported.id).execute();
    await tx
      .updateTable('payment_refunds')
      .set({
        refund_transaction_id: refundTransactionId,
        updated_at: new Date(),
        ...(reported ? { status: 'done' as const, applied_kopecks: reported.applied_kopecks, applied_at: reported.applied_at } : {}),
      })
      .where('id', '=', refundId)
      .execute();
  });
}

/** CloudPayments refused an admin's refund for good: it no longer counts as on its way. */
export const refundFailed = (db: Executor, refundId: number) =>
  db.updateTable('payment_refunds').set({ status: 'failed', updated_at: new Date() }).where('id', '=', refundId).where('status', '=', 'requested').execute();
