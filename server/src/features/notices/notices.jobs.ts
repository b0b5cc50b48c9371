import { z } from 'zod';
import { defineJob } from '../../jobs/job.ts';
import { sendDueNotices } from './notices.service.ts';

/** Every ten minutes: the notices before a charge go out about a day (trial) or three days (renewal) ahead. */
export const sendNoticesJob = defineJob({
  name: 'notices.send-due',
  payload: z.object({}),
  cron: '*/10 * * * *',
  options: { retries: 1, policy: 'singleton', expireInSeconds: 300 },
  run: async (ctx) => {
    const n = await sendDueNotices(ctx);
    if (n) ctx.log.info({ notices: n }, 'notices mailed');
  },
});
