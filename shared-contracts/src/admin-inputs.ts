import * as z from 'zod/mini';
import './zod-messages.ts';
import { MODEL_KINDS, PROVIDER_KEY_ENV, PROVIDER_PROTOCOLS } from './admin-ai.browser.ts';
import { ANALYTICS_MAX_DAYS } from './admin-billing.browser.ts';
import { DESCRIPTION_MARKERS } from './billing.browser.ts';
import { PRODUCT_VARIANTS } from './catalog.browser.ts';
import { MAX_ID, storableText } from './fields.ts';

/*
 * What staff send: the body of every change the admin panel makes, written with zod/mini so the
 * panel's editors check values with the very schemas the server validates with (the contracts
 * `admin*.contract.ts` use them in their routes). Bodies are strict: an unknown field is refused.
 */

/** An integer with `message` for anything else (a non-number, a fraction). */
const integer = (message: string, ...checks: z.core.$ZodCheck<number>[]) => z.number({ error: message }).check(z.int(message), ...checks);

/** A text field: trimmed, `min`..`max` characters, nothing the database cannot keep (NUL, lone surrogates). */
const text = (missing: string, max: number, maxMessage: string, min = 0, minMessage = missing) =>
  z.string({ error: missing }).check(z.trim(), ...(min > 0 ? [z.minLength(min, minMessage)] : []), z.maxLength(max, maxMessage), storableText());

const bool = (what: string) => z.boolean({ error: `${what}: true или false` });

/** Whole multiples of `step` (0.01 for kopecks, 0.1 for tenths of a media token), within floating-point error. */
const multipleOf = (step: number) => (n: number) => Math.abs(n / step - Math.round(n / step)) < 1e-6;

/** A change of a record: at least one field. */
const someField = (body: Record<string, unknown>) => Object.values(body).some((v) => v !== undefined);
const NOTHING_TO_CHANGE = 'Укажите, что изменить';

const requestId = z.uuid({ error: 'Идентификатор запроса должен быть UUID' });
const reason = text('Укажите причину', 500, 'Не длиннее 500 символов', 3, 'Опишите причину (от 3 символов)');

// Users (tab 6)

/** A change of a user: role and/or blocked; at least one. */
export const AdminUserUpdateSchema = z
  .strictObject({ role: z.optional(z.enum(['user', 'admin'])), blocked: z.optional(z.boolean({ error: 'Укажите true или false' })) })
  .check(z.refine((b) => b.role !== undefined || b.blocked !== undefined, 'Укажите роль или блокировку'));

/**
 * A balance adjustment: `amount` is added (negative: taken away) to the wallet — words whole,
 * media tokens with one decimal; `reason` is required and kept in the ledger and the audit log;
 * `request_id` (the form's, a UUID) makes a repeated submit apply once.
 */
export const BalanceAdjustmentSchema = z.object({
  wallet: z.enum(['words', 'media'], { error: 'Кошелёк: words или media' }),
  amount: z
    .number({ error: 'Введите сумму: положительную, чтобы начислить, отрицательную, чтобы списать' })
    .check(
      z.refine((n) => n !== 0, 'Сумма не может быть нулевой'),
      z.refine((n) => Math.abs(n) <= 100_000_000, 'Слишком большая сумма'),
      z.refine((n) => Number.isInteger(Math.round(n * 10)) && Math.abs(n * 10 - Math.round(n * 10)) < 1e-9, 'Не больше одного знака после запятой'),
    ),
  reason,
  request_id: requestId,
});
export type AdminBalanceAdjustment = z.output<typeof BalanceAdjustmentSchema>;

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

// Billing and content (tabs 5, 8, 10)

/** Rubles as staff type them: above zero, at most two decimals. */
const RublesSchema = z
  .number({ error: 'Укажите сумму числом' })
  .check(z.positive('Сумма должна быть больше нуля'), z.lte(10_000_000, 'Не больше 10 000 000 ₽'), z.refine(multipleOf(0.01), 'Не больше двух знаков после запятой'));

/** Media tokens: one decimal (they are kept in tenths). */
const MediaSchema = z
  .number({ error: 'Укажите число медиа токенов' })
  .check(z.gte(0, 'Не меньше 0'), z.lte(100_000_000, 'Слишком большое число'), z.refine(multipleOf(0.1), 'Не больше одного знака после запятой'));

const WordsSchema = z.number({ error: 'Укажите число слов' }).check(z.int('Слова — целое число'), z.gte(0, 'Не меньше 0'), z.lte(1_000_000_000, 'Слишком большое число'));

const MARKER = /\[\[([^\]]*)\]\]/g;
const KNOWN_MARKERS: readonly string[] = Object.values(DESCRIPTION_MARKERS);

/** A line of a plan's description; `[[words]]` and `[[media]]` are drawn as the words and media-token icons. */
const DescriptionLineSchema = z.string({ error: 'Строка описания должна быть текстом' }).check(
  z.trim(),
  storableText(),
  z.minLength(1, 'Пустая строка описания'),
  z.maxLength(200, 'Строка описания не длиннее 200 символов'),
  z.refine((line) => [...line.matchAll(MARKER)].every((m) => KNOWN_MARKERS.includes(m[0])), `Значки в описании: ${KNOWN_MARKERS.join(' и ')}`),
);

/**
 * A plan's editor: every field of the seed plus tokens per period, trial days, order and the
 * active flag. Money in rubles; `media` in tokens with one decimal. A one-off package (type 3)
 * has no first amount. Only RUB is charged (the payment widget is opened in rubles).
 */
export const TariffInputSchema = z
  .strictObject({
    name: text('Укажите название', 100, 'Не длиннее 100 символов', 1),
    amount: RublesSchema,
    first_amount: z._default(z.nullable(RublesSchema), null),
    description: z._default(z.array(DescriptionLineSchema, { error: 'Описание — список строк' }).check(z.maxLength(20, 'Не больше 20 строк')), []),
    subscriptions_type: z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'Тип: 1 — месячный с пробным периодом, 2 — месячный, 3 — разовый пакет' }),
    popular: z._default(bool('Популярный'), false),
    currency_provider: z._default(z.literal('RUB', { error: 'Оплата принимается только в рублях (RUB)' }), 'RUB'),
    words: WordsSchema,
    media: MediaSchema,
    trial_days: z._default(integer('Укажите число дней', z.gte(0, 'Не меньше 0'), z.lte(365, 'Не больше 365 дней')), 3),
    sort: z._default(integer('Укажите порядок числом', z.gte(-1_000_000, 'Не меньше −1 000 000'), z.lte(1_000_000, 'Не больше 1 000 000')), 0),
    active: z._default(bool('Активен'), true),
  })
  .check(
    z.superRefine((t, ctx) => {
      if (t.subscriptions_type === 3 && t.first_amount !== null) ctx.issues.push({ code: 'custom', path: ['first_amount'], message: 'У разового пакета нет первого платежа', input: t.first_amount });
    }),
  );
export type TariffInput = z.infer<typeof TariffInputSchema>;

/**
 * A refund through CloudPayments: `amount` in rubles, at most what is left of the payment (less
 * refunds on their way); a reason; `request_id` (the form's UUID) makes a repeated submit refund once.
 */
export const RefundRequestSchema = z.strictObject({ amount: RublesSchema, reason, request_id: requestId });

/** A path on this site (`/chat`) or an http(s) address: nothing a browser would run or send elsewhere silently. */
const SafeHrefSchema = (what: string) =>
  text(`Укажите ${what}`, 500, 'Не длиннее 500 символов', 1).check(
    z.refine((v) => {
      if (/^\/(?![/\\])/.test(v)) return !/[\s\\]/.test(v);
      try {
        const url = new URL(v);
        return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
      } catch {
        return false;
      }
    }, `${what[0]?.toUpperCase() ?? ''}${what.slice(1)}: путь на сайте (/chat) или адрес https://…`),
  );

/** A news card of the dashboard (Стартовая панель). */
export const DashboardCardInputSchema = z.strictObject({
  name: text('Укажите название', 100, 'Не длиннее 100 символов', 1),
  description: text('Укажите описание', 500, 'Не длиннее 500 символов', 1),
  icon: SafeHrefSchema('значок'),
  link: SafeHrefSchema('ссылку'),
  sort: z._default(integer('Укажите порядок числом', z.gte(-1_000_000, 'Не меньше −1 000 000'), z.lte(1_000_000, 'Не больше 1 000 000')), 0),
  active: z._default(bool('Показывать'), true),
});
export type DashboardCardInput = z.infer<typeof DashboardCardInputSchema>;

// Analytics (tab 13)

const DATE_FORMAT = 'Дата в формате ГГГГ-ММ-ДД';
const DateSchema = z.string({ error: DATE_FORMAT }).check(
  z.regex(/^\d{4}-\d{2}-\d{2}$/, { error: DATE_FORMAT, abort: true }),
  z.refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s) && d.getUTCFullYear() >= 2000;
  }, 'Такой даты нет'),
);

/** Days from `from` to `to`, both counted. */
export const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/** What is wrong with a period (`YYYY-MM-DD` days, both included), if anything: the field and the message. */
export function periodProblem(from: string, to: string): { field: 'from' | 'to'; message: string } | null {
  if (from > to) return { field: 'from', message: 'Начало периода позже его конца' };
  if (daysBetween(from, to) > ANALYTICS_MAX_DAYS) return { field: 'to', message: `Период не длиннее ${String(ANALYTICS_MAX_DAYS)} дней` };
  return null;
}

/** A period of whole days (both ends included): by default the 30 days up to today. */
export const AnalyticsQuerySchema = z.object({ from: z.optional(DateSchema), to: z.optional(DateSchema) }).check(
  z.superRefine((q, ctx) => {
    const problem = q.from && q.to ? periodProblem(q.from, q.to) : null;
    if (problem) ctx.issues.push({ code: 'custom', path: [problem.field], message: problem.message, input: q[problem.field] });
  }),
);

/** A period to export as CSV: both days required (Moscow days, both included, at most 366). */
export const ExportQuerySchema = z.object({ from: DateSchema, to: DateSchema }).check(
  z.superRefine((q, ctx) => {
    const problem = periodProblem(q.from, q.to);
    if (problem) ctx.issues.push({ code: 'custom', path: [problem.field], message: problem.message, input: q[problem.field] });
  }),
);
export type ExportQuery = z.infer<typeof ExportQuerySchema>;

// Settings (tab 16)

/**
 * The news channel as the Bot API names it: `@name` of a public channel (5–32 letters, digits and
 * underscores; a t.me link is read as its name) or a private channel's numeric id (`-100…`).
 */
const ChannelSchema = z.pipe(
  z.pipe(
    z.string({ error: 'Укажите канал' }).check(z.trim()),
    z.transform((v: string) => v.replace(/^(?:https?:\/\/)?(?:t\.me|telegram\.me)\//i, '@').replace(/^(?![@-])/, '@')),
  ),
  z.string().check(z.regex(/^(@[A-Za-z][A-Za-z0-9_]{4,31}|-100\d{5,15})$/, 'Канал: @имя или ссылка https://t.me/имя')),
);

/** What the service reads at run time instead of a restart (Настройки). */
export const SettingsInputSchema = z.strictObject({
  /** At least one word: the gift's words line is what marks it as received. */
  welcome_words: integer('Укажите число слов', z.gte(1, 'Не меньше 1'), z.lte(10_000_000, 'Не больше 10 000 000')),
  welcome_media: MediaSchema.check(z.refine((n) => n <= 100_000, 'Не больше 100 000')),
  telegram_channel: ChannelSchema,
  support_url: z.string({ error: 'Укажите ссылку поддержки' }).check(
    z.trim(),
    storableText(),
    z.maxLength(500, 'Не длиннее 500 символов'),
    z.refine((v) => {
      try {
        const url = new URL(v);
        return ['https:', 'http:', 'mailto:', 'tg:'].includes(url.protocol) && (url.protocol === 'mailto:' || url.protocol === 'tg:' || url.hostname !== '');
      } catch {
        return false;
      }
    }, 'Ссылка поддержки: https://…, mailto:… или tg://…'),
  ),
  /** While the payment sandbox stands in for CloudPayments: whether it takes payments and charges renewals. */
  sandbox_payments: bool('Песочница оплаты'),
  /** While the Telegram sandbox stands in for the bot: whether it links accounts and counts as a channel. */
  sandbox_telegram: bool('Песочница Telegram'),
});
export type SettingsInput = z.input<typeof SettingsInputSchema>;
export type Settings = z.output<typeof SettingsInputSchema>;

/** A body schema of the admin panel. */
export type AdminInputSchema = z.ZodMiniType;

/**
 * Values checked with one of these schemas, as the server will check them: the body it will take
 * (trimmed, defaults filled in), or the first message of each field, by the field's name (a
 * problem inside a list, `fields.2.name`, counts for `fields`; one about the whole body for `''`).
 */
export function checkInput<S extends AdminInputSchema>(schema: S, values: unknown): { ok: true; data: z.output<S> } | { ok: false; errors: Record<string, string> } {
  const result = z.safeParse(schema, values);
  if (result.success) return { ok: true, data: result.data };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[String(issue.path[0] ?? '')] ??= issue.message;
  return { ok: false, errors };
}
