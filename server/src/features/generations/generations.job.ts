import { buffer } from 'node:stream/consumers';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { defineJob, type JobRun } from '../../jobs/job.ts';
import { pause } from '../../lib/pause.ts';
import { firstChars, storable } from '../../lib/text.ts';
import type { ConnectionRef } from '../../providers/registry.ts';
import {
  FINAL_PREDICTION_STATUSES,
  ProviderError,
  type DownloadedFile,
  type GeneratedImage,
  type GenerationProgress,
  type ImageSize,
  type Prediction,
  type PredictionProvider,
} from '../../providers/types.ts';
import { readModelSetting, chooseParam } from '../ai/model-setting.ts';
import { extensionFor } from '../files/file-names.ts';
import { storeFiles } from '../files/files.service.ts';
import { wordsFor } from '../chat/chat-pricing.ts';
import { releaseHold, settleHold } from '../wallet/wallet.queries.ts';
import { webhookUrl } from './replicate-webhook-url.ts';
import { failureText } from './generation-failure.ts';
import { addRunFile, claimLostQueuedRuns, claimStaleRuns, finishRun, inputFiles, isRunning, markRunning, noteAttemptError, runOf, setProgress, setProviderRef, touchRun } from './generations.queries.ts';

/** Attempts after the first when the provider fails in a way that may pass (timeouts, 429, 5xx). */
export const GENERATION_RETRIES = 3;
/** A running run's job marks it alive this often; one silent for {@link STALE_RUN_SECONDS} (three signs missed) lost its worker. */
const ALIVE_EVERY_MS = 10_000;
export const STALE_RUN_SECONDS = 30;
/** A run still `queued` this long with no job to run it (the job failed for good or was lost) is sent again. */
export const LOST_QUEUED_SECONDS = 10 * 60;
/**
 * Starts of one run at most (each job attempt, each resend after a dead worker): a run that keeps
 * failing to finish is ended as failed with its tokens back, rather than holding them for ever.
 */
export const MAX_RUN_ATTEMPTS = 12;
/** Largest output file taken from a provider. */
const MAX_OUTPUT_BYTES = 200 * 1024 * 1024;
/** Between polls of a prediction without a webhook (with one: `REPLICATE_WEBHOOK_POLL_SECONDS`). */
const POLL_MS = 1000;

type Run = NonNullable<Awaited<ReturnType<typeof runOf>>>;
interface Produced {
  files: GeneratedImage[] | DownloadedFile[];
  text: string | null;
  /** What it finally costs (text: by the tokens used); otherwise the price held. */
  cost: number;
}

const paramOf = (run: Run) => {
  const chosen = (run.inputs as { param?: unknown } | null)?.param;
  return typeof chosen === 'string' ? chosen : undefined;
};

/** The provider connection of a run's model; a run whose model or connection is gone cannot run. */
export function connectionOf(run: Run): ConnectionRef {
  if (!run.connection_id || !run.protocol || !run.provider_model) throw new ProviderError('bad_request', `generation ${String(run.id)}: its model is gone`, { misconfigured: true });
  return {
    id: run.connection_id,
    name: run.connection_name ?? '',
    protocol: run.protocol,
    base_url: run.base_url,
    api_key_env: run.api_key_env,
    timeout_seconds: run.timeout_seconds ?? 60,
    updated_at: run.connection_updated_at ?? new Date(0),
  };
}

/**
 * Where a Replicate-protocol prediction of run `runId` is told to send its webhook: only with a
 * signing secret (which needs `PUBLIC_URL`); the address carries the run and its token.
 */
const webhookUrlFor = (ctx: AppContext, connection: ConnectionRef, runId: number) =>
  connection.protocol === 'replicate' && ctx.config.replicate.webhookSecret ? webhookUrl(ctx, runId) : undefined;

/** Waits between polls; the job's time running out (or its queue stopping) ends the wait as a timeout. */
const waitToPoll = async (ms: number, signal: AbortSignal) => {
  if (!(await pause(ms, signal))) throw new ProviderError('timeout', 'generation: the job ran out of time');
};

/** Asks the provider to stop a prediction whose run has ended; a failure is only logged (the prediction ends by itself). */
export async function cancelPrediction(ctx: AppContext, run: Run, predictionId: string): Promise<void> {
  try {
    await ctx.providers.predictions(connectionOf(run)).cancel(predictionId);
  } catch (err) {
    ctx.log.warn({ err, generationId: run.id, predictionId }, 'the provider did not cancel a prediction');
  }
}

/**
 * What a final prediction gives: its output files downloaded, or — failed or cancelled at the
 * provider — a failure that is not retried. The poller and the webhook both end runs through this.
 */
export async function predictionOutcome(predictions: PredictionProvider, prediction: Prediction, cost: number, signal?: AbortSignal): Promise<Produced> {
  if (prediction.status !== 'succeeded') {
    throw new ProviderError('bad_request', `prediction ${prediction.id} ${prediction.status}: ${prediction.error ?? ''}`, prediction.error ? { providerMessage: prediction.error } : {});
  }
  const files = [];
  for (const url of prediction.output) files.push(await predictions.download(url, { maxBytes: MAX_OUTPUT_BYTES, ...(signal ? { signal } : {}) }));
  return { files, text: null, cost };
}

/**
 * Runs a prediction to its end: created (with a webhook where one is configured) and its id kept
 * on the run — or, on a retry, the one created before picked up again — then polled. Answers
 * null when the run was ended meanwhile by another path (its webhook).
 */
async function runPrediction(ctx: AppContext, run: Run, connection: ConnectionRef, input: Record<string, unknown>, onProgress: (p: GenerationProgress) => void, signal: AbortSignal): Promise<Produced | null> {
  const predictions = ctx.providers.predictions(connection);
  const model = run.provider_model ?? '';
  const webhook = webhookUrlFor(ctx, connection, run.id);
  let prediction: Prediction | undefined;
  if (run.provider_ref) {
    try {
      prediction = await predictions.get(run.provider_ref, { signal });
    } catch (err) {
      // Gone (the demo's live in the memory of a process that died): a new one is made.
      if (!(err instanceof ProviderError && err.status === 404)) throw err;
    }
  }
  if (!prediction) {
    prediction = await predictions.create({ model, input, ...(webhook ? { webhookUrl: webhook } : {}), signal });
    await setProviderRef(ctx.db, run.id, prediction.id);
  }
  const pollMs = webhook ? ctx.config.replicate.webhookPollSeconds * 1000 : POLL_MS;
  while (!FINAL_PREDICTION_STATUSES.includes(prediction.status)) {
    await waitToPoll(pollMs, signal);
    if (!(await isRunning(ctx.db, run.id))) {
      // Ended meanwhile: by its webhook (then this changes nothing), or cancelled by its user, maybe before its id was kept.
      await cancelPrediction(ctx, run, prediction.id);
      return null;
    }
    prediction = await predictions.get(prediction.id, { signal });
    if (prediction.progress !== undefined) onProgress({ step: Math.round(prediction.progress * 100), totalSteps: 100 });
  }
  return predictionOutcome(predictions, prediction, run.cost, signal);
}

async function produce(ctx: AppContext, run: Run, signal: AbortSignal): Promise<Produced | null> {
  const connection = connectionOf(run);
  // Switched off after the run was queued: an admin stopped using it.
  if (run.connection_active === false) throw new ProviderError('bad_request', `connection ${connection.name} is switched off`, { misconfigured: true });
  const model = run.provider_model ?? '';
  const param = chooseParam(readModelSetting(run.setting), paramOf(run)) ?? undefined;
  let last = 0;
  const onProgress = (p: GenerationProgress) => {
    const pct = Math.min(99, Math.floor((p.step / Math.max(1, p.totalSteps)) * 100));
    if (pct <= last) return;
    last = pct;
    void setProgress(ctx.db, run.id, pct).catch(() => undefined);
  };
  const inputs = await inputFiles(ctx.db, run.id);
  const read = async (role: 'input' | 'mask') => {
    const file = inputs.find((f) => f.role === role);
    if (!file) return undefined;
    const blob = await ctx.storage.get(file.storage_key);
    return blob ? buffer(blob.body) : undefined;
  };

  if (run.variant === 'text_1') {
    const provider = ctx.providers.chat(connection);
    const answer = await provider.completeChat({
      model,
      messages: [{ role: 'user', text: run.prompt }],
      maxOutputTokens: Math.min(run.max_output_tokens ?? 1024, param?.max_output_tokens ?? Infinity),
      ...(param?.temperature === undefined ? {} : { temperature: param.temperature }),
      signal,
    });
    // A count the provider left out is estimated from the text (about three characters a token).
    const tokens = (answer.usage?.inputTokens ?? Math.ceil(run.prompt.length / 3)) + (answer.usage?.outputTokens ?? Math.ceil(answer.text.length / 3));
    return { files: [], text: storable(answer.text), cost: Math.min(run.cost, wordsFor(tokens, run.words_per_token ?? 1)) };
  }

  const source = await read('input');
  const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;
  if (run.variant === 'video') {
    const seconds = Number(param?.provider?.duration);
    const input = { prompt: run.prompt, ...(Number.isFinite(seconds) && seconds > 0 ? { duration: seconds } : {}), ...(source ? { image: dataUrl(source) } : {}) };
    return runPrediction(ctx, run, connection, input, onProgress, signal);
  }
  const mask = run.variant === 'mask' ? await read('mask') : undefined;
  if (connection.protocol === 'replicate') {
    // Image models on Replicate's protocol are predictions too.
    const input = { prompt: run.prompt, ...(source ? { image: dataUrl(source) } : {}), ...(mask ? { mask: dataUrl(mask) } : {}) };
    return runPrediction(ctx, run, connection, input, onProgress, signal);
  }

  const images = ctx.providers.image(connection);
  const size = (typeof param?.provider?.size === 'string' ? param.provider.size : '1024x1024') as ImageSize;
  const n = Number(param?.provider?.n ?? 1) || 1;
  const common = { model, prompt: run.prompt, n, size, signal, onProgress };
  if (run.variant === 'mask' || run.variant === 'img_2' || run.variant === 'img_4') {
    if (!source) throw new ProviderError('bad_request', `generation ${String(run.id)}: its image is gone`);
    const result = await images.edit({ ...common, images: [source], ...(mask ? { mask } : {}) });
    return { files: result.images, text: null, cost: run.cost };
  }
  const result = await images.generate(common);
  return { files: result.images, text: null, cost: run.cost };
}

/** The provider's words for admins (and the log), with every provider key masked should a provider have echoed one. */
const detailOf = (err: unknown, keys: Readonly<Record<string, string>> = {}) => {
  let text = err instanceof Error ? err.message : String(err);
  for (const key of Object.values(keys)) if (key.length >= 8) text = text.split(key).join('***');
  return storable(firstChars(text, 2000));
};

/**
 * What an output is called when it is downloaded: the product, the run and the output's place,
 * with its type's extension — «Картинка по описанию 3-1.png» (slashes of a product's name would
 * read as folders; the rest is sanitised when the file is saved).
 */
export function resultFileName(productName: string, runId: number, position: number, mime: string): string {
  const ext = extensionFor(mime);
  return `${productName.replace(/[/\\]+/g, ' ').trim() || 'Результат'} ${String(runId)}-${String(position + 1)}${ext ? `.${ext}` : ''}`;
}

/**
 * Ends a running run as succeeded: its outputs stored and its hold settled at `produced.cost`, in
 * one transaction that first moves the run's row out of `running`, so of two paths finishing it
 * at once (a poll and a webhook) the second waits for the first's row lock, then finds it ended
 * and stores nothing. Answers whether this call ended it.
 */
export async function completeRun(ctx: AppContext, run: Pick<Run, 'id' | 'user_id'> & Partial<Pick<Run, 'product_name'>>, produced: Produced): Promise<boolean> {
  const ended = await storeFiles(ctx.db, ctx.storage, async (tx, save) => {
    const ended = await finishRun(tx, run.id, ['running'], { status: 'succeeded', cost: produced.cost, error: null, text: produced.text });
    if (!ended) return undefined;
    for (const [position, file] of produced.files.entries()) {
      const stored = await save({ ownerId: run.user_id, purpose: 'generation_result', body: file.data, contentType: file.mime, originalName: resultFileName(run.product_name ?? '', run.id, position, file.mime) });
      await addRunFile(tx, run.id, stored.id, 'output', position);
    }
    if (ended.hold_id !== null) await settleHold(tx, { id: ended.hold_id, userId: ended.user_id, kind: ended.wallet }, produced.cost);
    return ended;
  });
  if (ended) ctx.metrics.runEnded(ended, 'succeeded');
  return ended !== undefined;
}

/**
 * Ends a run still queued or running as failed with why — for the user in Russian by its cause
 * (`generationFailure`), for admins the provider's own words — and releases its hold. Answers
 * whether this call ended it.
 */
export async function failRun(ctx: AppContext, id: number, err: unknown): Promise<boolean> {
  ctx.log.warn({ err, generationId: id }, 'generation failed');
  const ended = await ctx.db.transaction().execute(async (tx) => {
    const ended = await finishRun(tx, id, ['queued', 'running'], { status: 'failed', error: failureText(err), errorDetail: detailOf(err, ctx.config.providerKeys) });
    if (ended?.hold_id != null) await releaseHold(tx, { id: ended.hold_id, userId: ended.user_id, kind: ended.wallet });
    return ended;
  });
  if (ended) ctx.metrics.runEnded(ended, 'failed');
  return ended !== undefined;
}

/**
 * Runs one generation: marks it running, calls the provider, stores the outputs and settles its
 * hold in one transaction. A failure that may pass (or a job stopped midway) is retried with
 * backoff (the job throws); a final one marks the run failed with why and releases its hold. A
 * run already final (a retry after a crash that came after the commit, or a prediction its
 * webhook finished) is left alone, so nothing is stored or charged twice.
 */
export async function runGeneration(ctx: AppContext, id: number, job: JobRun): Promise<void> {
  const run = await runOf(ctx.db, id);
  if (!run || (run.status !== 'queued' && run.status !== 'running')) return;
  if (run.attempts >= MAX_RUN_ATTEMPTS) {
    await failRun(ctx, id, new Error(`generation ${String(id)}: started ${String(run.attempts)} times without finishing`));
    return;
  }
  if (!(await markRunning(ctx.db, id))) return;
  let produced: Produced | null;
  const alive = setInterval(() => void touchRun(ctx.db, id).catch(() => undefined), ALIVE_EVERY_MS);
  alive.unref();
  try {
    produced = await produce(ctx, run, job.signal);
  } catch (err) {
    const retryable = (err instanceof ProviderError && err.retryable) || job.signal.aborted;
    if (retryable && job.attempt <= GENERATION_RETRIES) {
      await noteAttemptError(ctx.db, id, detailOf(err, ctx.config.providerKeys));
      throw err;
    }
    await failRun(ctx, id, err);
    return;
  } finally {
    clearInterval(alive);
  }
  if (produced) await completeRun(ctx, run, produced);
}

/** One run of a product on its provider, retried with backoff when the provider may recover. */
export const generationJob = defineJob({
  name: 'generations.run',
  payload: z.object({ generationId: z.number().int().positive() }),
  options: { retries: GENERATION_RETRIES, retryDelaySeconds: 5, backoff: true, expireInSeconds: 15 * 60, concurrency: 2, policy: 'standard' },
  run: (ctx, { generationId }, job) => runGeneration(ctx, generationId, job),
});

/**
 * Sends again the runs whose work was abandoned: running ones whose worker died mid-run (no sign
 * of life for `seconds`), queued ones whose worker died after fetching their job and before
 * starting them (fetched `seconds` ago), and queued ones whose job is gone (`queuedSeconds`). The
 * new job runs them from the start; a run already final is left alone, and the hold is settled
 * once, so nothing is charged twice. Their holds stay with them. Answers how many.
 */
export async function requeueStaleRuns(ctx: AppContext, seconds = STALE_RUN_SECONDS, queuedSeconds = LOST_QUEUED_SECONDS): Promise<number> {
  const ids = [...(await claimStaleRuns(ctx.db, seconds)), ...(await claimLostQueuedRuns(ctx.db, queuedSeconds, seconds))];
  for (const generationId of ids) await ctx.jobs.send(generationJob, { generationId });
  return ids.length;
}

export const requeueStaleRunsJob = defineJob({
  name: 'generations.requeue-stale',
  payload: z.object({}),
  cron: '* * * * *',
  options: { retries: 1, policy: 'singleton', expireInSeconds: 120 },
  run: async (ctx) => {
    const n = await requeueStaleRuns(ctx);
    if (n) ctx.log.warn({ runs: n }, 'generations whose worker died sent again');
  },
});
