import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { defineJob } from '../../jobs/job.ts';
import { openHoldsWithWork, settleHold } from './wallet.queries.ts';

/**
 * Holds are looked at once they are this old. Work closes its own hold in the transaction that
 * ends it (a run failed or done, an answer closed), so a hold open past this age whose work has
 * ended is a leftover, never work in progress.
 */
export const HOLD_SWEEP_AFTER_MINUTES = 10;

/**
 * Closes holds whose work is over, as that work's record says: a succeeded run keeps its cost, a
 * closed answer its words, a failed or cancelled one nothing; a hold no work refers to any more is
 * given back. A hold whose run or answer is still going is left alone, however old: abandoned
 * work is found by its own sweepers (`generations.requeue-stale`, `chat.close-abandoned-answers`),
 * which end it and its hold together, so history and ledger always agree. Answers how many it closed.
 */
export async function closeHoldsOfEndedWork(ctx: AppContext): Promise<number> {
  const holds = await openHoldsWithWork(ctx.db, new Date(Date.now() - HOLD_SWEEP_AFTER_MINUTES * 60_000));
  let closed = 0;
  for (const hold of holds) {
    let spent: number;
    if (hold.generationId !== null) {
      if (hold.generationStatus === 'queued' || hold.generationStatus === 'running') continue;
      spent = hold.generationStatus === 'succeeded' ? (hold.generationCost ?? 0) : 0;
    } else if (hold.messageId !== null) {
      if (hold.messageStatus === 'generating') continue;
      spent = hold.messageStatus === 'failed' ? 0 : (hold.messageWords ?? 0);
    } else {
      spent = 0;
    }
    ctx.log.warn({ holdId: hold.id, generationId: hold.generationId, messageId: hold.messageId, spent }, 'a hold outlived its work: closed as its work ended');
    await settleHold(ctx.db, hold, spent);
    closed++;
  }
  return closed;
}

export const closeHoldsOfEndedWorkJob = defineJob({
  name: 'wallet.close-holds-of-ended-work',
  payload: z.object({}),
  cron: '*/10 * * * *',
  options: { retries: 1, policy: 'singleton' },
  run: async (ctx) => {
    await closeHoldsOfEndedWork(ctx);
  },
});
