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
