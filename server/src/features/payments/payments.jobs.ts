import type { FastifyInstance } from 'fastify';
import { defineJob } from '../../jobs/queue.ts';

export const CANCEL_CP_SUBSCRIPTION_JOB = 'payments.cancel-cp-subscription';

/** Cancels a CloudPayments subscription after the transaction that decided it committed. */
export const cancelCpSubscriptionJob = (app: FastifyInstance) =>
  defineJob<{ id: string }>({
    name: CANCEL_CP_SUBSCRIPTION_JOB,
    retryLimit: 10,
    handler: ({ id }) => app.cloudpayments.cancelSubscription(id),
  });

export const REFUND_TRANSACTION_JOB = 'payments.refund-transaction';

/** Refunds a payment that must not stand (a second trial), after the transaction that decided it committed. */
export const refundTransactionJob = (app: FastifyInstance) =>
  defineJob<{ transactionId: number; amountKopecks: number }>({
    name: REFUND_TRANSACTION_JOB,
    retryLimit: 10,
    handler: ({ transactionId, amountKopecks }) => app.cloudpayments.refund(transactionId, amountKopecks / 100),
  });
