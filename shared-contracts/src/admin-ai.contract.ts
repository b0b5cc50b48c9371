import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { IdSchema } from './fields.ts';
import { TimestampSchema, paginated } from './envelope.ts';
import { adminListQuery } from './admin.contract.ts';
import { PRODUCT_VARIANTS } from './catalog.browser.ts';
import { ProductFieldSchema, ProductPriceSchema } from './catalog.contract.ts';
import { MODEL_KINDS, PRODUCT_EXAMPLE_UPLOAD, PROVIDER_PROTOCOLS, adminAiPaths } from './admin-ai.browser.ts';
import {
  AdminAiCategoryCreateSchema,
  AdminAiCategoryUpdateSchema,
  AdminAiModelCreateSchema,
  AdminAiModelUpdateSchema,
  AdminAiProductCreateSchema,
  AdminAiProductUpdateSchema,
  AdminProviderCreateSchema,
  AdminProviderUpdateSchema,
  ProviderModelSchema,
} from './admin-ai-inputs.ts';

/*
 * The admin's AI catalogue (tabs 2–4 and 14): products, their categories, models and provider
 * connections. Bodies are strict (an unknown field is refused), every change is audited.
 */

const IdParams = z.object({ id: IdSchema });

const created = { created_at: TimestampSchema, updated_at: TimestampSchema };

/** What a deletion did: removed the record, or (when runs or chats refer to it) switched it off so the history keeps it. */
export const AdminDeleteResultSchema = z.object({ outcome: z.enum(['deleted', 'deactivated']) });
export type AdminDeleteResult = z.infer<typeof AdminDeleteResultSchema>;

// Categories

export const AI_CATEGORY_SORTS = ['id', 'name', 'sort', 'created_at'] as const;

export const AdminAiCategorySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  sort: z.number().int(),
  active: z.boolean(),
  /** Products in it (any state): a category with products cannot be deleted. */
  products: z.number().int(),
  ...created,
});
export type AdminAiCategory = z.infer<typeof AdminAiCategorySchema>;

// Products

export const AI_PRODUCT_SORTS = ['id', 'name', 'sort', 'created_at'] as const;

export const AdminAiProductsQuerySchema = adminListQuery(AI_PRODUCT_SORTS, 'id').extend({
  category_id: z.optional(IdSchema),
  variant: z.enum(PRODUCT_VARIANTS, { error: `Вариант: ${PRODUCT_VARIANTS.join(', ')}` }).optional(),
});

export const AdminAiProductSchema = z.object({
  id: z.number().int(),
  category_id: z.number().int(),
  category: z.string(),
  variant: z.enum(PRODUCT_VARIANTS),
  name: z.string(),
  description: z.string(),
  prompt_template: z.string(),
  /** As the runtime reads them (`product-fields.ts`). */
  fields: z.array(ProductFieldSchema),
  model_id: z.number().int(),
  model: z.string(),
  model_kind: z.enum(MODEL_KINDS),
  /** What the catalogue shows users as its price (the same figure: a text product's most, its template included). */
  price: ProductPriceSchema,
  /** The model's provider connection. */
  connection: z.string(),
  /** Why users do not see it though it is switched on: its category, model or connection is off (the catalogue shows only what is on all along); null when they see it or it is off itself. */
  hidden_because: z.enum(['category', 'model', 'connection']).nullable(),
  /** The example image for admins (`/api/new/files/{id}`), or null. */
  example_url: z.string().nullable(),
  sort: z.number().int(),
  active: z.boolean(),
  ...created,
});
export type AdminAiProduct = z.infer<typeof AdminAiProductSchema>;

// Models

export const AI_MODEL_SORTS = ['id', 'name', 'kind', 'sort', 'created_at'] as const;

export const AdminAiModelsQuerySchema = adminListQuery(AI_MODEL_SORTS, 'id').extend({
  kind: z.enum(MODEL_KINDS, { error: `Тип: ${MODEL_KINDS.join(', ')}` }).optional(),
  connection_id: z.optional(IdSchema),
});

export const AdminAiModelSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(MODEL_KINDS),
  connection_id: z.number().int(),
  connection: z.string(),
  protocol: z.enum(PROVIDER_PROTOCOLS),
  provider_model: z.string(),
  /** Words charged per provider token (chat and text models). */
  words_per_token: z.number(),
  /** Media tokens (one decimal) per image or per generation. */
  media_price: z.number(),
  /** Media tokens (one decimal) per second of video, for models that take a duration. */
  media_per_second: z.number(),
  max_output_tokens: z.number().int(),
  /** Chat models: the chat's latest messages sent with a new one (null: the service's window of `HISTORY_MAX_MESSAGES`; 0: none). */
  history_messages: z.number().int().nullable(),
  /** As the runtime reads it. */
  setting: z.object({ model: z.object({ params: z.array(z.object({ value: z.string(), label: z.string(), temperature: z.number().optional(), max_output_tokens: z.number().int().optional(), provider: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional() })) }) }),
  description: z.string(),
  sort: z.number().int(),
  active: z.boolean(),
  /** Products running on it: a model with products cannot be deleted, nor change its kind away from theirs. */
  products: z.number().int(),
  ...created,
});
export type AdminAiModel = z.infer<typeof AdminAiModelSchema>;


// Provider connections

export const PROVIDER_SORTS = ['id', 'name', 'created_at'] as const;

export const AdminProviderSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  protocol: z.enum(PROVIDER_PROTOCOLS),
  base_url: z.string().nullable(),
  /** The name of the environment variable holding the key; the key itself is never shown. */
  api_key_env: z.string().nullable(),
  /** Whether that variable is set on the server. */
  key_set: z.boolean(),
  timeout_seconds: z.number().int(),
  active: z.boolean(),
  /** Models on this connection: a connection with models cannot be deleted. */
  models: z.number().int(),
  ...created,
});
export type AdminProvider = z.infer<typeof AdminProviderSchema>;

/** The test call's model: by default the connection's first chat or text model (the demo needs none). */
export const ProviderTestSchema = z
  .object({ model: z.optional(ProviderModelSchema) })
  .strict()
  .default({});

/** What a test call found: how long the provider took, and its answer or why it failed (in Russian). */
export const ProviderTestResultSchema = z.object({
  ok: z.boolean(),
  latency_ms: z.number().int(),
  /** The provider model the call used (null for an account check). */
  model: z.string().nullable(),
  answer: z.string().nullable(),
  error: z.string().nullable(),
});
export type ProviderTestResult = z.infer<typeof ProviderTestResultSchema>;

/** Admin calls of the AI catalogue (`/api/admin/ai-*`, `/api/admin/providers`): admins only; every change in the audit log. */
export const adminAiRoutes = {
  products: defineRoute({
    ...adminAiPaths.products,
    summary: 'AI products, 20 a page: search by name (q), filter by category_id and variant, sort by id, name, sort or created_at',
    tags: ['admin'],
    query: AdminAiProductsQuerySchema,
    response: paginated(AdminAiProductSchema),
  }),
  product: defineRoute({
    ...adminAiPaths.product,
    summary: 'One AI product, active or not',
    tags: ['admin'],
    params: IdParams,
    response: AdminAiProductSchema,
  }),
  createProduct: defineRoute({
    ...adminAiPaths.createProduct,
    summary: 'Creates an AI product (its model must be of the variant’s kind; template fields as the runtime reads them); audited',
    tags: ['admin'],
    body: AdminAiProductCreateSchema,
    response: AdminAiProductSchema,
  }),
  updateProduct: defineRoute({
    ...adminAiPaths.updateProduct,
    summary: 'Changes an AI product (any of its fields); audited',
    tags: ['admin'],
    params: IdParams,
    body: AdminAiProductUpdateSchema,
    response: AdminAiProductSchema,
  }),
  deleteProduct: defineRoute({
    ...adminAiPaths.deleteProduct,
    summary: 'Deletes an AI product with its example image, or switches it off when runs refer to it (the history keeps it); audited',
    tags: ['admin'],
    params: IdParams,
    response: AdminDeleteResultSchema,
  }),
  uploadExample: defineRoute({
    ...adminAiPaths.uploadExample,
    summary: 'Sets a product’s example image (multipart: image, PNG, JPEG or WebP by content); the previous one is deleted; audited',
    tags: ['admin'],
    params: IdParams,
    multipart: PRODUCT_EXAMPLE_UPLOAD,
    response: AdminAiProductSchema,
  }),
  deleteExample: defineRoute({
    ...adminAiPaths.deleteExample,
    summary: 'Removes a product’s example image; audited',
    tags: ['admin'],
    params: IdParams,
    response: AdminAiProductSchema,
  }),
  categories: defineRoute({
    ...adminAiPaths.categories,
    summary: 'AI product categories, 20 a page: search by name (q), sort by id, name, sort or created_at',
    tags: ['admin'],
    query: adminListQuery(AI_CATEGORY_SORTS, 'id'),
    response: paginated(AdminAiCategorySchema),
  }),
  category: defineRoute({
    ...adminAiPaths.category,
    summary: 'One AI product category',
    tags: ['admin'],
    params: IdParams,
    response: AdminAiCategorySchema,
  }),
  createCategory: defineRoute({
    ...adminAiPaths.createCategory,
    summary: 'Creates an AI product category; audited',
    tags: ['admin'],
    body: AdminAiCategoryCreateSchema,
    response: AdminAiCategorySchema,
  }),
  updateCategory: defineRoute({
    ...adminAiPaths.updateCategory,
    summary: 'Changes an AI product category; audited',
    tags: ['admin'],
    params: IdParams,
    body: AdminAiCategoryUpdateSchema,
    response: AdminAiCategorySchema,
  }),
  deleteCategory: defineRoute({
    ...adminAiPaths.deleteCategory,
    summary: 'Deletes an AI product category without products (one with products is refused, 409); audited',
    tags: ['admin'],
    params: IdParams,
    response: AdminDeleteResultSchema,
  }),
  models: defineRoute({
    ...adminAiPaths.models,
    summary: 'AI models, 20 a page: search by name or provider model (q), filter by kind and connection_id, sort by id, name, kind, sort or created_at',
    tags: ['admin'],
    query: AdminAiModelsQuerySchema,
    response: paginated(AdminAiModelSchema),
  }),
  model: defineRoute({
    ...adminAiPaths.model,
    summary: 'One AI model with its prices and parameter choices',
    tags: ['admin'],
    params: IdParams,
    response: AdminAiModelSchema,
  }),
  createModel: defineRoute({
    ...adminAiPaths.createModel,
    summary: 'Creates an AI model (its connection must run its kind; setting.model.params checked by the runtime’s reader); audited; running processes drop their model cache',
    tags: ['admin'],
    body: AdminAiModelCreateSchema,
    response: AdminAiModelSchema,
  }),
  updateModel: defineRoute({
    ...adminAiPaths.updateModel,
    summary: 'Changes an AI model; audited; running processes drop their model cache',
    tags: ['admin'],
    params: IdParams,
    body: AdminAiModelUpdateSchema,
    response: AdminAiModelSchema,
  }),
  deleteModel: defineRoute({
    ...adminAiPaths.deleteModel,
    summary: 'Deletes an AI model, or switches it off when runs or chats refer to it; one with products is refused (409); audited',
    tags: ['admin'],
    params: IdParams,
    response: AdminDeleteResultSchema,
  }),
  providers: defineRoute({
    ...adminAiPaths.providers,
    summary: 'Provider connections, 20 a page: search by name (q), sort by id, name or created_at; keys only by variable name and whether it is set',
    tags: ['admin'],
    query: adminListQuery(PROVIDER_SORTS, 'id'),
    response: paginated(AdminProviderSchema),
  }),
  provider: defineRoute({
    ...adminAiPaths.provider,
    summary: 'One provider connection',
    tags: ['admin'],
    params: IdParams,
    response: AdminProviderSchema,
  }),
  createProvider: defineRoute({
    ...adminAiPaths.createProvider,
    summary: 'Creates a provider connection; the key is named by an environment variable, never sent; audited',
    tags: ['admin'],
    body: AdminProviderCreateSchema,
    response: AdminProviderSchema,
  }),
  updateProvider: defineRoute({
    ...adminAiPaths.updateProvider,
    summary: 'Changes a provider connection; audited; running processes drop their model cache',
    tags: ['admin'],
    params: IdParams,
    body: AdminProviderUpdateSchema,
    response: AdminProviderSchema,
  }),
  deleteProvider: defineRoute({
    ...adminAiPaths.deleteProvider,
    summary: 'Deletes a provider connection without models (one with models is refused, 409); audited',
    tags: ['admin'],
    params: IdParams,
    response: AdminDeleteResultSchema,
  }),
  testProvider: defineRoute({
    ...adminAiPaths.testProvider,
    summary:
      'A small real request through the connection (a one-line chat answer; Replicate: the account), time-limited: {ok, latency_ms, answer | error}',
    tags: ['admin'],
    params: IdParams,
    body: ProviderTestSchema,
    response: ProviderTestResultSchema,
  }),
} as const;
