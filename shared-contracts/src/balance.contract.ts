import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { PageQuerySchema, TimestampSchema, paginated } from './envelope.ts';
import { balancePaths } from './balance.browser.ts';

export * from './balance.browser.ts';

/**
 * What a line of the balance history is: bought (a plan, its trial or renewal, a package), the
 * welcome gift, spent on a piece of work, still reserved for work under way, given back whole
 * (the work failed or was cancelled), changed by the service, or taken back with a refund.
 */
export const BalanceLineKindSchema = z.enum(['purchase', 'gift', 'spent', 'reserved', 'returned', 'adjustment', 'refund']);
export type BalanceLineKind = z.infer<typeof BalanceLineKindSchema>;

/** One line of the ledger in words: a piece of work's hold and its settle or release are one line. */
export const BalanceLineSchema = z.object({
  id: z.number().int(),
  created_at: TimestampSchema,
  wallet: z.enum(['words', 'media']),
  /** The signed change of the balance: words whole, media tokens with one decimal; 0 for work whose tokens all came back. */
  amount: z.number(),
  kind: BalanceLineKindSchema,
  /** What it was: «Покупка тарифа «Старт»», «Ответ в чате «Рецепт борща»», «Генерация «Аватар»»… */
  title: z.string(),
  /** A second line: the service's reason for an adjustment, why a refund took tokens from work… */
  note: z.string().nullable(),
});
export type BalanceLine = z.infer<typeof BalanceLineSchema>;

export const balanceRoutes = {
  history: defineRoute({
    ...balancePaths.history,
    summary: 'The signed-in user’s balance history, both wallets, newest first, 20 lines a page',
    tags: ['wallet'],
    query: PageQuerySchema,
    response: paginated(BalanceLineSchema),
  }),
} as const;
