import { z } from 'zod';
import { defineJob, type AnyJob } from './job.ts';
import { pruneRateLimits } from '../lib/rate-limits.queries.ts';
import { mailJob } from '../mail/mail.job.ts';
import { passwordResetJob } from '../features/accounts/password-reset.job.ts';
import { expireCheckoutsJob, expireSubscriptionsJob } from '../features/billing/billing.jobs.ts';
import { cancelCpSubscriptionJob, refundTransactionJob } from '../features/payments/payments.jobs.ts';
import { sandboxNotifyJob, sandboxRenewalsJob } from '../features/payments/sandbox/sandbox.engine.ts';
import { telegramPollJob } from '../features/welcome/welcome.jobs.ts';
import { closeHoldsOfEndedWorkJob } from '../features/wallet/wallet.jobs.ts';
import { closeAbandonedAnswersJob } from '../features/chat/chat.jobs.ts';
import { generationJob, requeueStaleRunsJob } from '../features/generations/generations.job.ts';
import { sendNoticesJob } from '../features/notices/notices.jobs.ts';

const pruneRateLimitsJob = defineJob({
  name: 'maintenance.rate-limits',
  payload: z.object({}),
  cron: '17 * * * *',
  options: { policy: 'singleton' },
  run: async (ctx) => {
    await pruneRateLimits(ctx.db);
  },
});

/** Copies jobs that failed for good without their handler seeing it (expired, worker died) into `job_failures`. */
const recordFailuresJob = defineJob({
  name: 'maintenance.record-failed-jobs',
  payload: z.object({}),
  cron: '* * * * *',
  options: { retries: 0, policy: 'singleton' },
  run: async (ctx) => {
    const n = await ctx.jobs.recordExhausted(ctx.db);
    if (n) ctx.log.warn({ jobs: n }, 'jobs failed for good');
  },
});

/** Every job of the application: the web process enqueues them, workers run them. */
export const ALL_JOBS: readonly AnyJob[] = [
  mailJob,
  passwordResetJob,
  pruneRateLimitsJob,
  recordFailuresJob,
  expireSubscriptionsJob,
  expireCheckoutsJob,
  cancelCpSubscriptionJob,
  refundTransactionJob,
  sandboxRenewalsJob,
  sandboxNotifyJob,
  telegramPollJob,
  closeHoldsOfEndedWorkJob,
  closeAbandonedAnswersJob,
  generationJob,
  requeueStaleRunsJob,
  sendNoticesJob,
];
