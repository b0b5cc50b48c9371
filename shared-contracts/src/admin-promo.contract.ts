import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { TimestampSchema, paginated } from './envelope.ts';
import { IdSchema } from './fields.ts';
import { adminListQuery } from './admin.contract.ts';
import { PROMO_SORTS, PromoCodeInputSchema, PromoCodeUpdateSchema, adminPromoPaths } from './admin-promo.browser.ts';

export * from './admin-promo.browser.ts';

/** Where a code stands today: works, not yet, ended, used up, or switched off by staff. */
export const PromoStateSchema = z.enum(['active', 'scheduled', 'expired', 'used_up', 'disabled']);

export const AdminPromoCodeSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  kind: z.enum(['tokens', 'discount']),
  words: z.number().int(),
  /** With one decimal. */
  media: z.number(),
  discount_percent: z.number().int().nullable(),
  tariff: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  max_uses: z.number().int().nullable(),
  /** Redemptions that count: tokens credited, or a discount given on a checkout not failed. */
  uses: z.number().int(),
  new_users_only: z.boolean(),
  starts_on: z.string().nullable(),
  ends_on: z.string().nullable(),
  note: z.string().nullable(),
  active: z.boolean(),
  state: PromoStateSchema,
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type AdminPromoCode = z.infer<typeof AdminPromoCodeSchema>;

/** One redemption: who, when, what it gave. */
export const AdminPromoRedemptionSchema = z.object({
  id: z.number().int(),
  user: z.object({ id: z.number().int(), email: z.string() }),
  words: z.number().int(),
  media: z.number(),
  /** Roubles taken off the checkout. */
  discount: z.number(),
  payment_id: z.number().int().nullable(),
  /** For a discount: whether its checkout was paid (null: tokens). */
  payment_status: z.string().nullable(),
  created_at: TimestampSchema,
});
export type AdminPromoRedemption = z.infer<typeof AdminPromoRedemptionSchema>;

export const AdminPromoCodeDetailSchema = AdminPromoCodeSchema.extend({ redemptions: z.array(AdminPromoRedemptionSchema) });
export type AdminPromoCodeDetail = z.infer<typeof AdminPromoCodeDetailSchema>;

const IdParams = z.object({ id: IdSchema });

export const adminPromoRoutes = {
  promoCodes: defineRoute({
    ...adminPromoPaths.promoCodes,
    summary: 'Promo codes with their uses, search by code or note, 20 a page',
    tags: ['admin'],
    query: adminListQuery(PROMO_SORTS, 'id'),
    response: paginated(AdminPromoCodeSchema),
  }),
  promoCode: defineRoute({ ...adminPromoPaths.promoCode, summary: 'One promo code with its latest 100 redemptions', tags: ['admin'], params: IdParams, response: AdminPromoCodeDetailSchema }),
  createPromoCode: defineRoute({
    ...adminPromoPaths.createPromoCode,
    summary: 'Creates a promo code (a code already taken is refused on `code`); written to the audit log',
    tags: ['admin'],
    body: PromoCodeInputSchema,
    response: AdminPromoCodeDetailSchema,
  }),
  updatePromoCode: defineRoute({
    ...adminPromoPaths.updatePromoCode,
    summary: 'Changes a code’s limits, period, audience, note or switches it off; written to the audit log',
    tags: ['admin'],
    params: IdParams,
    body: PromoCodeUpdateSchema,
    response: AdminPromoCodeDetailSchema,
  }),
} as const;
