import type { FastifyInstance } from 'fastify';
import { defineJob } from '../../jobs/queue.ts';
import { changeSubscription, dueForExpiry } from './subscriptions.queries.ts';

export const EXPIRE_SUBSCRIPTIONS_JOB = 'billing.expire-subscriptions';

/** Hours a renewing subscription stays current past its period, waiting for a late renewal charge. */
export const RENEWAL_GRACE_HOURS = 48;

/** Ends subscriptions whose period ran out; answers how many. */
export async function expireSubscriptions(app: FastifyInstance): Promise<number> {
  const due = await dueForExpiry(app.db, RENEWAL_GRACE_HOURS);
  let expired = 0;
  for (const candidate of due) {
    await app.db.transaction().execute(async (tx) => {
      const sub = await tx.selectFrom('subscriptions').selectAll().where('id', '=', candidate.id).forUpdate().executeTakeFirst();
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

export const expireSubscriptionsJob = (app: FastifyInstance) =>
  defineJob({
    name: EXPIRE_SUBSCRIPTIONS_JOB,
    cron: '* * * * *',
    retryLimit: 1,
    handler: async () => {
      const n = await expireSubscriptions(app);
      if (n) app.log.info({ expired: n }, 'subscriptions expired');
    },
  });
