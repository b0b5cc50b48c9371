import { CP_CODES, CpSubscriptionStatusSchema, z } from '@app/contracts';

/** Form-encoded fields arrive as strings; empty means absent. */
const opt = z.preprocess((v) => (v === '' || v === null ? undefined : v), z.union([z.string(), z.number()]).optional().transform((v) => (v === undefined ? undefined : String(v))));
const id = z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER));

/** Fields of Check, Pay, Fail, Confirm, Refund and Cancel that the handlers read. */
export const PaymentNotificationSchema = z.object({
  TransactionId: id,
  Amount: z.union([z.string(), z.number()]).transform(String),
  Currency: opt,
  InvoiceId: opt,
  AccountId: opt,
  SubscriptionId: opt,
  Email: opt,
  DateTime: opt,
  Token: opt,
  CardFirstSix: opt,
  CardLastFour: opt,
  CardType: opt,
  Reason: opt,
  ReasonCode: opt,
  Status: opt,
  TestMode: opt,
  PaymentTransactionId: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional()),
});
export type PaymentNotification = z.infer<typeof PaymentNotificationSchema>;

/** Fields of a Recurrent (subscription changed) notification. */
export const RecurrentNotificationSchema = z.object({
  Id: z.string().min(1).max(100),
  AccountId: z.union([z.string(), z.number()]).transform(String),
  Status: CpSubscriptionStatusSchema,
  Amount: z.union([z.string(), z.number()]).transform(String),
  SuccessfulTransactionsNumber: z.coerce.number().int().min(0).default(0),
  FailedTransactionsNumber: z.coerce.number().int().min(0).default(0),
  NextTransactionDate: opt,
  Email: opt,
  Description: opt,
});
export type RecurrentNotification = z.infer<typeof RecurrentNotificationSchema>;

/** What a handler answers CloudPayments: 0 accepts; the others refuse (and CloudPayments retries). */
export type Code = (typeof CP_CODES)[keyof typeof CP_CODES];

/** Our invoice's id as a notification names it (`InvoiceId`), when it is one. */
export function invoiceIdOf(n: PaymentNotification): number | undefined {
  const id = Number(n.InvoiceId);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}
