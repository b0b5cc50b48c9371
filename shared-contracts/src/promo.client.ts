/**
 * Promo codes and referrals as the browser gets them (`@app/contracts/promo`): endpoints typed by
 * their contracts and the code's schema. Bundled into the widgets that use it (the balance page,
 * the plans page), so the boot chunk every page loads does not carry it.
 */
import type { promoRoutes } from './promo.contract.ts';
import { promoPaths } from './promo.browser.ts';
import type { ClientRoutes } from './route.ts';

export * from './promo.browser.ts';
export type { DiscountCheck, PromoRedemption, ReferralSummary } from './promo.contract.ts';

export const promoEndpoints: ClientRoutes<typeof promoRoutes> = promoPaths;
