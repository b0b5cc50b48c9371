import * as z from 'zod/mini';
import { ANALYTICS_MAX_DAYS } from './admin-billing.browser.ts';
import { DESCRIPTION_MARKERS } from './billing.browser.ts';
import { storableText } from './fields.ts';
import { bool, integer, multipleOf, reason, requestId, text } from './admin-input-fields.ts';

/*
 * What staff send: the body of every change the admin panel makes, written with zod/mini so the
 * panel's editors check values with the very schemas the server validates with (the contracts
 * `admin*.contract.ts` use them in their routes). Bodies are strict: an unknown field is refused.
 * The AI catalogue's bodies are in `admin-ai-inputs.ts`.
 */

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
  /** Words the inviter earns when an account registered through their link makes its first payment (left out: unchanged). */
  referral_words: z.optional(integer('Укажите число слов', z.gte(0, 'Не меньше 0'), z.lte(10_000_000, 'Не больше 10 000 000'))),
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
/** A change of the settings as the server reads it. */
export type SettingsChange = z.output<typeof SettingsInputSchema>;
/** The settings in force: every one has a value (its default at least). */
export type Settings = Required<SettingsChange>;

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
