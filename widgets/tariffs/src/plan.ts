import { BILLING_TEXTS, CLIENT_ERRORS, SUBSCRIPTION_TYPES, type SubscribeCheck, type Tariff } from '@app/contracts/browser';

/** The forms of «день» after a number. */
export const DAYS = ['день', 'дня', 'дней'] as const;

export const isPackage = (tariff: Tariff) => tariff.subscriptions_type === SUBSCRIPTION_TYPES.package;

/** The plan has a trial: monthly with a trial (type 1), its price and at least a day of it. */
export const hasTrial = (tariff: Pick<Tariff, 'subscriptions_type' | 'first_amount' | 'trial_days'>): tariff is typeof tariff & { first_amount: number } =>
  tariff.subscriptions_type === SUBSCRIPTION_TYPES.monthlyTrial && tariff.first_amount !== null && tariff.trial_days > 0;

/** The trial price applies: a plan with a trial, for a user whose first subscription this is (seed §4, §9). */
export const trialApplies = (tariff: Tariff, check: SubscribeCheck): tariff is Tariff & { first_amount: number } => hasTrial(tariff) && check.first;

/** Why a one-off package cannot be bought now (seed §4, §5), or null when it can. */
export function packageBlock(check: SubscribeCheck): string | null {
  if (check.subscriptions === null) return CLIENT_ERRORS.SUBSCRIPTION_REQUIRED;
  if (check.cancelled) return CLIENT_ERRORS.SUBSCRIPTION_CANCELLED;
  return null;
}

/** Why nothing can be bought while paying is unavailable (the payment sandbox is switched off). */
export const PAYMENTS_OFF_REASON = 'Оплата временно недоступна. Попробуйте позже';

export type PlanButton =
  | { kind: 'current'; label: string }
  | { kind: 'cancelled'; label: string }
  | { kind: 'purchased'; label: string }
  | { kind: 'pay'; label: string; blockedReason: string | null };

/**
 * The plan button (seed §4): the current plan shows «Ваш тариф» (and a cancel button), or
 * «Подписка отменена» once cancelled; a package bought in this visit «Покупка завершена»;
 * otherwise «Купить» (package), «Попробовать за {first_amount} р.» (trial) or «Подписаться».
 * A package looks disabled without a current plan or while it is cancelled; every buy button
 * looks disabled while paying is unavailable (`paymentsOff`), a click saying why.
 */
export function planButton(tariff: Tariff, check: SubscribeCheck, purchased: readonly number[], paymentsOff = false): PlanButton {
  if (check.subscriptions === tariff.id && !isPackage(tariff)) {
    return check.cancelled ? { kind: 'cancelled', label: BILLING_TEXTS.cancelled } : { kind: 'current', label: BILLING_TEXTS.current };
  }
  if (isPackage(tariff)) {
    if (purchased.includes(tariff.id)) return { kind: 'purchased', label: BILLING_TEXTS.purchased };
    return { kind: 'pay', label: BILLING_TEXTS.buy, blockedReason: paymentsOff ? PAYMENTS_OFF_REASON : packageBlock(check) };
  }
  const blockedReason = paymentsOff ? PAYMENTS_OFF_REASON : null;
  if (trialApplies(tariff, check)) return { kind: 'pay', label: BILLING_TEXTS.trial(tariff.first_amount), blockedReason };
  return { kind: 'pay', label: BILLING_TEXTS.subscribe, blockedReason };
}

/** A description line's parts and the agreement of «медиа токен…»: shared with the page's skeleton (`@app/contracts`). */
export { descriptionParts, withMediaAgreement, type DescriptionPart } from '@app/contracts/plan-lines';
