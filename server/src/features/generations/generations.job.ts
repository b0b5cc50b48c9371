import { buffer } from 'node:stream/consumers';
import { z } from 'zod';
import { GENERATION_TEXTS } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import { defineJob, type JobRun } from '../../jobs/job.ts';
import { firstChars, storable } from '../../lib/text.ts';
import type { ConnectionRef } from '../../providers/registry.ts';
import { FINAL_PREDICTION_STATUSES, ProviderError, type GeneratedImage, type GenerationProgress, type ImageSize } from '../../providers/types.ts';
import { readModelSetting, chooseParam } from '../ai/model-setting.ts';
import { storeFiles } from '../files/files.service.ts';
import { wordsFor } from '../chat/chat-pricing.ts';
import { releaseHold, settleHold } from '../wallet/wallet.queries.ts';
import { claimStaleRuns, finishRun, inputFiles, markRunning, noteAttemptError, runOf, setProgress, touchRun } from './generations.queries.ts';

/** Attempts after the first when the provider fails in a way that may pass (timeouts, 429, 5xx). */
export const GENERATION_RETRIES = 3;
/** A running run's job marks it alive this often; one silent for {@link STALE_RUN_SECONDS} lost its worker. */
const ALIVE_EVERY_MS = 10_000;
export const STALE_RUN_SECONDS = 60;
/** Largest output file taken from a provider. */
const MAX_OUTPUT_BYTES = 200 * 1024 * 1024;
const POLL_MS = 1000;

type Run = NonNullable<Awaited<ReturnType<typeof runOf>>>;
interface Produced {
  files: GeneratedImage[] | { data: Buffer; mime: string }[];
  text: string | null;
  /** What it finally costs (text: by the tokens used); otherwise the price held. */
  cost: number;
}

const paramOf = (run: Run) => {
  const chosen = (run.inputs as { param?: unknown } | null)?.param;
  return typeof chosen === 'string' ? chosen : undefined;
};

async function produce(ctx: AppContext, run: Run, model: { setting: unknown }, signal: AbortSignal): Promise<Produced> {
  if (!run.connection_id || !run.protocol || !run.provider_model) throw new ProviderError('bad_request', `generation ${String(run.id)}: its model is gone`);
  const connection: ConnectionRef = {
    id: run.connection_id,
    name: run.connection_name ?? '',
    protocol: run.protocol,
    base_url: run.base_url,
    api_key_env: run.api_key_env,
    timeout_seconds: run.timeout_seconds ?? 60,
    updated_at: run.connection_updated_at ?? new Date(0),
  };
  const param = chooseParam(readModelSetting(model.setting), paramOf(run)) ?? undefined;
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
      model: run.provider_model,
      messages: [{ role: 'user', text: run.prompt }],
      maxOutputTokens: Math.min(run.max_output_tokens ?? 1024, param?.max_output_tokens ?? Infinity),
      ...(param?.temperature === undefined ? {} : { temperature: param.temperature }),
      signal,
    });
    const tokens = answer.usage ? answer.usage.inputTokens + answer.usage.outputTokens : Math.ceil((run.prompt.length + answer.text.length) / 3);
    return { files: [], text: storable(answer.text), cost: Math.min(run.cost, wordsFor(tokens, run.words_per_token ?? 1)) };
  }

  if (run.variant === 'video') {
    const predictions = ctx.providers.predictions(connection);
    const image = await read('input');
    const seconds = Number(param?.provider?.duration);
    let prediction = await predictions.create({
      model: run.provider_model,
      input: { prompt: run.prompt, ...(Number.isFinite(seconds) && seconds > 0 ? { duration: seconds } : {}), ...(image ? { image: `data:image/png;base64,${image.toString('base64')}` } : {}) },
      signal,
    });
    while (!FINAL_PREDICTION_STATUSES.includes(prediction.status)) {
      await new Promise((r) => setTimeout(r, POLL_MS));
      if (signal.aborted) throw new ProviderError('timeout', 'generation: the job ran out of time');
      prediction = await predictions.get(prediction.id, { signal });
      if (prediction.progress !== undefined) onProgress({ step: Math.round(prediction.progress * 100), totalSteps: 100 });
    }
    if (prediction.status !== 'succeeded') throw new ProviderError('bad_request', `prediction ${prediction.id} ${prediction.status}: ${prediction.error ?? ''}`);
    const files = [];
    for (const url of prediction.output) files.push(await predictions.download(url, { maxBytes: MAX_OUTPUT_BYTES, signal }));
    return { files, text: null, cost: run.cost };
  }

  const images = ctx.providers.image(connection);
  const size = (typeof param?.provider?.size === 'string' ? param.provider.size : '1024x1024') as ImageSize;
  const n = Number(param?.provider?.n ?? 1) || 1;
  const common = { model: run.provider_model, prompt: run.prompt, n, size, signal, onProgress };
  const source = await read('input');
  if (run.variant === 'mask' || run.variant === 'img_2' || run.variant === 'img_4') {
    if (!source) throw new ProviderError('bad_request', `generation ${String(run.id)}: its image is gone`);
    const mask = run.variant === 'mask' ? await read('mask') : undefined;
    const result = await images.edit({ ...common, images: [source], ...(mask ? { mask } : {}) });
    return { files: result.images, text: null, cost: run.cost };
  }
  const result = await images.generate(common);
  return { files: result.images, text: null, cost: run.cost };
}

/** A failure the user sees: why, in Russian, and that the tokens came back. */
const userError = (err: unknown) =>
  err instanceof ProviderError && err.kind === 'timeout' ? 'Сервис генерации не ответил вовремя. Токены возвращены на баланс' : `${GENERATION_TEXTS.failed}. ${GENERATION_TEXTS.refunded}`;

/**
 * Runs one generation: marks it running, calls the provider, stores the outputs and settles its
 * hold in one transaction. A failure that may pass is retried with backoff (the job throws); a
 * final one marks the run failed with why and releases its hold. A run already final (a retry
 * after a crash that came after the commit) is left alone, so nothing is charged twice.
 */
export async function runGeneration(ctx: AppContext, id: number, job: JobRun): Promise<void> {
  const run = await runOf(ctx.db, id);
  if (!run || (run.status !== 'queued' && run.status !== 'running')) return;
  if (!(await markRunning(ctx.db, id))) return;
  const model = await ctx.db.selectFrom('generations as g').leftJoin('ai_models as m', 'm.id', 'g.model_id').select(['m.setting']).where('g.id', '=', id).executeTakeFirstOrThrow();
  let produced: Produced;
  const alive = setInterval(() => void touchRun(ctx.db, id).catch(() => undefined), ALIVE_EVERY_MS);
  alive.unref();
  try {
    produced = await produce(ctx, run, model, job.signal);
  } catch (err) {
    clearInterval(alive);
    const detail = storable(firstChars(err instanceof Error ? err.message : String(err), 2000));
    const final = !(err instanceof ProviderError && err.retryable) || job.attempt > GENERATION_RETRIES;
    if (!final) {
      await noteAttemptError(ctx.db, id, detail);
      throw err;
    }
    ctx.log.warn({ err, generationId: id }, 'generation failed');
    await ctx.db.transaction().execute(async (tx) => {
      const ended = await finishRun(tx, id, ['queued', 'running'], { status: 'failed', error: userError(err), errorDetail: detail });
      if (ended?.hold_id != null) await releaseHold(tx, { id: ended.hold_id, userId: ended.user_id, kind: ended.wallet });
    });
    return;
  }
  clearInterval(alive);
  await storeFiles(ctx.db, ctx.storage, async (tx, save) => {
    for (const [position, file] of produced.files.entries()) {
      const stored = await save({ ownerId: run.user_id, purpose: 'generation_result', body: file.data, contentType: file.mime, originalName: `result-${String(id)}-${String(position + 1)}` });
      await tx.insertInto('generation_files').values({ generation_id: id, file_id: stored.id, role: 'output', position }).execute();
    }
    const ended = await finishRun(tx, id, ['running'], { status: 'succeeded', cost: produced.cost, error: null, text: produced.text });
    // Ended meanwhile (another worker after a crash): this one's files roll back, the other's stand.
    if (!ended) throw new Error(`generation ${String(id)} was ended by another run`);
    if (ended.hold_id !== null) await settleHold(tx, { id: ended.hold_id, userId: ended.user_id, kind: ended.wallet }, produced.cost);
  });
}

/** One run of a product on its provider, retried with backoff when the provider may recover. */
export const generationJob = defineJob({
  name: 'generations.run',
  payload: z.object({ generationId: z.number().int().positive() }),
  options: { retries: GENERATION_RETRIES, retryDelaySeconds: 5, backoff: true, expireInSeconds: 15 * 60, concurrency: 2, policy: 'standard' },
  run: (ctx, { generationId }, job) => runGeneration(ctx, generationId, job),
});

/**
 * Sends again the runs whose worker died mid-run (no sign of life for `seconds`): the new job
 * runs them from the start; a run already final is left alone, and the hold is settled once, so
 * nothing is charged twice. Answers how many.
 */
export async function requeueStaleRuns(ctx: AppContext, seconds = STALE_RUN_SECONDS): Promise<number> {
  const ids = await claimStaleRuns(ctx.db, seconds);
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
