import { z } from 'zod';
import { defineJob } from '../../jobs/job.ts';
import { closeAbandonedAnswers } from './chat.service.ts';

/** Every minute: answers whose process died are closed and charged for what they wrote (see `closeAbandonedAnswers`). */
export const closeAbandonedAnswersJob = defineJob({
  name: 'chat.close-abandoned-answers',
  payload: z.object({}),
  cron: '* * * * *',
  options: { retries: 1, policy: 'singleton', expireInSeconds: 120 },
  run: async (ctx) => {
    const n = await closeAbandonedAnswers(ctx);
    if (n) ctx.log.warn({ answers: n }, 'abandoned chat answers closed');
  },
});
