import { z } from 'zod';
import { defineJob } from '../../jobs/job.ts';
import { refundFailed, refundSent } from './refunds.queries.ts';

/** Cancels a CloudPayments subscription after the transaction that decided it committed. */
export const cancelCpSubscriptionJob = defineJob({
  name: 'payments.cancel-cp-subscription',
  payload: z.object({ id: z.string().min(1).max(100) }),
  // A call takes 10 s at most: a job still active after a minute lost its worker, and runs again.
  options: { retries: 10, expireInSeconds: 60 },
  run: (ctx, { id }) => ctx.cloudpayments.cancelSubscription(id),
});

const REFUND_RETRIES = 10;

/**
 * Refunds a payment through CloudPayments after the transaction that decided it committed: a
 * payment that must not stand (a second trial: the whole payment, once per payment) or an
 * admin's refund (`refundId`, its `payment_refunds` row: once per request, however often the job
 * runs, as the same request id reaches CloudPayments). Money and tokens move only when
 * CloudPayments' Refund notification arrives.
 */
export const refundTransactionJob = defineJob({
  name: 'payments.refund-transaction',
  payload: z.object({ transactionId: z.number().int().positive(), amountKopecks: z.number().int().positive(), refundId: z.number().int().positive().optional() }),
  // A call takes 10 s at most: a job still active after a minute lost its worker, and runs again (the same request id).
  options: { retries: REFUND_RETRIES, policy: 'stately', expireInSeconds: 60 },
  singletonKey: ({ transactionId, refundId }) => (refundId === undefined ? String(transactionId) : `refund:${String(refundId)}`),
  run: async (ctx, { transactionId, amountKopecks, refundId }, { attempt }) => {
    if (refundId === undefined) {
      await ctx.cloudpayments.refund(transactionId, amountKopecks / 100, `refund-${String(transactionId)}`);
      ctx.metrics.refundRequest('second_trial', 'sent', amountKopecks);
      return;
    }
    let refundTransactionId: number | null;
    try {
      refundTransactionId = await ctx.cloudpayments.refund(transactionId, amountKopecks / 100, `refund-${String(transactionId)}-${String(refundId)}`);
    } catch (err) {
      // Refused (or unreachable) for good: the request no longer holds back what it asked for.
      if (attempt > REFUND_RETRIES) {
        await refundFailed(ctx.db, refundId);
        ctx.metrics.refundRequest('admin', 'failed', amountKopecks);
      }
      throw err;
    }
    await refundSent(ctx.db, refundId, refundTransactionId);
    ctx.metrics.refundRequest('admin', 'sent', amountKopecks);
  },
});
