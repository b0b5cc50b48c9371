import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { verifyReplicateWebhook } from '../../providers/replicate-webhook.ts';
import { parsePrediction } from '../../providers/replicate.provider.ts';
import { FINAL_PREDICTION_STATUSES, ProviderError, type Prediction, type WebhookHeaders } from '../../providers/types.ts';
import { completeRun, connectionOf, failRun, predictionOutcome } from './generations.job.ts';
import { runOf, runOfPrediction } from './generations.queries.ts';

/**
 * A Replicate webhook as it arrives at the address of run `runId` (its token already checked):
 * its signature over the body as sent is checked first (no secret configured, a wrong signature
 * or a timestamp more than 5 minutes off: 401, nothing changes). A final prediction then ends its
 * run the way the poller would — outputs stored and the hold settled, or the run failed with why
 * and its tokens back — and only if the run is still running, so a webhook racing the poll, or
 * sent again, ends it once. `ignored`: not final, no run of ours, a prediction of another run than
 * the address's, already ended, or outputs that could not be fetched just now (the poller, which
 * retries, fetches them).
 */
export async function receiveReplicateWebhook(ctx: AppContext, headers: WebhookHeaders, raw: Buffer, runId: number): Promise<'finished' | 'ignored'> {
  const secret = ctx.config.replicate.webhookSecret;
  if (!secret || !verifyReplicateWebhook(headers, raw, secret)) throw new AppError('INVALID_SIGNATURE');
  let prediction: Prediction;
  try {
    prediction = parsePrediction(JSON.parse(raw.toString('utf8')));
  } catch {
    throw new AppError('BAD_REQUEST');
  }
  if (!FINAL_PREDICTION_STATUSES.includes(prediction.status)) return 'ignored';
  const id = await runOfPrediction(ctx.db, prediction.id);
  const run = id === runId ? await runOf(ctx.db, id) : undefined;
  if (!run || run.status !== 'running') return 'ignored';
  let outcome: Awaited<ReturnType<typeof predictionOutcome>>;
  try {
    outcome = await predictionOutcome(ctx.providers.predictions(connectionOf(run)), prediction, run.cost);
  } catch (err) {
    if (err instanceof ProviderError && err.retryable) {
      ctx.log.warn({ err, generationId: run.id }, 'replicate webhook: outputs not fetched, left to polling');
      return 'ignored';
    }
    return (await failRun(ctx, run.id, err)) ? 'finished' : 'ignored';
  }
  return (await completeRun(ctx, run, outcome)) ? 'finished' : 'ignored';
}
