import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { BalancesSchema } from './accounts.contract.ts';
import { DiscountQuerySchema, RedeemPromoBodySchema, promoPaths } from './promo.browser.ts';

export * from './promo.browser.ts';

/** What a redeemed code did: tokens credited (a ledger line «Промокод …»), or a discount to take at a plan's checkout. */
export const PromoRedemptionSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('tokens'),
    code: z.string(),
    words: z.number().int(),
    /** With one decimal. */
    media: z.number(),
    balances: BalancesSchema,
    message: z.string(),
  }),
  z.object({
    kind: z.literal('discount'),
    code: z.string(),
    percent: z.number().int(),
    /** The one plan it applies to, or null for any monthly plan. */
    tariff: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    message: z.string(),
  }),
]);
export type PromoRedemption = z.infer<typeof PromoRedemptionSchema>;

/** A discount at a plan's checkout: the price before and after, in roubles. */
export const DiscountCheckSchema = z.object({
  code: z.string(),
  percent: z.number().int(),
  amount: z.number(),
  discounted: z.number(),
  message: z.string(),
});
export type DiscountCheck = z.infer<typeof DiscountCheckSchema>;

/** A user's referral link and what it brought: accounts registered through it, of them paid, and the words earned (net of bonuses taken back). */
export const ReferralSummarySchema = z.object({
  code: z.string(),
  link: z.string(),
  bonus_words: z.number().int(),
  invited: z.number().int(),
  paid: z.number().int(),
  earned_words: z.number().int(),
});
export type ReferralSummary = z.infer<typeof ReferralSummarySchema>;

export const promoRoutes = {
  redeem: defineRoute({
    ...promoPaths.redeem,
    summary: 'Redeems a promo code: its tokens credited once per user and code (a ledger line), or a discount code explained for the checkout',
    tags: ['promo'],
    body: RedeemPromoBodySchema,
    response: PromoRedemptionSchema,
  }),
  checkDiscount: defineRoute({
    ...promoPaths.checkDiscount,
    summary: 'Whether a discount code applies to a plan’s checkout for the viewer, and the price with it',
    tags: ['promo'],
    query: DiscountQuerySchema,
    response: DiscountCheckSchema,
  }),
  referral: defineRoute({
    ...promoPaths.referral,
    summary: 'The viewer’s referral link with invited, paid and earned',
    tags: ['promo'],
    response: ReferralSummarySchema,
  }),
} as const;
