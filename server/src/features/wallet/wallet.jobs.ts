import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { defineJob } from '../../jobs/job.ts';
import { releaseHold, staleHolds } from './wallet.queries.ts';

/** A hold open longer than this paid for work nobody is doing any more: no chat answer or generation runs that long. */
export const STALE_HOLD_MINUTES = 60;

/** Gives back holds whose work was lost (a process died, a reply went missing); answers how many. */
export async function releaseStaleHolds(ctx: AppContext): Promise<number> {
  const holds = await staleHolds(ctx.db, new Date(Date.now() - STALE_HOLD_MINUTES * 60_000));
  let released = 0;
  for (const hold of holds) released += (await releaseHold(ctx.db, hold)).returned > 0 ? 1 : 0;
  return released;
}

export const releaseStaleHoldsJob = defineJob({
  name: 'wallet.release-stale-holds',
  payload: z.object({}),
  cron: '*/10 * * * *',
  options: { retries: 1, policy: 'singleton' },
  run: async (ctx) => {
    const n = await releaseStaleHolds(ctx);
    if (n) ctx.log.warn({ holds: n }, 'stale holds released');
  },
});
