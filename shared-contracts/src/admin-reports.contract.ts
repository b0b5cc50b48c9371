/* What staff read of the money and the work over a period: the analytics (Аналитика) and the CSV exports for accounting. */
import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { AnalyticsQuerySchema, ExportQuerySchema } from './admin-inputs.ts';
import { adminBillingPaths } from './admin-billing.browser.ts';

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

export const adminReportRoutes = {
  analytics: defineRoute({
    ...adminBillingPaths.analytics,
    summary: 'Per day of a period (at most 366 days, Moscow days): revenue, payments, new and active subscriptions, runs, words and media spent',
    tags: ['admin'],
    query: AnalyticsQuerySchema,
    response: AnalyticsSchema,
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
