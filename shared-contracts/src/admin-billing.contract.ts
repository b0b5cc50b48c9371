import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { TimestampSchema, paginated } from './envelope.ts';
import { IdSchema } from './fields.ts';
import { adminListQuery } from './admin.contract.ts';
import { TariffSchema } from './billing.contract.ts';
import { DashboardCardSchema } from './dashboard.contract.ts';
import { ChatMessageSchema } from './chat.contract.ts';
import { PRODUCT_VARIANTS } from './catalog.browser.ts';
import { AnalyticsQuerySchema, DashboardCardInputSchema, ExportQuerySchema, RefundRequestSchema, SettingsInputSchema, TariffInputSchema } from './admin-inputs.ts';
import {
  CHAT_SORTS,
  GENERATION_SORTS,
  GENERATION_STATUSES,
  INVOICE_STATUSES,
  REFUND_STATUSES,
  SUBSCRIPTION_STATUSES,
  adminBillingPaths,
} from './admin-billing.browser.ts';

export * from './admin-billing.browser.ts';

const IdParams = z.object({ id: IdSchema });

export const TARIFF_SORTS = ['id', 'sort', 'name', 'amount', 'created_at'] as const;

/** A plan as staff see it: the public fields plus order, whether it is on sale, and when it changed. */
export const AdminTariffSchema = TariffSchema.extend({
  sort: z.number().int(),
  active: z.boolean(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type AdminTariff = z.infer<typeof AdminTariffSchema>;

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
  /** Charged (or held while it runs; given back when it failed or was cancelled): words, or media tokens with one decimal. */
  cost: z.number(),
  prompt: z.string(),
  /** Why it failed, as its user reads it. */
  error: z.string().nullable(),
  /** What really happened: the provider's own words (or the last attempt's, while it is retried). */
  error_detail: z.string().nullable(),
  /** The outputs' file ids (admins read them through the file route). */
  outputs: z.array(z.number().int()),
  created_at: TimestampSchema,
  finished_at: TimestampSchema.nullable(),
});
export type AdminGeneration = z.infer<typeof AdminGenerationSchema>;

export const AdminGenerationsQuerySchema = adminListQuery(GENERATION_SORTS, 'id').extend({
  status: z.enum(GENERATION_STATUSES, { error: `Статус: ${GENERATION_STATUSES.join(', ')}` }).optional(),
});

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
  exportLedger: defineRoute({
    ...adminBillingPaths.exportLedger,
    summary:
      'The token ledger of a period (Moscow days, at most 366) as CSV, streamed: one line a ledger row (when, user, wallet, amount — words whole, media with one decimal —, reason, note, cause); UTF-8 with BOM, «;»-separated, decimal comma',
    tags: ['admin'],
    query: ExportQuerySchema,
    raw: true,
    response: z.unknown().meta({ description: 'text/csv; charset=utf-8 (not JSON), as an attachment' }),
  }),
  exportPayments: defineRoute({
    ...adminBillingPaths.exportPayments,
    summary:
      'Payments, renewal charges and refunds of a period (Moscow days, at most 366) as CSV, streamed: one line an operation with its amount in roubles (refunds negative), status, transaction and reason; UTF-8 with BOM, «;»-separated, decimal comma',
    tags: ['admin'],
    query: ExportQuerySchema,
    raw: true,
    response: z.unknown().meta({ description: 'text/csv; charset=utf-8 (not JSON), as an attachment' }),
  }),
} as const;
