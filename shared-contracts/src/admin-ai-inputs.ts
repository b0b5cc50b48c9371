import * as z from 'zod/mini';
import { HISTORY_MAX_MESSAGES, MODEL_KINDS, PROVIDER_KEY_ENV, PROVIDER_PROTOCOLS } from './admin-ai.browser.ts';
import { PRODUCT_VARIANTS } from './catalog.browser.ts';
import { MAX_ID, storableText } from './fields.ts';
import { NOTHING_TO_CHANGE, integer, someField, text } from './admin-input-fields.ts';

/*
 * What staff send to the AI catalogue: categories, products with their template fields, models
 * with their parameter choices, and provider connections (strict bodies, as in `admin-inputs.ts`).
 */

// The AI catalogue (tabs 2–4 and 14)

/** An id of a catalogue table (integer columns): a number in JSON bodies. */
const RefId = (message: string) => integer(message, z.positive(message), z.lte(MAX_ID, message));

const name = (what: string) => text(`Укажите ${what}`, 100, 'Не длиннее 100 символов', 1);
const description = text('Описание — строка', 2000, 'Не длиннее 2000 символов');
const sort = integer('Порядок — целое число', z.gte(-1_000_000, 'Не меньше −1 000 000'), z.lte(1_000_000, 'Не больше 1 000 000'));
const active = z.boolean({ error: 'Укажите true или false' });

/** Media tokens with at most one decimal (stored in tenths). */
const mediaAmount = (what: string) =>
  z
    .number({ error: `${what}: число` })
    .check(z.gte(0, `${what}: не меньше 0`), z.lte(1_000_000, `${what}: не больше 1 000 000`), z.refine((n) => Math.abs(n * 10 - Math.round(n * 10)) < 1e-9, `${what}: не больше одного знака после запятой`));

const categoryFields = { name: name('название'), description, sort, active };

export const AdminAiCategoryCreateSchema = z.strictObject({
  name: categoryFields.name,
  description: z._default(description, ''),
  sort: z._default(sort, 0),
  active: z._default(active, true),
});
export const AdminAiCategoryUpdateSchema = z
  .strictObject({
    name: z.optional(categoryFields.name),
    description: z.optional(description),
    sort: z.optional(sort),
    active: z.optional(active),
  })
  .check(z.refine(someField, NOTHING_TO_CHANGE));

/** A template field as the editor sends it; the runtime's reader must keep it as it is. */
export const AdminProductFieldSchema = z.strictObject({
  name: z.string({ error: 'Укажите имя поля' }).check(z.regex(/^[a-z][a-z0-9_]{0,39}$/, 'Имя поля: строчные латинские буквы, цифры и _, с буквы, до 40 символов')),
  label: text('Укажите подпись поля', 100, 'Подпись поля: не длиннее 100 символов', 1),
  placeholder: z._default(z.string({ error: 'Подсказка — строка' }).check(z.maxLength(200, 'Подсказка: не длиннее 200 символов'), storableText()), ''),
  multiline: z._default(z.boolean({ error: 'multiline: true или false' }), false),
  required: z._default(z.boolean({ error: 'required: true или false' }), true),
  max_length: z._default(integer('Длина поля — целое число', z.gte(1, 'Длина поля: от 1'), z.lte(5000, 'Длина поля: до 5000')), 500),
});
export type AdminProductFieldInput = z.input<typeof AdminProductFieldSchema>;

const variant = z.enum(PRODUCT_VARIANTS, { error: `Вариант: ${PRODUCT_VARIANTS.join(', ')}` });
const promptTemplate = z.string({ error: 'Шаблон — строка' }).check(z.maxLength(5000, 'Не длиннее 5000 символов'), storableText());
const productFields = z.array(AdminProductFieldSchema, { error: 'Поля — список' }).check(z.maxLength(20, 'Не больше 20 полей'));

/**
 * A new product. The server checks what one field cannot: the model's kind suits the variant
 * (`VARIANT_MODEL_KIND`), the template and its fields match (every `{name}` is a field, every field
 * is used) for the variants with fields (`img_3`, `text_1`), and others have no fields.
 */
export const AdminAiProductCreateSchema = z.strictObject({
  category_id: RefId('Выберите категорию'),
  variant,
  name: name('название'),
  description: z._default(description, ''),
  prompt_template: z._default(promptTemplate, ''),
  fields: z._default(productFields, []),
  model_id: RefId('Выберите модель'),
  sort: z._default(sort, 0),
  active: z._default(active, true),
});

export const AdminAiProductUpdateSchema = z
  .strictObject({
    category_id: z.optional(RefId('Выберите категорию')),
    variant: z.optional(variant),
    name: z.optional(name('название')),
    description: z.optional(description),
    prompt_template: z.optional(promptTemplate),
    fields: z.optional(productFields),
    model_id: z.optional(RefId('Выберите модель')),
    sort: z.optional(sort),
    active: z.optional(active),
  })
  .check(z.refine(someField, NOTHING_TO_CHANGE));

const scalar = z.union([z.string().check(z.maxLength(500, 'Не длиннее 500 символов'), storableText()), z.number().check(z.refine(Number.isFinite, 'Число')), z.boolean()], {
  error: 'Значение: строка, число или true/false',
});
const maxOutputTokens = integer('Лимит ответа — целое число', z.gte(1, 'Лимит ответа: от 1'), z.lte(200_000, 'Лимит ответа: до 200 000'));
/**
 * Chat models: how many of the chat's latest messages go to the model with a new one (null — the
 * service's window, the latest `HISTORY_MAX_MESSAGES` within 24 000 characters; 0 — none).
 */
const historyMessages = z.nullable(
  integer('Сообщений истории — целое число', z.gte(0, `Сообщений истории: от 0 до ${String(HISTORY_MAX_MESSAGES)}`), z.lte(HISTORY_MAX_MESSAGES, `Сообщений истории: от 0 до ${String(HISTORY_MAX_MESSAGES)}`)),
);

/**
 * One choice of a model's parameter (`setting.model.params`): what the user sees (`label`), its
 * key (`value`), and what it changes: `temperature` (0–2), a smaller answer limit, and anything
 * passed to the provider as it is (`size`, `quality`, `duration`, `n`…).
 */
export const ModelParamSchema = z.strictObject({
  value: text('Укажите значение варианта', 100, 'Значение: не длиннее 100 символов', 1),
  label: text('Укажите подпись варианта', 200, 'Подпись: не длиннее 200 символов', 1),
  temperature: z.optional(z.number({ error: 'Температура — число' }).check(z.gte(0, 'Температура: от 0 до 2'), z.lte(2, 'Температура: от 0 до 2'))),
  max_output_tokens: z.optional(maxOutputTokens),
  provider: z.optional(
    z
      .record(z.string().check(z.regex(/^[a-z][a-z0-9_]{0,63}$/, 'Параметр провайдера: строчные латинские буквы, цифры и _')), scalar, { error: 'Параметры провайдера — объект' })
      .check(z.refine((r) => Object.keys(r).length <= 20, 'Не больше 20 параметров провайдера')),
  ),
});
export type ModelParamInput = z.infer<typeof ModelParamSchema>;

const SETTING_SHAPE = 'Ожидается {model: {params: [...]}}';

/** `{model: {params: [...]}}`, the seed's shape; the server checks it with the runtime's reader (`model-setting.ts`). */
export const ModelSettingSchema = z.strictObject(
  { model: z.strictObject({ params: z.array(ModelParamSchema, { error: 'Варианты — список' }).check(z.maxLength(50, 'Не больше 50 вариантов')) }, { error: SETTING_SHAPE }) },
  { error: SETTING_SHAPE },
);

const kind = z.enum(MODEL_KINDS, { error: `Тип: ${MODEL_KINDS.join(', ')}` });
/** A model id at the provider (also the test call's model). */
export const ProviderModelSchema = text('Укажите модель провайдера', 200, 'Не длиннее 200 символов', 1);
const wordsPerToken = z
  .number({ error: 'Слов за токен: число' })
  .check(
    z.gte(0, 'Слов за токен: не меньше 0'),
    z.lte(1000, 'Слов за токен: не больше 1000'),
    z.refine((n) => Math.abs(n * 10_000 - Math.round(n * 10_000)) < 1e-6, 'Слов за токен: не больше четырёх знаков после запятой'),
  );

/** A new model. The server checks that its connection's protocol can run its kind (`KIND_PROTOCOLS`). */
export const AdminAiModelCreateSchema = z.strictObject({
  name: name('название'),
  kind,
  connection_id: RefId('Выберите подключение'),
  provider_model: ProviderModelSchema,
  words_per_token: z._default(wordsPerToken, 1),
  media_price: z._default(mediaAmount('Цена'), 0),
  media_per_second: z._default(mediaAmount('Цена секунды'), 0),
  max_output_tokens: z._default(maxOutputTokens, 2048),
  history_messages: z._default(historyMessages, null),
  setting: z._default(ModelSettingSchema, { model: { params: [] } }),
  description: z._default(description, ''),
  sort: z._default(sort, 0),
  active: z._default(active, true),
});

export const AdminAiModelUpdateSchema = z
  .strictObject({
    name: z.optional(name('название')),
    kind: z.optional(kind),
    connection_id: z.optional(RefId('Выберите подключение')),
    provider_model: z.optional(ProviderModelSchema),
    words_per_token: z.optional(wordsPerToken),
    media_price: z.optional(mediaAmount('Цена')),
    media_per_second: z.optional(mediaAmount('Цена секунды')),
    max_output_tokens: z.optional(maxOutputTokens),
    history_messages: z.optional(historyMessages),
    setting: z.optional(ModelSettingSchema),
    description: z.optional(description),
    sort: z.optional(sort),
    active: z.optional(active),
  })
  .check(z.refine(someField, NOTHING_TO_CHANGE));

const BASE_URL_MESSAGE = 'Адрес API: http(s)://…, без логина, пароля и параметров запроса';
const baseUrl = z.nullable(
  z.string({ error: BASE_URL_MESSAGE }).check(
    z.trim(),
    storableText(),
    z.maxLength(500, 'Не длиннее 500 символов'),
    z.refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && !url.search && !url.hash && /^https?:\/\//.test(value);
      } catch {
        return false;
      }
    }, BASE_URL_MESSAGE),
  ),
);
const apiKeyEnv = z.nullable(
  z
    .string({ error: 'Имя переменной окружения — строка' })
    .check(
      z.maxLength(100, 'Не длиннее 100 символов'),
      z.regex(PROVIDER_KEY_ENV, 'Имя переменной окружения: заглавные латинские буквы, цифры и _, на конце _API_KEY или _API_TOKEN (сам ключ сюда не вводится)'),
    ),
);
const timeoutSeconds = integer('Тайм-аут — целое число секунд', z.gte(1, 'Тайм-аут: от 1 секунды'), z.lte(3600, 'Тайм-аут: до 3600 секунд'));
const protocol = z.enum(PROVIDER_PROTOCOLS, { error: `Протокол: ${PROVIDER_PROTOCOLS.join(', ')}` });

/** A key's value is never accepted: these fields are refused with a message saying where keys go. */
const NO_KEY = z.optional(z.never({ error: 'Ключ не передаётся в запросе: укажите в api_key_env имя переменной окружения, в которой он задан на сервере' }));
const noKeyFields = { api_key: NO_KEY, api_token: NO_KEY, key: NO_KEY, token: NO_KEY, secret: NO_KEY };

/** A new connection: a remote one (OpenAI-compatible, Replicate) needs its base URL and its key's variable. */
export const AdminProviderCreateSchema = z.strictObject({
  name: name('название'),
  protocol,
  base_url: z._default(baseUrl, null),
  api_key_env: z._default(apiKeyEnv, null),
  timeout_seconds: z._default(timeoutSeconds, 60),
  active: z._default(active, true),
  ...noKeyFields,
});

export const AdminProviderUpdateSchema = z
  .strictObject({
    name: z.optional(name('название')),
    protocol: z.optional(protocol),
    base_url: z.optional(baseUrl),
    api_key_env: z.optional(apiKeyEnv),
    timeout_seconds: z.optional(timeoutSeconds),
    active: z.optional(active),
    ...noKeyFields,
  })
  .check(z.refine(someField, NOTHING_TO_CHANGE));
