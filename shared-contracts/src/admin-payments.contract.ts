/* The admin's subscriptions, payments with their refunds, and the subscription log. */
import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { TimestampSchema, paginated } from './envelope.ts';
import { IdSchema } from './fields.ts';
import { adminListQuery } from './admin.contract.ts';
import { RefundRequestSchema } from './admin-inputs.ts';
import { INVOICE_STATUSES, REFUND_CAUSES, REFUND_STATUSES, SUBSCRIPTION_STATUSES, adminBillingPaths } from './admin-billing.browser.ts';

const IdParams = z.object({ id: IdSchema });

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
  /** A second charge of that payment (the same invoice paid twice): it bought nothing and is refunded automatically. */
  duplicate_of: z.number().int().nullable(),
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
  /** Asked by the service itself, and why: `duplicate_payment` (the refund of a second charge). */
  cause: z.enum(REFUND_CAUSES).nullable(),
  actor_id: z.number().int().nullable(),
  actor_email: z.string().nullable(),
  refund_transaction_id: z.number().int().nullable(),
  created_at: TimestampSchema,
  applied_at: TimestampSchema.nullable(),
});
export type AdminRefund = z.infer<typeof AdminRefundSchema>;

/** A second charge of a payment, as its payment lists it. */
export const AdminDuplicateChargeSchema = z.object({
  id: z.number().int(),
  amount: z.number(),
  status: z.enum(INVOICE_STATUSES),
  refunded: z.number(),
  transaction_id: z.number().int().nullable(),
  paid_at: TimestampSchema.nullable(),
});

/** One payment with its refunds, its second charges (each refunded automatically) and the ledger lines it caused (grants and take-backs). */
export const AdminPaymentDetailSchema = AdminPaymentSchema.extend({
  refunds: z.array(AdminRefundSchema),
  duplicates: z.array(AdminDuplicateChargeSchema),
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

const list = (what: string) => `${what}, 20 a page`;

export const adminPaymentRoutes = {
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
} as const;
