import { z } from 'zod';
import { defineJob } from '../../jobs/job.ts';

/** Cancels a CloudPayments subscription after the transaction that decided it committed. */
export const cancelCpSubscriptionJob = defineJob({
  name: 'payments.cancel-cp-subscription',
  payload: z.object({ id: z.string().min(1).max(100) }),
  options: { retries: 10 },
  run: (ctx, { id }) => ctx.cloudpayments.cancelSubscription(id),
});

/** Refunds a payment that must not stand (a second trial), after the transaction that decided it committed. */
export const refundTransactionJob = defineJob({
  name: 'payments.refund-transaction',
  payload: z.object({ transactionId: z.number().int().positive(), amountKopecks: z.number().int().positive() }),
  options: { retries: 10, policy: 'stately' },
  singletonKey: ({ transactionId }) => String(transactionId),
  run: (ctx, { transactionId, amountKopecks }) => ctx.cloudpayments.refund(transactionId, amountKopecks / 100),
});
