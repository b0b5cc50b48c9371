import * as z from 'zod/mini';
import { IdSchema } from './fields.ts';
import type { Endpoint, MultipartSpec } from './route.ts';

/* What of the generation contract the browser needs: endpoints, limits, the start form's fields and texts. */

/** Largest uploaded image (the user's photo or example), in bytes. */
export const GENERATION_IMAGE_MAX_BYTES = 15 * 1024 * 1024;

export const GENERATION_LIMITS = {
  promptMaxLength: 2000,
  /** Runs of one user queued or running at once. */
  activePerUser: 10,
  /** History page size. */
  pageSize: 24,
} as const;

/** The files of a run: the user's image (`image`, PNG/JPEG/WebP) and the painted mask (`mask`, PNG). */
export const GENERATION_UPLOADS = {
  files: {
    image: { accept: ['png', 'jpeg', 'webp'], maxBytes: GENERATION_IMAGE_MAX_BYTES },
    mask: { accept: ['png'], maxBytes: GENERATION_IMAGE_MAX_BYTES },
  },
  maxFiles: 2,
  maxTotalBytes: 2 * GENERATION_IMAGE_MAX_BYTES,
} as const satisfies MultipartSpec;

/**
 * The text fields of a run: the product, the parameter choice, the prompt (variants with one)
 * and the template's field values as a JSON object (`img_3`, `text_1`).
 */
export const GenerationStartFieldsSchema = z.object({
  product_id: IdSchema,
  param: z.optional(z.string().check(z.maxLength(200, 'Слишком длинный параметр'))),
  prompt: z.optional(z.string().check(z.trim(), z.maxLength(GENERATION_LIMITS.promptMaxLength, 'Не длиннее 2000 символов'))),
  fields: z.optional(z.string().check(z.maxLength(20_000, 'Слишком длинные поля'))),
});

export const generationPaths = {
  start: { method: 'POST', path: '/api/new/generations', access: 'confirmed', multipart: GENERATION_UPLOADS },
  history: { method: 'GET', path: '/api/new/generations', access: 'user' },
  status: { method: 'GET', path: '/api/new/generations/:id', access: 'user' },
  events: { method: 'GET', path: '/api/new/generations/:id/events', access: 'user' },
  cancel: { method: 'POST', path: '/api/new/generations/:id/cancel', access: 'user' },
  replicateWebhook: { method: 'POST', path: '/api/replicate/webhook', access: 'public' },
} as const satisfies Record<string, Endpoint>;

export const GENERATION_TEXTS = {
  failed: 'Не удалось выполнить генерацию',
  refunded: 'Токены возвращены на баланс',
  tooMany: 'Дождитесь окончания текущих генераций: одновременно можно запустить не больше 10',
  notCancellable: 'Генерация уже выполняется: отменить можно только ожидающую в очереди',
} as const;
