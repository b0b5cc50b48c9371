import { VARIANT_INPUTS, type Generation, type ProductVariant } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import { AppError, fieldError } from '../../lib/app-error.ts';
import type { UploadedFile } from '../../lib/multipart.ts';
import { storable } from '../../lib/text.ts';
import type { Viewer } from '../accounts/viewer.ts';
import { chooseParam, readModelSetting } from '../ai/model-setting.ts';
import { runCost } from '../catalog/catalog.service.ts';
import { findActiveProduct } from '../catalog/catalog.queries.ts';
import { fillTemplate, joinPrompt, readProductFields } from '../catalog/product-fields.ts';
import { storeFiles } from '../files/files.service.ts';
import { mediaToWire, placeHold } from '../wallet/wallet.queries.ts';
import { generationJob } from './generations.job.ts';
import { cancelRun } from './cancel-run.ts';
import {
  addRunFile,
  countActive,
  countGenerations,
  findOwnGeneration,
  insertGeneration,
  lockUserScope,
  outputFiles,
  pageOfGenerations,
  setRunHold,
  type GenerationRow,
} from './generations.queries.ts';
import { GENERATION_LIMITS } from '@app/contracts';

const iso = (d: Date) => d.toISOString();

/** Runs listed by each history type. */
export const HISTORY_VARIANTS: Record<'image' | 'video' | 'text', readonly ProductVariant[]> = {
  image: ['img', 'img_2', 'img_3', 'img_4', 'mask'],
  video: ['video'],
  text: ['text_1'],
};

async function toDtos(ctx: AppContext, rows: GenerationRow[]): Promise<Generation[]> {
  const files = await outputFiles(ctx.db, rows.map((r) => r.id));
  return rows.map((r) => ({
    id: r.id,
    product_id: r.product_id,
    product: r.product_name,
    variant: r.variant,
    model: r.model_name,
    status: r.status,
    progress: r.progress,
    prompt: r.prompt,
    cost: { wallet: r.wallet, amount: r.wallet === 'media' ? mediaToWire(r.cost) : r.cost },
    // A cancelled prediction keeps what its provider's time cost (`cost`); the rest, or all, came back.
    refunded: r.status === 'failed' || (r.status === 'cancelled' && r.cost === 0),
    error: r.error,
    outputs: files
      .filter((f) => f.generation_id === r.id)
      .map((f) => ({ id: f.id, url: `/api/new/files/${String(f.id)}`, download_url: `/api/new/files/${String(f.id)}?download=1`, kind: f.content_type.startsWith('video/') ? ('video' as const) : ('image' as const), mime: f.content_type })),
    text: r.text_result,
    created_at: iso(r.created_at),
    finished_at: r.finished_at ? iso(r.finished_at) : null,
  }));
}

export async function generationOf(ctx: AppContext, userId: number, id: number): Promise<Generation> {
  const row = await findOwnGeneration(ctx.db, userId, id);
  if (!row) throw new AppError('NOT_FOUND', 'Генерация не найдена');
  const [dto] = await toDtos(ctx, [row]);
  if (!dto) throw new AppError('NOT_FOUND', 'Генерация не найдена');
  return dto;
}

export async function history(ctx: AppContext, userId: number, type: keyof typeof HISTORY_VARIANTS, page: number): Promise<{ data: Generation[]; last_page: number }> {
  const variants = HISTORY_VARIANTS[type];
  const total = await countGenerations(ctx.db, userId, variants);
  const size = GENERATION_LIMITS.pageSize;
  const rows = page <= Math.ceil(total / size) ? await pageOfGenerations(ctx.db, userId, variants, (page - 1) * size, size) : [];
  return { data: await toDtos(ctx, rows), last_page: Math.max(1, Math.ceil(total / size)) };
}

/** The template's values from the `fields` JSON object, checked against the product's fields. */
function templateValues(product: { fields: unknown }, raw: string | undefined): Record<string, string> {
  const fields = readProductFields(product.fields);
  let given: unknown = {};
  if (raw !== undefined && raw !== '') {
    try {
      given = JSON.parse(raw) as unknown;
    } catch {
      throw fieldError('fields', 'Поля должны быть объектом JSON');
    }
  }
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw fieldError('fields', 'Поля должны быть объектом JSON');
  const values: Record<string, string> = {};
  const errors: Record<string, string[]> = {};
  for (const field of fields) {
    const value = (given as Record<string, unknown>)[field.name];
    const text = typeof value === 'string' ? storable(value.trim()) : '';
    if (!text && field.required) errors[`fields.${field.name}`] = [`Заполните поле «${field.label}»`];
    else if (text.length > field.max_length) errors[`fields.${field.name}`] = [`Не длиннее ${String(field.max_length)} символов`];
    values[field.name] = text;
  }
  if (Object.keys(errors).length) throw new AppError('VALIDATION', errors);
  return values;
}

export interface StartInput {
  product_id: number;
  param?: string | undefined;
  prompt?: string | undefined;
  fields?: string | undefined;
  image?: UploadedFile | undefined;
  mask?: UploadedFile | undefined;
}

/**
 * Starts a run: checks the product's inputs, then in one transaction stores the run and its
 * input files, holds its price and queues its job. Too few tokens: 402 and nothing stored; more
 * than 10 runs queued or running: 429.
 */
export async function startGeneration(ctx: AppContext, viewer: Viewer, input: StartInput): Promise<Generation> {
  const product = await findActiveProduct(ctx.db, input.product_id);
  if (!product) throw fieldError('product_id', 'Этот продукт недоступен');
  const needs = VARIANT_INPUTS[product.variant];
  const param = chooseParam(readModelSetting(product.setting), input.param);
  if (param === null) throw fieldError('param', 'Выберите параметр из списка');
  const prompt = storable(input.prompt ?? '');
  if (needs.prompt && !prompt) throw fieldError('prompt', 'Опишите, что нужно получить');
  if (needs.image === 'required' && !input.image) throw fieldError('image', 'Загрузите изображение');
  if (needs.image === 'none' && input.image) throw fieldError('image', 'Этому продукту изображение не нужно');
  if (needs.mask && !input.mask) throw fieldError('mask', 'Закрасьте область, которую нужно изменить');
  if (!needs.mask && input.mask) throw fieldError('mask', 'Этому продукту маска не нужна');
  const values = needs.fields ? templateValues(product, input.fields) : {};
  const finalPrompt = needs.fields ? fillTemplate(product.prompt_template, values) : joinPrompt(product.prompt_template, prompt);
  // A text run holds the bound of the prompt it really sends: the template with the user's fields.
  const cost = runCost(product, param, finalPrompt);
  // Refused early when plainly over the cap; counted again under the user's lock below.
  if ((await countActive(ctx.db, viewer.id)) >= GENERATION_LIMITS.activePerUser) throw new AppError('GENERATIONS_BUSY');

  const id = await storeFiles(ctx.db, ctx.storage, async (tx, save) => {
    // Starts of one user are serialised from here to the commit, so concurrent starts cannot pass the cap together.
    await lockUserScope(tx, 'generations', viewer.id);
    if ((await countActive(tx, viewer.id)) >= GENERATION_LIMITS.activePerUser) throw new AppError('GENERATIONS_BUSY');
    const runId = await insertGeneration(tx, {
      user_id: viewer.id,
      product_id: product.id,
      model_id: product.model_id,
      variant: product.variant,
      product_name: product.name,
      model_name: product.model_name,
      prompt: finalPrompt,
      inputs: JSON.stringify({ param: param?.value ?? null, fields: values }),
      wallet: cost.wallet,
      cost: cost.amount,
    });
    const files = [
      ...(input.image ? [{ file: input.image, role: 'input' as const }] : []),
      ...(input.mask ? [{ file: input.mask, role: 'mask' as const }] : []),
    ];
    for (const { file, role } of files) {
      const stored = await save({ ownerId: viewer.id, purpose: 'generation_input', body: file.data, contentType: file.mime, originalName: file.name });
      await addRunFile(tx, runId, stored.id, role, 0);
    }
    if (cost.amount > 0) {
      const hold = await placeHold(tx, { userId: viewer.id, kind: cost.wallet, amount: cost.amount, idempotencyKey: `generation:${String(runId)}`, refType: 'generation', refId: runId });
      await setRunHold(tx, runId, hold.id);
    }
    await ctx.jobs.send(generationJob, { generationId: runId }, { tx });
    return runId;
  });
  return generationOf(ctx, viewer.id, id);
}

/**
 * Cancels a run of the viewer (`cancelRun`): a queued one gives its tokens back, a running
 * prediction (a video) keeps what its provider's time so far costs. Another running run cannot be (409).
 */
export async function cancelGeneration(ctx: AppContext, userId: number, id: number): Promise<Generation> {
  const row = await findOwnGeneration(ctx.db, userId, id);
  if (!row) throw new AppError('NOT_FOUND', 'Генерация не найдена');
  const cancelled = await cancelRun(ctx, id);
  const now = await generationOf(ctx, userId, id);
  // Cancelled by this call or by another at the same moment (a double click): either way it is cancelled.
  if (!cancelled && now.status !== 'cancelled') throw new AppError('GENERATION_NOT_CANCELLABLE');
  return now;
}
