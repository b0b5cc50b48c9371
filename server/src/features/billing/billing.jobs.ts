import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { defineJob } from '../../jobs/job.ts';
import { changeSubscription, dueForExpiry, lockSubscription, pendingSubscriptionsOlderThan } from './subscriptions.queries.ts';
import { lockInvoice, pendingInvoicesOlderThan, updateInvoice } from './invoices.queries.ts';

/** Hours a renewing subscription stays current past its period, waiting for a late renewal charge. */
export const RENEWAL_GRACE_HOURS = 48;

/**
 * Hours an invoice waits for its payment. Then the checkout is abandoned: the invoice fails
 * and its plan expires unpaid (Check refuses such an invoice; a Pay that still comes for it is
 * honoured, as money was taken).
 */
export const CHECKOUT_TTL_HOURS = 24;

/** `failure_reason` of an invoice nobody paid in time. */
export const CHECKOUT_EXPIRED = 'checkout_expired';

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

const isStale = (createdAt: Date) => createdAt.getTime() <= Date.now() - CHECKOUT_TTL_HOURS * 3_600_000;

/**
 * Closes checkouts nobody paid within `CHECKOUT_TTL_HOURS`: each such invoice fails
 * (`checkout_expired`) and its plan, still unpaid, expires with a line in the subscription log;
 * then plans left unpaid without an open invoice (one declined before declines closed them)
 * expire as well. Each in its own transaction, re-checked under the invoice's lock (taken
 * before the plan's, as a Pay takes them), so a Pay that got there first wins. Answers how many
 * invoices and plans it closed.
 */
export async function expireCheckouts(ctx: AppContext): Promise<{ invoices: number; subscriptions: number }> {
  let invoices = 0;
  let subscriptions = 0;
  for (const candidate of await pendingInvoicesOlderThan(ctx.db, CHECKOUT_TTL_HOURS)) {
    await ctx.db.transaction().execute(async (tx) => {
      const invoice = await lockInvoice(tx, candidate.id);
      if (invoice?.status !== 'pending' || !isStale(invoice.created_at)) return;
      await updateInvoice(tx, invoice.id, { status: 'failed', failure_reason: CHECKOUT_EXPIRED });
      invoices += 1;
      const sub = invoice.subscription_id === null ? undefined : await lockSubscription(tx, invoice.subscription_id);
      if (sub?.status !== 'pending') return;
      await changeSubscription(tx, sub, 'expired', CHECKOUT_EXPIRED, invoice.id, { ended_at: new Date() });
      subscriptions += 1;
    });
  }
  for (const candidate of await pendingSubscriptionsOlderThan(ctx.db, CHECKOUT_TTL_HOURS)) {
    await ctx.db.transaction().execute(async (tx) => {
      const sub = await lockSubscription(tx, candidate.id);
      if (sub?.status !== 'pending' || !isStale(sub.created_at)) return;
      await changeSubscription(tx, sub, 'expired', CHECKOUT_EXPIRED, null, { ended_at: new Date() });
      subscriptions += 1;
    });
  }
  return { invoices, subscriptions };
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

export const expireCheckoutsJob = defineJob({
  name: 'billing.expire-checkouts',
  payload: z.object({}),
  cron: '*/10 * * * *',
  options: { retries: 1, policy: 'singleton' },
  run: async (ctx) => {
    const closed = await expireCheckouts(ctx);
    if (closed.invoices || closed.subscriptions) ctx.log.info(closed, 'abandoned checkouts expired');
  },
});
