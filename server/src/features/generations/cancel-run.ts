import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { releaseHold, settleHold } from '../wallet/wallet.queries.ts';
import { cancelPrediction } from './generations.job.ts';
import { finishRun, runOf } from './generations.queries.ts';

type Run = NonNullable<Awaited<ReturnType<typeof runOf>>>;

/** A run that is a prediction at its provider (video, or any run on Replicate's protocol): one the provider can stop midway. */
export const isPredictionRun = (run: Pick<Run, 'variant' | 'protocol'>) => run.variant === 'video' || run.protocol === 'replicate';

/**
 * What a running prediction cancelled now costs: what the provider's terms make due. Replicate
 * bills a prediction for the time it ran, not for its queue or start (`starting`), and keeps
 * billing a cancelled one for the time it had run; the run's progress is how far that time went.
 * So: the run's price times its progress, rounded up, never more than its hold; nothing before
 * the provider reported any progress.
 */
export const cancelCharge = (hold: number, progress: number) => Math.min(hold, Math.ceil((hold * Math.max(0, Math.min(100, progress))) / 100));

/**
 * Cancels a run of a user: a queued one gives all its tokens back; a running prediction is
 * cancelled at its provider and keeps `cancelCharge` of its hold, the rest back. The run's row
 * leaves `running` in the transaction that settles its hold, so of a cancel and the run's own end
 * (a poll, a webhook) racing, whichever commits first wins and the other changes nothing.
 * Answers whether this call ended the run; a run the provider cannot stop midway is refused
 * (409 `GENERATION_NOT_CANCELLABLE`).
 */
export async function cancelRun(ctx: AppContext, id: number): Promise<boolean> {
  const run = await runOf(ctx.db, id);
  if (!run) return false;
  if (run.status === 'running' && !isPredictionRun(run)) throw new AppError('GENERATION_NOT_CANCELLABLE');
  const ended = await ctx.db.transaction().execute(async (tx) => {
    const queued = await finishRun(tx, id, ['queued'], { status: 'cancelled', error: null, cost: 0 });
    if (queued) {
      if (queued.hold_id !== null) await releaseHold(tx, { id: queued.hold_id, userId: queued.user_id, kind: queued.wallet });
      return queued;
    }
    if (!isPredictionRun(run)) return undefined;
    const charge = cancelCharge(run.cost, run.progress);
    const running = await finishRun(tx, id, ['running'], { status: 'cancelled', error: null, cost: charge });
    if (!running) return undefined;
    if (running.hold_id !== null) {
      const hold = { id: running.hold_id, userId: running.user_id, kind: running.wallet };
      if (charge > 0) await settleHold(tx, hold, charge);
      else await releaseHold(tx, hold);
    }
    return running;
  });
  if (!ended) return false;
  ctx.metrics.runEnded(ended, 'cancelled');
  // The provider stops working on it (best effort: a run whose prediction is not made yet is cancelled by its poller once it is).
  if (run.status === 'running' && run.provider_ref) await cancelPrediction(ctx, run, run.provider_ref);
  return true;
}
