import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { defineJob } from '../../jobs/job.ts';
import { changeSubscription, dueForExpiry, lockSubscription } from './subscriptions.queries.ts';

/** Hours a renewing subscription stays current past its period, waiting for a late renewal charge. */
export const RENEWAL_GRACE_HOURS = 48;

/** Ends subscriptions whose period ran out; answers how many. */
export async function expireSubscriptions(ctx: AppContext): Promise<number> {
  const due = await dueForExpiry(ctx.db, RENEWAL_GRACE_HOURS);
  let expired = 0;
  for (const candidate of due) {
    await ctx.db.transaction().execute(async (tx) => {
      const sub = await lockSubscription(tx, candidate.id);
      // Re-checked under the lock: a renewal may have extended it meanwhile.
      if (!sub || !['active', 'past_due', 'cancelled'].includes(sub.status) || !sub.period_end) return;
      const graceMs = sub.status === 'cancelled' ? 0 : RENEWAL_GRACE_HOURS * 3_600_000;
      if (sub.period_end.getTime() + graceMs > Date.now()) return;
      await changeSubscription(tx, sub, 'expired', 'period_ended', null, { ended_at: new Date() });
      expired += 1;
    });
  }
  return expired;
}

export const expireSubscriptionsJob = defineJob({
  name: 'billing.expire-subscriptions',
  payload: z.object({}),
  cron: '* * * * *',
  options: { retries: 1, policy: 'singleton' },
  run: async (ctx) => {
    const n = await expireSubscriptions(ctx);
    if (n) ctx.log.info({ expired: n }, 'subscriptions expired');
  },
});
