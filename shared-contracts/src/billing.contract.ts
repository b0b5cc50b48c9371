import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { IdSchema } from './fields.ts';
import { PageQuerySchema, TimestampSchema, paginated } from './envelope.ts';
import { SandboxChargeBodySchema, billingPaths } from './billing.browser.ts';
import { NotificationKindSchema, NotificationReplySchema, WidgetOptionsSchema } from './cloudpayments.protocol.ts';
import { BalancesSchema } from './accounts.contract.ts';
import { PromoCodeSchema } from './promo.browser.ts';

export * from './billing.browser.ts';

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

/** A plan's checkout, with a discount code to take off its first payment. */
export const SubscribeQuerySchema = TariffIdQuerySchema.extend({ promo: z.optional(PromoCodeSchema) });

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
  /** Why a payment that went through was not accepted (its money is being returned), to show as is. */
  message: z.string().nullable(),
});
export type PaymentStatus = z.infer<typeof PaymentStatusSchema>;

/** A second charge of the same order (its payment made twice): it bought nothing and goes back to the card by itself. */
export const DuplicateChargeSchema = z.object({
  amount: z.number(),
  /** Back on the card (CloudPayments confirmed the refund); until then on its way back. */
  refunded: z.boolean(),
  created_at: TimestampSchema,
});
export type DuplicateCharge = z.infer<typeof DuplicateChargeSchema>;

export const SubscriptionRecordSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Paid. */
  status: z.boolean(),
  /** Cancelled. */
  closed: z.boolean(),
  /** The first payment: the trial's price for a trial. */
  amount: z.number(),
  currency_provider: z.string(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
  /** Days of the trial this order bought, or null when it was no trial. */
  trial_days: z.number().int().nullable(),
  /** Rubles of the first payment returned so far. */
  refunded: z.number(),
  duplicates: z.array(DuplicateChargeSchema),
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
  /** Rubles returned so far. */
  refunded: z.number(),
  duplicates: z.array(DuplicateChargeSchema),
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
  /** Rubles of the charge returned so far. */
  refunded: z.number(),
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

export const SandboxChargeResultSchema = z.object({
  success: z.boolean(),
  /** Russian reason of a decline. */
  reason: z.string().nullable(),
  transaction_id: z.number().int(),
});

export const billingRoutes = {
  tariffs: defineRoute({
    ...billingPaths.tariffs,
    summary: 'Active plans; one-off packages are hidden when frontend=1',
    tags: ['billing'],
    query: TariffQuerySchema,
    response: z.array(TariffSchema),
  }),
  subscribeCheck: defineRoute({
    ...billingPaths.subscribeCheck,
    summary: 'The current plan, whether the trial applies and the saved card',
    tags: ['billing'],
    response: SubscribeCheckSchema,
  }),
  cancelSubscription: defineRoute({
    ...billingPaths.cancelSubscription,
    summary: 'Cancels auto-renewal; the plan stays active to the end of the paid period',
    tags: ['billing'],
    response: z.object({ cancelled: z.literal(true), active_until: TimestampSchema }),
  }),
  paymentKey: defineRoute({
    ...billingPaths.paymentKey,
    summary: 'Public id of the payment widget',
    tags: ['billing'],
    response: z.string(),
  }),
  payPackage: defineRoute({
    ...billingPaths.payPackage,
    summary: 'Creates an invoice for a one-off package',
    tags: ['billing'],
    query: TariffIdQuerySchema,
    response: PaymentStartSchema,
  }),
  paySubscription: defineRoute({
    ...billingPaths.paySubscription,
    summary: 'Creates an invoice for a monthly plan (first_amount when the trial applies), less a discount code’s percent (`promo`, never below 1 ₽)',
    tags: ['billing'],
    query: SubscribeQuerySchema,
    response: PaymentStartSchema,
  }),
  paymentStatus: defineRoute({
    ...billingPaths.paymentStatus,
    summary: 'Where one of the user’s payments stands (the widget polls it after the payment form closes)',
    tags: ['billing'],
    query: TariffIdQuerySchema,
    response: PaymentStatusSchema,
  }),
  notification: defineRoute({
    ...billingPaths.notification,
    signed: true,
    raw: true,
    summary: 'CloudPayments notifications (Content-HMAC signed), JSON or form encoded',
    tags: ['billing'],
    params: z.object({ kind: NotificationKindSchema }),
    response: NotificationReplySchema,
  }),
  subscriptionStatus: defineRoute({
    ...billingPaths.subscriptionStatus,
    summary: 'Subscription status for the dashboard',
    tags: ['billing'],
    response: UserSubscriptionStatusSchema,
  }),
  subscriptionHistory: defineRoute({
    ...billingPaths.subscriptionHistory,
    summary: 'Subscription history, one record per page',
    tags: ['billing'],
    query: PageQuerySchema,
    response: paginated(SubscriptionRecordSchema),
  }),
  packagePurchases: defineRoute({
    ...billingPaths.packagePurchases,
    summary: 'Paid one-off package purchases, one record per page',
    tags: ['billing'],
    query: PageQuerySchema,
    response: paginated(PackagePurchaseSchema),
  }),
  autoCharges: defineRoute({
    ...billingPaths.autoCharges,
    summary: 'Auto-charges (renewals), one record per page',
    tags: ['billing'],
    query: PageQuerySchema,
    response: paginated(AutoChargeSchema),
  }),
  conversion: defineRoute({
    ...billingPaths.conversion,
    summary: 'Records the payment conversion goal (once per paid invoice)',
    tags: ['billing'],
    response: z.object({ recorded: z.boolean() }),
  }),
  sandboxCharge: defineRoute({
    ...billingPaths.sandboxCharge,
    summary: 'Sandbox checkout: charges a test card and sends signed notifications',
    tags: ['sandbox'],
    body: SandboxChargeBodySchema,
    response: SandboxChargeResultSchema,
  }),
  sandboxRenew: defineRoute({
    ...billingPaths.sandboxRenew,
    summary: 'Sandbox: charges every due (or the given) subscription now',
    tags: ['sandbox', 'admin'],
    body: z.object({ subscription_id: z.optional(IdSchema) }),
    response: z.object({ charged: z.number().int(), failed: z.number().int() }),
  }),
} as const;


export { BalancesSchema };
