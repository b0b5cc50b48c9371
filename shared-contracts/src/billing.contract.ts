import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { IdSchema, TimestampSchema } from './fields.ts';
import { PageQuerySchema, paginated } from './envelope.ts';
import { NotificationKindSchema, NotificationReplySchema, WidgetOptionsSchema } from './cloudpayments.protocol.ts';
import { BalancesSchema } from './accounts.contract.ts';

/** Markers inside a description line that the widget shows as the words or media-token icon. */
export const DESCRIPTION_MARKERS = { words: '[[words]]', media: '[[media]]' } as const;

/** `subscriptions_type`: 1 monthly with trial, 3 one-off package, anything else monthly. */
export const SUBSCRIPTION_TYPES = { monthlyTrial: 1, monthly: 2, package: 3 } as const;

export const TariffSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Rubles. */
  amount: z.number(),
  /** Rubles charged for the trial period, when the plan has one. */
  first_amount: z.number().nullable(),
  description: z.array(z.string()),
  subscriptions_type: z.number().int(),
  popular: z.boolean(),
  currency_provider: z.string(),
  words: z.number().int(),
  media: z.number(),
  trial_days: z.number().int(),
});
export type Tariff = z.infer<typeof TariffSchema>;

export const TariffQuerySchema = z.object({
  frontend: z.enum(['0', '1'], { error: 'Параметр frontend должен быть 0 или 1' }).default('0'),
});

export const SubscribeCheckSchema = z.object({
  /** Tariff id of the current plan, or null. */
  subscriptions: z.number().int().nullable(),
  /** Whether the first-time trial applies. */
  first: z.boolean(),
  /** The saved card, masked (`•••• 4242`), or null. */
  card: z.string().nullable(),
  /** The current plan was cancelled and runs to `active_until`. */
  cancelled: z.boolean(),
  active_until: TimestampSchema.nullable(),
  /** The current plan is in its trial period (it ends at `next_charge_at`). */
  trial: z.boolean(),
  /** The last renewal charge of the current plan failed; CloudPayments retries it. */
  past_due: z.boolean(),
  /** When the current plan is charged next (end of the trial or of the period), unless cancelled. */
  next_charge_at: TimestampSchema.nullable(),
  /** What that charge will be, in roubles. */
  next_charge_amount: z.number().nullable(),
});
export type SubscribeCheck = z.infer<typeof SubscribeCheckSchema>;

export const TariffIdQuerySchema = z.object({ id: IdSchema });

export const PaymentStartSchema = z.object({
  payment_id: z.number().int(),
  email: z.string(),
  /** Rubles charged now (the trial price when the trial applies). */
  amount: z.number(),
  /** Everything the payment widget needs, built by the server. */
  options: WidgetOptionsSchema,
});
export type PaymentStart = z.infer<typeof PaymentStartSchema>;

/** Where a payment stands: only server notifications move it past `pending`. */
export const PaymentStatusSchema = z.object({
  payment_id: z.number().int(),
  kind: z.enum(['subscription', 'package']),
  status: z.enum(['pending', 'paid', 'failed', 'refunded']),
});
export type PaymentStatus = z.infer<typeof PaymentStatusSchema>;

export const SubscriptionRecordSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Paid. */
  status: z.boolean(),
  /** Cancelled. */
  closed: z.boolean(),
  amount: z.number(),
  currency_provider: z.string(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type SubscriptionRecord = z.infer<typeof SubscriptionRecordSchema>;

/** A one-off package purchase («Заказы» → «Пакеты»). */
export const PackagePurchaseSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(['paid', 'refunded', 'partially_refunded']),
  amount: z.number(),
  currency_provider: z.string(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type PackagePurchase = z.infer<typeof PackagePurchaseSchema>;

export const AutoChargeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Charged successfully. */
  status: z.boolean(),
  amount: z.number(),
  currency_provider: z.string(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type AutoCharge = z.infer<typeof AutoChargeSchema>;

export const UserSubscriptionStatusSchema = z.object({
  /** An active, auto-renewing subscription. */
  status: z.boolean(),
  subscription: z.object({ name: z.string() }).nullable(),
  days_left: z.number().int().min(0),
  /** The last renewal charge failed: the plan stays on while CloudPayments retries it. */
  past_due: z.boolean(),
});
export type UserSubscriptionStatus = z.infer<typeof UserSubscriptionStatusSchema>;

export const SandboxChargeBodySchema = z.object({
  payment_id: IdSchema,
  card_number: z.string({ error: 'Введите номер карты' }).transform((s) => s.replace(/\s+/g, '')).pipe(z.string().regex(/^\d{16}$/, 'Номер карты состоит из 16 цифр')),
  exp: z.string({ error: 'Введите срок действия' }).regex(/^(0[1-9]|1[0-2])\/\d{2}$/, 'Срок действия в формате ММ/ГГ'),
  cvv: z.string({ error: 'Введите CVV' }).regex(/^\d{3}$/, 'CVV состоит из 3 цифр'),
});

export const SandboxChargeResultSchema = z.object({
  success: z.boolean(),
  /** Russian reason of a decline. */
  reason: z.string().nullable(),
  transaction_id: z.number().int(),
});

export const billingRoutes = {
  tariffs: defineRoute({
    method: 'GET',
    path: '/api/new/tariff',
    access: 'public',
    summary: 'Active plans; one-off packages are hidden when frontend=1',
    tags: ['billing'],
    query: TariffQuerySchema,
    response: z.array(TariffSchema),
  }),
  subscribeCheck: defineRoute({
    method: 'GET',
    path: '/api/new/subscribe/check',
    access: 'user',
    summary: 'The current plan, whether the trial applies and the saved card',
    tags: ['billing'],
    response: SubscribeCheckSchema,
  }),
  cancelSubscription: defineRoute({
    method: 'DELETE',
    path: '/api/new/subscribe/',
    access: 'user',
    summary: 'Cancels auto-renewal; the plan stays active to the end of the paid period',
    tags: ['billing'],
    response: z.object({ cancelled: z.literal(true), active_until: TimestampSchema }),
  }),
  paymentKey: defineRoute({
    method: 'GET',
    path: '/api/payment/cloudpayments/key',
    access: 'user',
    summary: 'Public id of the payment widget',
    tags: ['billing'],
    response: z.string(),
  }),
  payPackage: defineRoute({
    method: 'GET',
    path: '/api/payment/cloudpayments/pay',
    access: 'confirmed',
    summary: 'Creates an invoice for a one-off package',
    tags: ['billing'],
    query: TariffIdQuerySchema,
    response: PaymentStartSchema,
  }),
  paySubscription: defineRoute({
    method: 'GET',
    path: '/api/payment/cloudpayments/subscribe',
    access: 'confirmed',
    summary: 'Creates an invoice for a monthly plan (first_amount when the trial applies)',
    tags: ['billing'],
    query: TariffIdQuerySchema,
    response: PaymentStartSchema,
  }),
  paymentStatus: defineRoute({
    method: 'GET',
    path: '/api/payment/cloudpayments/status',
    access: 'user',
    summary: 'Where one of the user’s payments stands (the widget polls it after the payment form closes)',
    tags: ['billing'],
    query: TariffIdQuerySchema,
    response: PaymentStatusSchema,
  }),
  notification: defineRoute({
    method: 'POST',
    path: '/api/payment/cloudpayments/notify/:kind',
    access: 'public',
    signed: true,
    raw: true,
    summary: 'CloudPayments notifications (Content-HMAC signed), JSON or form encoded',
    tags: ['billing'],
    params: z.object({ kind: NotificationKindSchema }),
    response: NotificationReplySchema,
  }),
  subscriptionStatus: defineRoute({
    method: 'GET',
    path: '/api/new/subscribe/check_user',
    access: 'user',
    summary: 'Subscription status for the dashboard',
    tags: ['billing'],
    response: UserSubscriptionStatusSchema,
  }),
  subscriptionHistory: defineRoute({
    method: 'GET',
    path: '/api/new/subscribe',
    access: 'user',
    summary: 'Subscription history, one record per page',
    tags: ['billing'],
    query: PageQuerySchema,
    response: paginated(SubscriptionRecordSchema),
  }),
  packagePurchases: defineRoute({
    method: 'GET',
    path: '/api/new/subscribe/packages',
    access: 'user',
    summary: 'Paid one-off package purchases, one record per page',
    tags: ['billing'],
    query: PageQuerySchema,
    response: paginated(PackagePurchaseSchema),
  }),
  autoCharges: defineRoute({
    method: 'GET',
    path: '/api/new/subscribe/payments',
    access: 'user',
    summary: 'Auto-charges (renewals), one record per page',
    tags: ['billing'],
    query: PageQuerySchema,
    response: paginated(AutoChargeSchema),
  }),
  conversion: defineRoute({
    method: 'GET',
    path: '/api/new/target_2',
    access: 'user',
    summary: 'Records the payment conversion goal (once per paid invoice)',
    tags: ['billing'],
    response: z.object({ recorded: z.boolean() }),
  }),
  sandboxCharge: defineRoute({
    method: 'POST',
    path: '/api/sandbox/cloudpayments/charge',
    access: 'user',
    summary: 'Sandbox checkout: charges a test card and sends signed notifications',
    tags: ['sandbox'],
    body: SandboxChargeBodySchema,
    response: SandboxChargeResultSchema,
  }),
  sandboxRenew: defineRoute({
    method: 'POST',
    path: '/api/admin/sandbox/renew',
    access: 'admin',
    summary: 'Sandbox: charges every due (or the given) subscription now',
    tags: ['sandbox', 'admin'],
    body: z.object({ subscription_id: IdSchema.optional() }),
    response: z.object({ charged: z.number().int(), failed: z.number().int() }),
  }),
} as const;

export const BILLING_TEXTS = {
  buy: 'Купить',
  trial: (firstAmount: number) => `Попробовать за ${String(firstAmount)} р.`,
  subscribe: 'Подписаться',
  current: 'Ваш тариф',
  cancelled: 'Подписка отменена',
  purchased: 'Покупка завершена',
  yes: 'Да',
  no: 'Нет',
  failed: 'Произошла ошибка',
  ordersTabSubscriptions: 'Подписки',
  ordersTabAutoCharges: 'Авто списания',
} as const;

export { BalancesSchema };
