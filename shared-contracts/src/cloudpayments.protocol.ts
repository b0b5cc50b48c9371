import { z } from './zod-ru.ts';

/** 54-ФЗ receipt as the CloudPayments widget and API take it. */
export const ReceiptSchema = z.object({
  Items: z.array(
    z.object({
      label: z.string().max(128),
      price: z.number(),
      quantity: z.number(),
      amount: z.number(),
      vat: z.number().nullable(),
      method: z.number().int(),
      object: z.number().int(),
    }),
  ),
  taxationSystem: z.number().int(),
  email: z.string(),
  amounts: z.object({ electronic: z.number() }),
});
export type Receipt = z.infer<typeof ReceiptSchema>;

export const RecurrentSchema = z.object({
  interval: z.literal('Month'),
  period: z.number().int(),
  amount: z.number(),
  startDate: z.string(),
  customerReceipt: ReceiptSchema,
});

/** Options of `new cp.CloudPayments().pay('charge', options, ...)`, built by the server. */
export const WidgetOptionsSchema = z.object({
  publicId: z.string(),
  description: z.string(),
  amount: z.number(),
  currency: z.literal('RUB'),
  accountId: z.string(),
  invoiceId: z.string(),
  email: z.string(),
  skin: z.string(),
  data: z.object({
    CloudPayments: z.object({
      CustomerReceipt: ReceiptSchema,
      recurrent: RecurrentSchema.optional(),
    }),
  }),
});
export type WidgetOptions = z.infer<typeof WidgetOptionsSchema>;

/** Notification kinds, each posted to its own URL. */
export const NotificationKindSchema = z.enum(['check', 'pay', 'fail', 'confirm', 'refund', 'recurrent', 'cancel']);
export type NotificationKind = z.infer<typeof NotificationKindSchema>;

/** Codes of the `{code}` reply. */
export const CP_CODES = {
  ok: 0,
  wrongInvoice: 10,
  wrongAccount: 11,
  wrongAmount: 12,
  cannotAccept: 13,
  expired: 20,
} as const;

export const NotificationReplySchema = z.object({ code: z.number().int() });

/** Subscription statuses of CloudPayments' API. */
export const CpSubscriptionStatusSchema = z.enum(['Active', 'PastDue', 'Cancelled', 'Rejected', 'Expired']);
