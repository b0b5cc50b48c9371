import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { IdSchema } from './fields.ts';
import { TimestampSchema, paginated } from './envelope.ts';
import { PRODUCT_VARIANTS } from './catalog.browser.ts';
import * as zm from 'zod/mini';
import { GENERATION_LIMITS, GENERATION_UPLOADS, generationPaths } from './generation.browser.ts';

export * from './generation.browser.ts';

/**
 * The text fields of a run: the product, the parameter choice, the prompt (variants with one)
 * and the template's field values as a JSON object (`img_3`, `text_1`).
 */
export const GenerationStartFieldsSchema = zm.object({
  product_id: IdSchema,
  param: zm.optional(zm.string().check(zm.maxLength(200, 'Слишком длинный параметр'))),
  prompt: zm.optional(zm.string().check(zm.trim(), zm.maxLength(GENERATION_LIMITS.promptMaxLength, 'Не длиннее 2000 символов'))),
  fields: zm.optional(zm.string().check(zm.maxLength(20_000, 'Слишком длинные поля'))),
});

/** A file a run produced, read back only by its owner through the file route. */
export const GenerationOutputSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  download_url: z.string(),
  kind: z.enum(['image', 'video']),
  mime: z.string(),
});

/**
 * A run: `queued` → `running` (with `progress` 0–100) → `succeeded` (outputs or text), or
 * `failed` (with why, its tokens back) or `cancelled` (before it ran, its tokens back). `cost`:
 * what it holds or spent, in media tokens (one decimal) or words.
 */
export const GenerationSchema = z.object({
  id: z.number().int(),
  product_id: z.number().int().nullable(),
  product: z.string(),
  variant: z.enum(PRODUCT_VARIANTS),
  model: z.string(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
  progress: z.number().int(),
  prompt: z.string(),
  cost: z.object({ wallet: z.enum(['words', 'media']), amount: z.number() }),
  /** Whether its tokens came back (failed or cancelled). */
  refunded: z.boolean(),
  error: z.string().nullable(),
  outputs: z.array(GenerationOutputSchema),
  text: z.string().nullable(),
  created_at: TimestampSchema,
  finished_at: TimestampSchema.nullable(),
});
export type Generation = z.infer<typeof GenerationSchema>;

export const GenerationHistoryQuerySchema = z.object({
  type: z.enum(['image', 'video', 'text'], { error: 'Тип: image, video или text' }).default('image'),
  page: z.coerce.number({ error: 'Номер страницы должен быть числом' }).int('Номер страницы должен быть целым').min(1, 'Номер страницы должен быть не меньше 1').max(100_000, 'Слишком большой номер страницы').default(1),
});

const IdParams = z.object({ id: IdSchema });

/** What a Replicate webhook did: `finished` its run, or was `ignored` (not final, unknown prediction, run already ended, outputs left to polling). */
export const ReplicateWebhookReplySchema = z.object({ result: z.enum(['finished', 'ignored']) });

/** The query of a webhook's address: the run whose prediction it is and the token the service made for it. */
export const ReplicateWebhookQuerySchema = z.object({ run: IdSchema, token: z.string().max(100) });

export const generationRoutes = {
  start: defineRoute({
    ...generationPaths.start,
    summary: 'Starts a run of a product (multipart: product_id, param, prompt, fields as a JSON object, image, mask): holds its price and queues it; answers at once',
    tags: ['generations'],
    body: GenerationStartFieldsSchema,
    multipart: GENERATION_UPLOADS,
    response: GenerationSchema,
  }),
  history: defineRoute({
    ...generationPaths.history,
    summary: 'The user’s runs of one type (image, video or text), newest first, 24 a page',
    tags: ['generations'],
    query: GenerationHistoryQuerySchema,
    response: paginated(GenerationSchema),
  }),
  status: defineRoute({
    ...generationPaths.status,
    summary: 'One of the user’s runs: its status, progress, outputs or why it failed',
    tags: ['generations'],
    params: IdParams,
    response: GenerationSchema,
  }),
  events: defineRoute({
    ...generationPaths.events,
    summary: 'One of the user’s runs as it goes (Server-Sent Events): `progress` whenever its status or progress changes, then `done` with the run once it is final',
    tags: ['generations'],
    params: IdParams,
    stream: {
      events: {
        progress: z.object({ status: z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']), progress: z.number().int() }),
        done: GenerationSchema,
      },
    },
    response: z.null(),
  }),
  cancel: defineRoute({
    ...generationPaths.cancel,
    summary: 'Cancels a queued run; its tokens come back',
    tags: ['generations'],
    params: IdParams,
    response: GenerationSchema,
  }),
  replicateWebhook: defineRoute({
    ...generationPaths.replicateWebhook,
    signed: true,
    raw: true,
    summary:
      'Replicate prediction webhooks at the address given with each prediction (`run` and its `token`; without a valid pair, the signature headers or the secret, 401 before the body is read; a body over 48 MB: 413) (webhook-id, webhook-timestamp, webhook-signature: HMAC-SHA256 with REPLICATE_WEBHOOK_SECRET, 5 minutes of tolerance); the body is the prediction as JSON. A completed one finishes its run as polling would, once; `ignored`: not final, unknown, of another run or already finished',
    tags: ['generations'],
    query: ReplicateWebhookQuerySchema,
    response: ReplicateWebhookReplySchema,
  }),
} as const;
