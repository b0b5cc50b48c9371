import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { TimestampSchema, paginated } from './envelope.ts';
import { adminListQuery } from './admin.contract.ts';
import { PRODUCT_VARIANTS } from './catalog.browser.ts';
import { ProductFieldSchema } from './catalog.contract.ts';
import { MODEL_KINDS, PRODUCT_EXAMPLE_UPLOAD, PROVIDER_KEY_ENV, PROVIDER_PROTOCOLS, adminAiPaths } from './admin-ai.browser.ts';

/*
 * The admin's AI catalogue (tabs 2–4 and 14): products, their categories, models and provider
 * connections. Bodies are strict (an unknown field is refused), every change is audited.
 */

const INVALID_ID = 'Неверный идентификатор';
const INT4_MAX = 2_147_483_647;

/** An id of a catalogue table (integer columns): a number in JSON bodies. */
const RefId = (message: string) => z.number({ error: message }).int(message).positive(message).max(INT4_MAX, message);

/** An id in a path or query: digits, within the catalogue's integer ids. */
const PathId = z.coerce.number({ error: INVALID_ID }).int(INVALID_ID).positive(INVALID_ID).max(INT4_MAX, INVALID_ID);
const IdParams = z.object({ id: PathId });

const name = (what: string) => z.string({ error: `Укажите ${what}` }).trim().min(1, `Укажите ${what}`).max(100, 'Не длиннее 100 символов');
const description = z.string({ error: 'Описание — строка' }).trim().max(2000, 'Не длиннее 2000 символов');
const sort = z.number({ error: 'Порядок — целое число' }).int('Порядок — целое число').min(-1_000_000, 'Не меньше −1 000 000').max(1_000_000, 'Не больше 1 000 000');
const active = z.boolean({ error: 'Укажите true или false' });

/** Media tokens with at most one decimal (stored in tenths). */
const mediaAmount = (what: string) =>
  z
    .number({ error: `${what}: число` })
    .min(0, `${what}: не меньше 0`)
    .max(1_000_000, `${what}: не больше 1 000 000`)
    .refine((n) => Math.abs(n * 10 - Math.round(n * 10)) < 1e-9, `${what}: не больше одного знака после запятой`);

/** A change of a record: at least one field. */
const someField = (body: Record<string, unknown>) => Object.values(body).some((v) => v !== undefined);
const NOTHING_TO_CHANGE = 'Укажите, что изменить';

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

const categoryFields = { name: name('название'), description, sort, active };

export const AdminAiCategoryCreateSchema = z
  .object({ ...categoryFields, description: description.default(''), sort: sort.default(0), active: active.default(true) })
  .strict();
export const AdminAiCategoryUpdateSchema = z
  .object({
    name: categoryFields.name.optional(),
    description: description.optional(),
    sort: sort.optional(),
    active: active.optional(),
  })
  .strict()
  .refine(someField, NOTHING_TO_CHANGE);

// Products

export const AI_PRODUCT_SORTS = ['id', 'name', 'sort', 'created_at'] as const;

export const AdminAiProductsQuerySchema = adminListQuery(AI_PRODUCT_SORTS, 'id').extend({
  category_id: PathId.optional(),
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
  /** The example image for admins (`/api/new/files/{id}`), or null. */
  example_url: z.string().nullable(),
  sort: z.number().int(),
  active: z.boolean(),
  ...created,
});
export type AdminAiProduct = z.infer<typeof AdminAiProductSchema>;

/** A template field as the editor sends it; the runtime's reader must keep it as it is. */
export const AdminProductFieldSchema = z
  .object({
    name: z
      .string({ error: 'Укажите имя поля' })
      .regex(/^[a-z][a-z0-9_]{0,39}$/, 'Имя поля: строчные латинские буквы, цифры и _, с буквы, до 40 символов'),
    label: z.string({ error: 'Укажите подпись поля' }).trim().min(1, 'Укажите подпись поля').max(100, 'Подпись поля: не длиннее 100 символов'),
    placeholder: z.string({ error: 'Подсказка — строка' }).max(200, 'Подсказка: не длиннее 200 символов').default(''),
    multiline: z.boolean({ error: 'multiline: true или false' }).default(false),
    required: z.boolean({ error: 'required: true или false' }).default(true),
    max_length: z.number({ error: 'Длина поля — целое число' }).int('Длина поля — целое число').min(1, 'Длина поля: от 1').max(5000, 'Длина поля: до 5000').default(500),
  })
  .strict();

const variant = z.enum(PRODUCT_VARIANTS, { error: `Вариант: ${PRODUCT_VARIANTS.join(', ')}` });
const promptTemplate = z.string({ error: 'Шаблон — строка' }).max(5000, 'Не длиннее 5000 символов');
const productFields = z.array(AdminProductFieldSchema, { error: 'Поля — список' }).max(20, 'Не больше 20 полей');

/**
 * A new product. The server checks what one field cannot: the model's kind suits the variant
 * (`VARIANT_MODEL_KIND`), the template and its fields match (every `{name}` is a field, every field
 * is used) for the variants with fields (`img_3`, `text_1`), and others have no fields.
 */
export const AdminAiProductCreateSchema = z
  .object({
    category_id: RefId('Выберите категорию'),
    variant,
    name: name('название'),
    description: description.default(''),
    prompt_template: promptTemplate.default(''),
    fields: productFields.default([]),
    model_id: RefId('Выберите модель'),
    sort: sort.default(0),
    active: active.default(true),
  })
  .strict();

export const AdminAiProductUpdateSchema = z
  .object({
    category_id: RefId('Выберите категорию').optional(),
    variant: variant.optional(),
    name: name('название').optional(),
    description: description.optional(),
    prompt_template: promptTemplate.optional(),
    fields: productFields.optional(),
    model_id: RefId('Выберите модель').optional(),
    sort: sort.optional(),
    active: active.optional(),
  })
  .strict()
  .refine(someField, NOTHING_TO_CHANGE);

// Models

export const AI_MODEL_SORTS = ['id', 'name', 'kind', 'sort', 'created_at'] as const;

export const AdminAiModelsQuerySchema = adminListQuery(AI_MODEL_SORTS, 'id').extend({
  kind: z.enum(MODEL_KINDS, { error: `Тип: ${MODEL_KINDS.join(', ')}` }).optional(),
  connection_id: PathId.optional(),
});

const scalar = z.union([z.string().max(500, 'Не длиннее 500 символов'), z.number().refine(Number.isFinite, 'Число'), z.boolean()], {
  error: 'Значение: строка, число или true/false',
});

/**
 * One choice of a model's parameter (`setting.model.params`): what the user sees (`label`), its
 * key (`value`), and what it changes: `temperature` (0–2), a smaller answer limit, and anything
 * passed to the provider as it is (`size`, `quality`, `duration`, `n`…).
 */
export const ModelParamSchema = z
  .object({
    value: z.string({ error: 'Укажите значение варианта' }).trim().min(1, 'Укажите значение варианта').max(100, 'Значение: не длиннее 100 символов'),
    label: z.string({ error: 'Укажите подпись варианта' }).trim().min(1, 'Укажите подпись варианта').max(200, 'Подпись: не длиннее 200 символов'),
    temperature: z.number({ error: 'Температура — число' }).min(0, 'Температура: от 0 до 2').max(2, 'Температура: от 0 до 2').optional(),
    max_output_tokens: z.number({ error: 'Лимит ответа — целое число' }).int('Лимит ответа — целое число').min(1, 'Лимит ответа: от 1').max(200_000, 'Лимит ответа: до 200 000').optional(),
    provider: z
      .record(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'Параметр провайдера: строчные латинские буквы, цифры и _'), scalar, { error: 'Параметры провайдера — объект' })
      .refine((r) => Object.keys(r).length <= 20, 'Не больше 20 параметров провайдера')
      .optional(),
  })
  .strict();
export type ModelParamInput = z.infer<typeof ModelParamSchema>;

/** `{model: {params: [...]}}`, the seed's shape; the server checks it with the runtime's reader (`model-setting.ts`). */
export const ModelSettingSchema = z
  .object({
    model: z.object({ params: z.array(ModelParamSchema, { error: 'Варианты — список' }).max(50, 'Не больше 50 вариантов') }, { error: 'Ожидается {model: {params: [...]}}' }).strict(),
  }, { error: 'Ожидается {model: {params: [...]}}' })
  .strict();

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

const kind = z.enum(MODEL_KINDS, { error: `Тип: ${MODEL_KINDS.join(', ')}` });
const providerModel = z.string({ error: 'Укажите модель провайдера' }).trim().min(1, 'Укажите модель провайдера').max(200, 'Не длиннее 200 символов');
const wordsPerToken = z
  .number({ error: 'Слов за токен: число' })
  .min(0, 'Слов за токен: не меньше 0')
  .max(1000, 'Слов за токен: не больше 1000')
  .refine((n) => Math.abs(n * 10_000 - Math.round(n * 10_000)) < 1e-6, 'Слов за токен: не больше четырёх знаков после запятой');
const maxOutputTokens = z.number({ error: 'Лимит ответа — целое число' }).int('Лимит ответа — целое число').min(1, 'Лимит ответа: от 1').max(200_000, 'Лимит ответа: до 200 000');

/** A new model. The server checks that its connection's protocol can run its kind (`KIND_PROTOCOLS`). */
export const AdminAiModelCreateSchema = z
  .object({
    name: name('название'),
    kind,
    connection_id: RefId('Выберите подключение'),
    provider_model: providerModel,
    words_per_token: wordsPerToken.default(1),
    media_price: mediaAmount('Цена').default(0),
    media_per_second: mediaAmount('Цена секунды').default(0),
    max_output_tokens: maxOutputTokens.default(2048),
    setting: ModelSettingSchema.default({ model: { params: [] } }),
    description: description.default(''),
    sort: sort.default(0),
    active: active.default(true),
  })
  .strict();

export const AdminAiModelUpdateSchema = z
  .object({
    name: name('название').optional(),
    kind: kind.optional(),
    connection_id: RefId('Выберите подключение').optional(),
    provider_model: providerModel.optional(),
    words_per_token: wordsPerToken.optional(),
    media_price: mediaAmount('Цена').optional(),
    media_per_second: mediaAmount('Цена секунды').optional(),
    max_output_tokens: maxOutputTokens.optional(),
    setting: ModelSettingSchema.optional(),
    description: description.optional(),
    sort: sort.optional(),
    active: active.optional(),
  })
  .strict()
  .refine(someField, NOTHING_TO_CHANGE);

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

const BASE_URL_MESSAGE = 'Адрес API: http(s)://…, без логина, пароля и параметров запроса';
const baseUrl = z
  .string({ error: BASE_URL_MESSAGE })
  .trim()
  .max(500, 'Не длиннее 500 символов')
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && !url.search && !url.hash && /^https?:\/\//.test(value);
    } catch {
      return false;
    }
  }, BASE_URL_MESSAGE)
  .nullable();
const apiKeyEnv = z
  .string({ error: 'Имя переменной окружения — строка' })
  .max(100, 'Не длиннее 100 символов')
  .regex(PROVIDER_KEY_ENV, 'Имя переменной окружения: заглавные латинские буквы, цифры и _, на конце _API_KEY или _API_TOKEN (сам ключ сюда не вводится)')
  .nullable();
const timeoutSeconds = z.number({ error: 'Тайм-аут — целое число секунд' }).int('Тайм-аут — целое число секунд').min(1, 'Тайм-аут: от 1 секунды').max(3600, 'Тайм-аут: до 3600 секунд');
const protocol = z.enum(PROVIDER_PROTOCOLS, { error: `Протокол: ${PROVIDER_PROTOCOLS.join(', ')}` });

/** A key's value is never accepted: these fields are refused with a message saying where keys go. */
const NO_KEY = z.never({ error: 'Ключ не передаётся в запросе: укажите в api_key_env имя переменной окружения, в которой он задан на сервере' }).optional();
const noKeyFields = { api_key: NO_KEY, api_token: NO_KEY, key: NO_KEY, token: NO_KEY, secret: NO_KEY };

/** A new connection: a remote one (OpenAI-compatible, Replicate) needs its base URL and its key's variable. */
export const AdminProviderCreateSchema = z
  .object({
    name: name('название'),
    protocol,
    base_url: baseUrl.default(null),
    api_key_env: apiKeyEnv.default(null),
    timeout_seconds: timeoutSeconds.default(60),
    active: active.default(true),
    ...noKeyFields,
  })
  .strict();

export const AdminProviderUpdateSchema = z
  .object({
    name: name('название').optional(),
    protocol: protocol.optional(),
    base_url: baseUrl.optional(),
    api_key_env: apiKeyEnv.optional(),
    timeout_seconds: timeoutSeconds.optional(),
    active: active.optional(),
    ...noKeyFields,
  })
  .strict()
  .refine(someField, NOTHING_TO_CHANGE);

/** The test call's model: by default the connection's first chat or text model (the demo needs none). */
export const ProviderTestSchema = z
  .object({ model: providerModel.optional() })
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
