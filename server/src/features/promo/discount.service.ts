import type { DiscountCheck } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import type { Executor, Tx } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Viewer } from '../accounts/viewer.ts';
import { rubles } from '../billing/money.ts';
import { findTariff, hasTrial, isPackage } from '../billing/tariffs.queries.ts';
import { hasPaidSubscription } from '../billing/subscriptions.queries.ts';
import type { TariffRow } from '../billing/billing.table.ts';
import { findPromoByCode, insertRedemption, lockPromoByCode, moveRedemption } from './promo.queries.ts';
import type { PromoCodeRow } from './promo.table.ts';
import { assertCodeLive, assertUserMayRedeem, guarded } from './promo.service.ts';

export { guarded };

/** A discount never takes a payment below 1 ₽ (a price already below it stays as it is). */
export function discounted(kopecks: number, percent: number): number {
  return Math.max(Math.min(kopecks, 100), Math.round((kopecks * (100 - percent)) / 100));
}

/** A discount taken at a checkout: the code, what it took off, and the user's earlier redemption to move. */
export interface CheckoutDiscount {
  promo: PromoCodeRow;
  kopecks: number;
  reuse: number | null;
}

/** Whether the code gives this user a discount on this plan's first payment (in the caller's transaction, the code locked or read). */
async function discountFor(db: Executor, promo: PromoCodeRow | undefined, userId: number, tariff: TariffRow): Promise<{ promo: PromoCodeRow; reuse: number | null }> {
  assertCodeLive(promo, new Date());
  if (promo.kind !== 'discount') throw new AppError('PROMO_NOT_DISCOUNT');
  if (isPackage(tariff)) throw new AppError('PROMO_NOT_FOR_PACKAGES');
  if (promo.tariff_id !== null && promo.tariff_id !== tariff.id) throw new AppError('PROMO_OTHER_PLAN');
  const { reuse } = await assertUserMayRedeem(db, promo, userId);
  return { promo, reuse };
}

/** Takes a discount code at a plan's checkout, under the code's lock (its uses hold however many check out at once). */
export async function takeDiscount(tx: Tx, code: string, userId: number, tariff: TariffRow, chargeKopecks: number, known: () => void): Promise<CheckoutDiscount> {
  const promo = await lockPromoByCode(tx, code);
  if (promo) known();
  const found = await discountFor(tx, promo, userId, tariff);
  return { ...found, kopecks: chargeKopecks - discounted(chargeKopecks, found.promo.discount_percent ?? 0) };
}

/** Records the discount on its checkout's invoice (a failed checkout's redemption no longer counts; taking the code again moves it). */
export async function bindDiscount(tx: Tx, discount: CheckoutDiscount, userId: number, invoiceId: number): Promise<void> {
  if (discount.reuse !== null) {
    await moveRedemption(tx, discount.reuse, invoiceId, discount.kopecks);
    return;
  }
  const inserted = await insertRedemption(tx, { promo_code_id: discount.promo.id, user_id: userId, invoice_id: invoiceId, discount_kopecks: discount.kopecks });
  if (!inserted) throw new AppError('PROMO_ALREADY_USED');
}

/** What the checkout of a plan costs with a discount code, before the user pays (nothing is recorded). */
export async function checkDiscount(ctx: AppContext, viewer: Viewer, code: string, tariffId: number, ip: string): Promise<DiscountCheck> {
  const tariff = await findTariff(ctx.db, tariffId);
  if (!tariff?.active) throw new AppError('TARIFF_NOT_FOUND');
  return guarded(ctx, viewer.id, ip, async (known) => {
    const promo = await findPromoByCode(ctx.db, code);
    if (promo) known();
    const found = await discountFor(ctx.db, promo, viewer.id, tariff);
    const trial = hasTrial(tariff) && !(await hasPaidSubscription(ctx.db, viewer.id));
    const charge = trial ? (tariff.first_amount_kopecks ?? tariff.amount_kopecks) : tariff.amount_kopecks;
    const percent = found.promo.discount_percent ?? 0;
    const after = discounted(charge, percent);
    return {
      code: found.promo.code,
      percent,
      amount: rubles(charge),
      discounted: rubles(after),
      message: `Скидка ${String(percent)} % по промокоду ${found.promo.code}: первая оплата ${rubles(after).toLocaleString('ru-RU')} ₽ вместо ${rubles(charge).toLocaleString('ru-RU')} ₽`,
    };
  });
}
