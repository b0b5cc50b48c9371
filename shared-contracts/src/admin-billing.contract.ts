import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { TimestampSchema, paginated } from './envelope.ts';
import { IdSchema } from './fields.ts';
import { adminListQuery } from './admin.contract.ts';
import { TariffSchema, DESCRIPTION_MARKERS } from './billing.contract.ts';
import { DashboardCardSchema } from './dashboard.contract.ts';
import { ChatMessageSchema } from './chat.contract.ts';
import { PRODUCT_VARIANTS } from './catalog.browser.ts';
import {
  ANALYTICS_MAX_DAYS,
  GENERATION_STATUSES,
  INVOICE_STATUSES,
  REFUND_STATUSES,
  SUBSCRIPTION_STATUSES,
  adminBillingPaths,
} from './admin-billing.browser.ts';

export * from './admin-billing.browser.ts';

const IdParams = z.object({ id: IdSchema });
const bool = (what: string) => z.boolean({ error: `${what}: true или false` });
/** Whole multiples of `step` (0.01 for kopecks, 0.1 for tenths of a media token), within floating-point error. */
const multipleOf = (step: number) => (n: number) => Math.abs(n / step - Math.round(n / step)) < 1e-6;

/** Rubles as staff type them: above zero, at most two decimals. */
const RublesSchema = z
  .number({ error: 'Укажите сумму числом' })
  .positive('Сумма должна быть больше нуля')
  .max(10_000_000, 'Не больше 10 000 000 ₽')
  .refine(multipleOf(0.01), 'Не больше двух знаков после запятой');

/** Media tokens: one decimal (they are kept in tenths). */
const MediaSchema = z
  .number({ error: 'Укажите число медиа токенов' })
  .min(0, 'Не меньше 0')
  .max(100_000_000, 'Слишком большое число')
  .refine(multipleOf(0.1), 'Не больше одного знака после запятой');

const WordsSchema = z.number({ error: 'Укажите число слов' }).int('Слова — целое число').min(0, 'Не меньше 0').max(1_000_000_000, 'Слишком большое число');

const MARKER = /\[\[([^\]]*)\]\]/g;
const KNOWN_MARKERS: readonly string[] = Object.values(DESCRIPTION_MARKERS);

/** A line of a plan's description; `[[words]]` and `[[media]]` are drawn as the words and media-token icons. */
const DescriptionLineSchema = z
  .string({ error: 'Строка описания должна быть текстом' })
  .trim()
  .min(1, 'Пустая строка описания')
  .max(200, 'Строка описания не длиннее 200 символов')
  .refine((line) => [...line.matchAll(MARKER)].every((m) => KNOWN_MARKERS.includes(m[0])), `Значки в описании: ${KNOWN_MARKERS.join(' и ')}`);

export const TARIFF_SORTS = ['id', 'sort', 'name', 'amount', 'created_at'] as const;

/** A plan as staff see it: the public fields plus order, whether it is on sale, and when it changed. */
export const AdminTariffSchema = TariffSchema.extend({
  sort: z.number().int(),
  active: z.boolean(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type AdminTariff = z.infer<typeof AdminTariffSchema>;

/**
 * A plan's editor: every field of the seed plus tokens per period, trial days, order and the
 * active flag. Money in rubles; `media` in tokens with one decimal. A one-off package (type 3)
 * has no first amount. Only RUB is charged (the payment widget is opened in rubles).
 */
export const TariffInputSchema = z
  .object({
    name: z.string({ error: 'Укажите название' }).trim().min(1, 'Укажите название').max(100, 'Не длиннее 100 символов'),
    amount: RublesSchema,
    first_amount: RublesSchema.nullable().default(null),
    description: z.array(DescriptionLineSchema, { error: 'Описание — список строк' }).max(20, 'Не больше 20 строк').default([]),
    subscriptions_type: z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'Тип: 1 — месячный с пробным периодом, 2 — месячный, 3 — разовый пакет' }),
    popular: bool('Популярный').default(false),
    currency_provider: z.literal('RUB', { error: 'Оплата принимается только в рублях (RUB)' }).default('RUB'),
    words: WordsSchema,
    media: MediaSchema,
    trial_days: z.number({ error: 'Укажите число дней' }).int('Целое число дней').min(0, 'Не меньше 0').max(365, 'Не больше 365 дней').default(3),
    sort: z.number({ error: 'Укажите порядок числом' }).int('Целое число').min(-1_000_000, 'Не меньше −1 000 000').max(1_000_000, 'Не больше 1 000 000').default(0),
    active: bool('Активен').default(true),
  })
  .strict()
  .superRefine((t, ctx) => {
    if (t.subscriptions_type === 3 && t.first_amount !== null) ctx.addIssue({ code: 'custom', path: ['first_amount'], message: 'У разового пакета нет первого платежа' });
  });
export type TariffInput = z.infer<typeof TariffInputSchema>;

export const SUBSCRIPTION_SORTS = ['id', 'created_at', 'paid_at', 'period_end', 'amount'] as const;

/** A subscription in the admin's list (amounts in rubles). */
export const AdminSubscriptionSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  email: z.string(),
  tariff_id: z.number().int(),
  name: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  /** The monthly amount. */
  amount: z.number(),
  /** What the first payment was (the trial price when it had one). */
  first_amount: z.number(),
  currency_provider: z.string(),
  is_trial: z.boolean(),
  cp_subscription_id: z.string().nullable(),
  paid_at: TimestampSchema.nullable(),
  cancelled_at: TimestampSchema.nullable(),
  period_end: TimestampSchema.nullable(),
  ended_at: TimestampSchema.nullable(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type AdminSubscription = z.infer<typeof AdminSubscriptionSchema>;

export const AdminSubscriptionsQuerySchema = adminListQuery(SUBSCRIPTION_SORTS, 'id').extend({
  status: z.enum(SUBSCRIPTION_STATUSES, { error: `Статус: ${SUBSCRIPTION_STATUSES.join(', ')}` }).optional(),
});

export const PAYMENT_SORTS = ['id', 'created_at', 'paid_at', 'amount'] as const;

/** A payment (an invoice) in the admin's list: rubles; what went back, what is on its way back and what may still be refunded. */
export const AdminPaymentSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  email: z.string(),
  tariff_id: z.number().int(),
  tariff: z.string(),
  subscription_id: z.number().int().nullable(),
  kind: z.enum(['subscription', 'package']),
  description: z.string(),
  amount: z.number(),
  currency: z.string(),
  status: z.enum(INVOICE_STATUSES),
  transaction_id: z.number().int().nullable(),
  failure_reason: z.string().nullable(),
  /** Refunded so far (CloudPayments confirmed it). */
  refunded: z.number(),
  /** Refunds asked for and not confirmed yet. */
  refunding: z.number(),
  /** What an admin may still refund. */
  refundable: z.number(),
  paid_at: TimestampSchema.nullable(),
  refunded_at: TimestampSchema.nullable(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type AdminPayment = z.infer<typeof AdminPaymentSchema>;

/** A refund of a payment: asked for by an admin (with the reason), or made at CloudPayments and reported by it. */
export const AdminRefundSchema = z.object({
  id: z.number().int(),
  /** Asked (or reported) amount, rubles. */
  amount: z.number(),
  /** What it refunded as applied, rubles; null until CloudPayments reports it. */
  applied: z.number().nullable(),
  status: z.enum(REFUND_STATUSES),
  reason: z.string().nullable(),
  actor_id: z.number().int().nullable(),
  actor_email: z.string().nullable(),
  refund_transaction_id: z.number().int().nullable(),
  created_at: TimestampSchema,
  applied_at: TimestampSchema.nullable(),
});
export type AdminRefund = z.infer<typeof AdminRefundSchema>;

/** One payment with its refunds and the ledger lines it caused (grants and take-backs). */
export const AdminPaymentDetailSchema = AdminPaymentSchema.extend({
  refunds: z.array(AdminRefundSchema),
  ledger: z.array(z.object({ id: z.number().int(), kind: z.enum(['words', 'media']), amount: z.number(), reason: z.string(), created_at: TimestampSchema })),
});
export type AdminPaymentDetail = z.infer<typeof AdminPaymentDetailSchema>;

export const AdminPaymentsQuerySchema = adminListQuery(PAYMENT_SORTS, 'id').extend({
  status: z.enum(INVOICE_STATUSES, { error: `Статус: ${INVOICE_STATUSES.join(', ')}` }).optional(),
});

/**
 * A refund through CloudPayments: `amount` in rubles, at most what is left of the payment (less
 * refunds on their way); a reason; `request_id` (the form's UUID) makes a repeated submit refund once.
 */
export const RefundRequestSchema = z
  .object({
    amount: RublesSchema,
    reason: z.string({ error: 'Укажите причину' }).trim().min(3, 'Опишите причину (от 3 символов)').max(500, 'Не длиннее 500 символов'),
    request_id: z.uuid({ error: 'Идентификатор запроса должен быть UUID' }),
  })
  .strict();

/** A line of the subscription log: a status change with its cause, or a renewal charge (successful or not). */
export const SubscriptionLogEntrySchema = z.object({
  kind: z.enum(['status', 'charge']),
  /** The id of the log line or of the charge (unique within its kind). */
  id: z.number().int(),
  user_id: z.number().int(),
  email: z.string(),
  subscription_id: z.number().int(),
  plan: z.string(),
  from_status: z.string().nullable(),
  to_status: z.string().nullable(),
  cause: z.string().nullable(),
  ref: z.string().nullable(),
  /** Charges: rubles, whether it went through, why not, and CloudPayments' transaction. */
  amount: z.number().nullable(),
  success: z.boolean().nullable(),
  failure_reason: z.string().nullable(),
  transaction_id: z.number().int().nullable(),
  created_at: TimestampSchema,
});
export type SubscriptionLogEntry = z.infer<typeof SubscriptionLogEntrySchema>;

export const SubscriptionLogQuerySchema = adminListQuery(['created_at'] as const, 'created_at').extend({
  kind: z.enum(['status', 'charge'], { error: 'Вид: status или charge' }).optional(),
});

/** The subscription with its log, its payments and its renewal charges. */
export const AdminSubscriptionDetailSchema = AdminSubscriptionSchema.extend({
  log: z.array(SubscriptionLogEntrySchema),
  payments: z.array(AdminPaymentSchema),
});
export type AdminSubscriptionDetail = z.infer<typeof AdminSubscriptionDetailSchema>;

export const DASHBOARD_CARD_SORTS = ['id', 'sort', 'name', 'created_at'] as const;

export const AdminDashboardCardSchema = DashboardCardSchema.extend({
  sort: z.number().int(),
  active: z.boolean(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type AdminDashboardCard = z.infer<typeof AdminDashboardCardSchema>;

/** A path on this site (`/chat`) or an http(s) address: nothing a browser would run or send elsewhere silently. */
const SafeHrefSchema = (what: string) =>
  z
    .string({ error: `Укажите ${what}` })
    .trim()
    .min(1, `Укажите ${what}`)
    .max(500, 'Не длиннее 500 символов')
    .refine((v) => {
      if (/^\/(?![/\\])/.test(v)) return !/[\s\\]/.test(v);
      try {
        const url = new URL(v);
        return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
      } catch {
        return false;
      }
    }, `${what[0]?.toUpperCase() ?? ''}${what.slice(1)}: путь на сайте (/chat) или адрес https://…`);

/** A news card of the dashboard (Стартовая панель). */
export const DashboardCardInputSchema = z
  .object({
    name: z.string({ error: 'Укажите название' }).trim().min(1, 'Укажите название').max(100, 'Не длиннее 100 символов'),
    description: z.string({ error: 'Укажите описание' }).trim().min(1, 'Укажите описание').max(500, 'Не длиннее 500 символов'),
    icon: SafeHrefSchema('значок'),
    link: SafeHrefSchema('ссылку'),
    sort: z.number({ error: 'Укажите порядок числом' }).int('Целое число').min(-1_000_000, 'Не меньше −1 000 000').max(1_000_000, 'Не больше 1 000 000').default(0),
    active: bool('Показывать').default(true),
  })
  .strict();
export type DashboardCardInput = z.infer<typeof DashboardCardInputSchema>;

export const GENERATION_SORTS = ['id', 'created_at', 'cost'] as const;

/** A run of any user (История генераций). */
export const AdminGenerationSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  email: z.string(),
  product: z.string(),
  model: z.string(),
  variant: z.enum(PRODUCT_VARIANTS),
  status: z.enum(GENERATION_STATUSES),
  wallet: z.enum(['words', 'media']),
  /** Charged (or held while it runs): words, or media tokens with one decimal. */
  cost: z.number(),
  prompt: z.string(),
  error: z.string().nullable(),
  /** The outputs' file ids (admins read them through the file route). */
  outputs: z.array(z.number().int()),
  created_at: TimestampSchema,
  finished_at: TimestampSchema.nullable(),
});
export type AdminGeneration = z.infer<typeof AdminGenerationSchema>;

export const AdminGenerationsQuerySchema = adminListQuery(GENERATION_SORTS, 'id').extend({
  status: z.enum(GENERATION_STATUSES, { error: `Статус: ${GENERATION_STATUSES.join(', ')}` }).optional(),
});

export const CHAT_SORTS = ['id', 'created_at', 'updated_at'] as const;

/** A chat of any user (Чат): its owner, how many messages and words it took. */
export const AdminChatSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  email: z.string(),
  title: z.string(),
  message_count: z.number().int(),
  /** Words charged for its answers. */
  words: z.number().int(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type AdminChat = z.infer<typeof AdminChatSchema>;

/** A message as its user sees it, with what staff need besides: tokens, the failure, the images' file ids. */
export const AdminChatMessageSchema = ChatMessageSchema.omit({ images: true }).extend({
  input_tokens: z.number().int().nullable(),
  output_tokens: z.number().int().nullable(),
  /** Why an answer failed (the provider's words, for staff). */
  error: z.string().nullable(),
  /** Attached images' file ids. */
  files: z.array(z.number().int()),
});

/** A chat with its messages in order (the latest 1000 when it has more: `truncated`). */
export const AdminChatDetailSchema = AdminChatSchema.extend({
  messages: z.array(AdminChatMessageSchema),
  truncated: z.boolean(),
});
export type AdminChatDetail = z.infer<typeof AdminChatDetailSchema>;

const DateSchema = z
  .string({ error: 'Дата в формате ГГГГ-ММ-ДД' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Дата в формате ГГГГ-ММ-ДД', abort: true })
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s) && d.getUTCFullYear() >= 2000;
  }, 'Такой даты нет');

/** Days from `from` to `to`, both counted. */
export const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/** What is wrong with a period (`YYYY-MM-DD` days, both included), if anything: the field and the message. */
export function periodProblem(from: string, to: string): { field: 'from' | 'to'; message: string } | null {
  if (from > to) return { field: 'from', message: 'Начало периода позже его конца' };
  if (daysBetween(from, to) > ANALYTICS_MAX_DAYS) return { field: 'to', message: `Период не длиннее ${String(ANALYTICS_MAX_DAYS)} дней` };
  return null;
}

/** A period of whole days (both ends included): by default the 30 days up to today. */
export const AnalyticsQuerySchema = z
  .object({ from: DateSchema.optional(), to: DateSchema.optional() })
  .superRefine((q, ctx) => {
    const problem = q.from && q.to ? periodProblem(q.from, q.to) : null;
    if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  });

const AnalyticsFiguresSchema = z.object({
  /** Money received less money refunded, rubles. */
  revenue: z.number(),
  /** Payments received: first payments, packages and renewals. */
  payments: z.number().int(),
  /** Plans paid for the first time. */
  new_subscriptions: z.number().int(),
  generations: z.number().int(),
  words_spent: z.number().int(),
  media_spent: z.number(),
});

export const AnalyticsDaySchema = AnalyticsFiguresSchema.extend({
  date: z.string(),
  /** Plans running at the end of the day. */
  active_subscriptions: z.number().int(),
});
export type AnalyticsDay = z.infer<typeof AnalyticsDaySchema>;

export const AnalyticsSchema = z.object({
  from: z.string(),
  to: z.string(),
  time_zone: z.string(),
  days: z.array(AnalyticsDaySchema),
  totals: AnalyticsFiguresSchema,
});
export type Analytics = z.infer<typeof AnalyticsSchema>;

/**
 * The news channel as the Bot API names it: `@name` of a public channel (5–32 letters, digits and
 * underscores; a t.me link is read as its name) or a private channel's numeric id (`-100…`).
 */
const ChannelSchema = z
  .string({ error: 'Укажите канал' })
  .trim()
  .transform((v) => v.replace(/^(?:https?:\/\/)?(?:t\.me|telegram\.me)\//i, '@').replace(/^(?![@-])/, '@'))
  .pipe(z.string().regex(/^(@[A-Za-z][A-Za-z0-9_]{4,31}|-100\d{5,15})$/, 'Канал: @имя или ссылка https://t.me/имя'));

/** What the service reads at run time instead of a restart (Настройки). */
export const SettingsInputSchema = z
  .object({
    /** At least one word: the gift's words line is what marks it as received. */
    welcome_words: z.number({ error: 'Укажите число слов' }).int('Слова — целое число').min(1, 'Не меньше 1').max(10_000_000, 'Не больше 10 000 000'),
    welcome_media: MediaSchema.refine((n) => n <= 100_000, 'Не больше 100 000'),
    telegram_channel: ChannelSchema,
    support_url: z
      .string({ error: 'Укажите ссылку поддержки' })
      .trim()
      .max(500, 'Не длиннее 500 символов')
      .refine((v) => {
        try {
          const url = new URL(v);
          return ['https:', 'http:', 'mailto:', 'tg:'].includes(url.protocol) && (url.protocol === 'mailto:' || url.protocol === 'tg:' || url.hostname !== '');
        } catch {
          return false;
        }
      }, 'Ссылка поддержки: https://…, mailto:… или tg://…'),
    /** While the payment sandbox stands in for CloudPayments: whether it takes payments and charges renewals. */
    sandbox_payments: bool('Песочница оплаты'),
    /** While the Telegram sandbox stands in for the bot: whether it links accounts and counts as a channel. */
    sandbox_telegram: bool('Песочница Telegram'),
  })
  .strict();
export type SettingsInput = z.input<typeof SettingsInputSchema>;
export type Settings = z.output<typeof SettingsInputSchema>;

const SettingsValuesSchema = z.object({
  welcome_words: z.number().int(),
  welcome_media: z.number(),
  telegram_channel: z.string(),
  support_url: z.string(),
  sandbox_payments: z.boolean(),
  sandbox_telegram: z.boolean(),
});

/** The settings in force, their defaults (from the environment), and which sandboxes this installation runs (no keys configured). */
export const AdminSettingsSchema = SettingsValuesSchema.extend({
  defaults: SettingsValuesSchema,
  /** The news channel's address, as the welcome notice links it. */
  channel_url: z.string(),
  sandbox: z.object({ payments: z.boolean(), telegram: z.boolean() }),
  updated_at: TimestampSchema.nullable(),
});
export type AdminSettings = z.infer<typeof AdminSettingsSchema>;

const list = (what: string) => `${what}, 20 a page`;

/** The admin's plans, subscriptions, payments and refunds, dashboard cards, runs, chats, analytics and settings. */
export const adminBillingRoutes = {
  tariffs: defineRoute({
    ...adminBillingPaths.tariffs,
    summary: list('Plans and packages, search by name, sort by id, sort, name, amount or created_at'),
    tags: ['admin'],
    query: adminListQuery(TARIFF_SORTS, 'sort'),
    response: paginated(AdminTariffSchema),
  }),
  tariff: defineRoute({ ...adminBillingPaths.tariff, summary: 'One plan', tags: ['admin'], params: IdParams, response: AdminTariffSchema }),
  createTariff: defineRoute({
    ...adminBillingPaths.createTariff,
    summary: 'Creates a plan or package; on sale at once when active; written to the audit log',
    tags: ['admin'],
    body: TariffInputSchema,
    response: AdminTariffSchema,
  }),
  updateTariff: defineRoute({
    ...adminBillingPaths.updateTariff,
    summary: 'Replaces a plan’s fields; GET /api/new/tariff shows the change at once; written to the audit log',
    tags: ['admin'],
    params: IdParams,
    body: TariffInputSchema,
    response: AdminTariffSchema,
  }),
  subscriptions: defineRoute({
    ...adminBillingPaths.subscriptions,
    summary: list('Subscriptions, search by user email, filter by status, sort by id, created_at, paid_at, period_end or amount'),
    tags: ['admin'],
    query: AdminSubscriptionsQuerySchema,
    response: paginated(AdminSubscriptionSchema),
  }),
  subscription: defineRoute({
    ...adminBillingPaths.subscription,
    summary: 'One subscription with its log, payments and renewal charges',
    tags: ['admin'],
    params: IdParams,
    response: AdminSubscriptionDetailSchema,
  }),
  payments: defineRoute({
    ...adminBillingPaths.payments,
    summary: list('Payments (invoices), search by user email or transaction id, filter by status, sort by id, created_at, paid_at or amount'),
    tags: ['admin'],
    query: AdminPaymentsQuerySchema,
    response: paginated(AdminPaymentSchema),
  }),
  payment: defineRoute({ ...adminBillingPaths.payment, summary: 'One payment with its refunds and ledger lines', tags: ['admin'], params: IdParams, response: AdminPaymentDetailSchema }),
  refundPayment: defineRoute({
    ...adminBillingPaths.refundPayment,
    summary: 'Refunds (part of) a paid payment through CloudPayments, once per request_id; its Refund notification takes the tokens back; written to the audit log',
    tags: ['admin'],
    params: IdParams,
    body: RefundRequestSchema,
    response: AdminPaymentDetailSchema,
  }),
  subscriptionLog: defineRoute({
    ...adminBillingPaths.subscriptionLog,
    summary: list('Subscription status changes and renewal charges, newest first; search by email, plan, cause or transaction'),
    tags: ['admin'],
    query: SubscriptionLogQuerySchema,
    response: paginated(SubscriptionLogEntrySchema),
  }),
  dashboardCards: defineRoute({
    ...adminBillingPaths.dashboardCards,
    summary: list('Dashboard news cards (shown and hidden), search by name or link'),
    tags: ['admin'],
    query: adminListQuery(DASHBOARD_CARD_SORTS, 'sort'),
    response: paginated(AdminDashboardCardSchema),
  }),
  dashboardCard: defineRoute({ ...adminBillingPaths.dashboardCard, summary: 'One dashboard card', tags: ['admin'], params: IdParams, response: AdminDashboardCardSchema }),
  createDashboardCard: defineRoute({
    ...adminBillingPaths.createDashboardCard,
    summary: 'Creates a dashboard card; written to the audit log',
    tags: ['admin'],
    body: DashboardCardInputSchema,
    response: AdminDashboardCardSchema,
  }),
  updateDashboardCard: defineRoute({
    ...adminBillingPaths.updateDashboardCard,
    summary: 'Replaces a dashboard card’s fields; written to the audit log',
    tags: ['admin'],
    params: IdParams,
    body: DashboardCardInputSchema,
    response: AdminDashboardCardSchema,
  }),
  deleteDashboardCard: defineRoute({
    ...adminBillingPaths.deleteDashboardCard,
    summary: 'Deletes a dashboard card; written to the audit log',
    tags: ['admin'],
    params: IdParams,
    response: z.object({ deleted: z.literal(true) }),
  }),
  generations: defineRoute({
    ...adminBillingPaths.generations,
    summary: list('Every user’s runs, search by email, product or model, filter by status, sort by id, created_at or cost'),
    tags: ['admin'],
    query: AdminGenerationsQuerySchema,
    response: paginated(AdminGenerationSchema),
  }),
  chats: defineRoute({
    ...adminBillingPaths.chats,
    summary: list('Every user’s chats with message counts, search by email or title'),
    tags: ['admin'],
    query: adminListQuery(CHAT_SORTS, 'updated_at'),
    response: paginated(AdminChatSchema),
  }),
  chat: defineRoute({ ...adminBillingPaths.chat, summary: 'One chat with its messages', tags: ['admin'], params: IdParams, response: AdminChatDetailSchema }),
  analytics: defineRoute({
    ...adminBillingPaths.analytics,
    summary: 'Per day of a period (at most 366 days, Moscow days): revenue, payments, new and active subscriptions, runs, words and media spent',
    tags: ['admin'],
    query: AnalyticsQuerySchema,
    response: AnalyticsSchema,
  }),
  settings: defineRoute({ ...adminBillingPaths.settings, summary: 'Settings in force and their defaults', tags: ['admin'], response: AdminSettingsSchema }),
  updateSettings: defineRoute({
    ...adminBillingPaths.updateSettings,
    summary: 'Changes the settings; every process uses them at once, no restart; written to the audit log',
    tags: ['admin'],
    body: SettingsInputSchema,
    response: AdminSettingsSchema,
  }),
} as const;
