import type { SubscribeCheck, Tariff } from '@app/contracts/browser';
import type { PaymentOutcome } from './use-payment.ts';

export type { Busy } from './use-payment.ts';

export interface TariffsData {
  tariffs: Tariff[];
  check: SubscribeCheck;
}

export type OpenDialog = { kind: 'subscribe'; tariff: Tariff } | { kind: 'cancel'; tariff: Tariff } | null;
type NoticeBody = { kind: 'blocked'; text: string } | { kind: 'cancelled'; name: string; until: string | null } | PaymentOutcome;

/** What happened to a plan, shown in its card, where the user clicked. */
export type Notice = ({ tariffId: number } & NoticeBody) | null;

/** Where the success notice leads: the dashboard, whose conversion stub records the goal (target_2). */
export const AFTER_PAYMENT_URL = '/dashboard?payments=1';
export const CANCEL_LABEL = 'Отменить подписку';
export const POLL_DELAY_MS = 1000;
export const POLL_ATTEMPTS = 15;

/** The anchor of the packages section: `/dashboard/user/payment#packages`. */
export const PACKAGES_ANCHOR = 'packages';
