import * as z from 'zod/mini';
import type { Endpoint } from './route.ts';
import { IdSchema } from './fields.ts';

/* What of the promo codes and referrals contract the browser needs: endpoints, the code's schema (zod/mini) and texts. */

export const promoPaths = {
  redeem: { method: 'POST', path: '/api/new/promo/redeem', access: 'confirmed' },
  checkDiscount: { method: 'GET', path: '/api/new/promo/discount', access: 'confirmed' },
  referral: { method: 'GET', path: '/api/new/referral', access: 'user' },
} as const satisfies Record<string, Endpoint>;

/** A promo code: Latin letters and digits, 4–32, any case (kept and compared upper-case). */
export const PROMO_CODE_PATTERN = /^[A-Z0-9]{4,32}$/;
export const PROMO_CODE_MESSAGE = 'Промокод — от 4 до 32 латинских букв и цифр';

export const PromoCodeSchema = z.pipe(
  z.pipe(
    z.string({ error: 'Введите промокод' }).check(z.trim(), z.minLength(1, 'Введите промокод'), z.maxLength(64, PROMO_CODE_MESSAGE)),
    z.transform((s: string) => s.toUpperCase()),
  ),
  z.string().check(z.regex(PROMO_CODE_PATTERN, PROMO_CODE_MESSAGE)),
);

export const RedeemPromoBodySchema = z.object({ code: PromoCodeSchema });
export type RedeemPromoBody = z.input<typeof RedeemPromoBodySchema>;

/** The query of a discount's check at checkout: the code and the plan. */
export const DiscountQuerySchema = z.object({
  code: PromoCodeSchema,
  tariff_id: IdSchema,
});

/** Words an inviter earns for an invited account's first payment, until staff set another figure (Настройки). */
export const REFERRAL_BONUS_WORDS = 5000;

/** The referral link of a user: the registration page with their code. */
export const referralLink = (origin: string, code: string) => `${origin}/register?ref=${encodeURIComponent(code)}`;

/** A referral code in a link: what `/register?ref=` accepts. */
export const REFERRAL_CODE_PATTERN = /^[a-z0-9]{6,16}$/;
