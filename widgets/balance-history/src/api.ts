import { accountEndpoints } from '@app/contracts/browser';
import { balanceEndpoints } from '@app/contracts/balance';
import { promoEndpoints } from '@app/contracts/promo';
import { routeCall } from '@app/kit';

/** The calls of the balance history (tests pass fakes with the same routes). */
export const balanceHistoryApi = {
  /** GET /api/new/balance/history?page=n: 20 lines a page, newest first. */
  history: routeCall(balanceEndpoints.history),
  /** GET /api/new/user: the balances now, shared with the other widgets of the page. */
  user: routeCall(accountEndpoints.user),
  /** POST /api/new/promo/redeem: a promo code's tokens credited once, or its discount explained. */
  redeem: routeCall(promoEndpoints.redeem),
  /** GET /api/new/referral: the user's referral link with invited, paid and earned. */
  referral: routeCall(promoEndpoints.referral),
};

export type BalanceHistoryApi = typeof balanceHistoryApi;
