import { SUBSCRIPTION_TYPES } from '@app/contracts/browser';
import { formatAmount, formatMedia, formatWords, plural } from '@app/kit';
import { STATUS_LABELS } from '../texts.ts';

/** `subscriptions_type` as staff read it (seed: 1 monthly with trial, 3 one-off package, others monthly). */
export const TARIFF_TYPES = [
  { value: String(SUBSCRIPTION_TYPES.monthlyTrial), label: 'Месячный с пробным периодом' },
  { value: String(SUBSCRIPTION_TYPES.monthly), label: 'Месячный' },
  { value: String(SUBSCRIPTION_TYPES.package), label: 'Разовый пакет' },
] as const;

/** The type in a list's narrow column. */
export const tariffTypeShort = (type: number) => (type === SUBSCRIPTION_TYPES.package ? 'Пакет' : type === SUBSCRIPTION_TYPES.monthlyTrial ? 'Месячный + пробный' : 'Месячный');

/** Statuses of subscriptions and payments, in the words of the users' order history. */
export const BILLING_STATUS_LABELS: Record<string, string> = { ...STATUS_LABELS, failed: 'Не прошёл' };
export const billingStatus = (status: string) => BILLING_STATUS_LABELS[status] ?? status;

export const REFUND_STATUS_LABELS: Record<string, string> = { requested: 'Ждёт подтверждения', done: 'Проведён', failed: 'Отклонён' };

export const PAYMENT_KIND_LABELS: Record<string, string> = { subscription: 'Подписка', package: 'Пакет' };

/** Why a subscription changed its status (the server's causes). */
export const CAUSE_LABELS: Record<string, string> = {
  invoice_created: 'Выставлен счёт',
  paid: 'Первый платёж прошёл',
  paid_after_checkout_closed: 'Оплата пришла после закрытия счёта',
  paid_after_decline: 'Оплачено повторной попыткой после отказа',
  duplicate_payment_refunded: 'Счёт оплачен повторно: второй платёж возвращается автоматически',
  checkout_expired: 'Счёт не оплачен за сутки',
  payment_declined: 'Оплата отклонена',
  user_cancelled: 'Отменил пользователь',
  period_ended: 'Закончился оплаченный период',
  trial_already_used_refunded: 'Пробный период уже был: платёж возвращён',
  replaced_by_new_plan: 'Заменена новым тарифом',
  renewed: 'Продлена',
  renewed_after_expiry: 'Продлена после окончания',
  renewal_failed: 'Списание за продление не прошло',
  renewal_charged_while_replaced: 'Списание за продление заменённой подписки',
  refunded: 'Платёж возвращён',
  cloudpayments_active: 'CloudPayments: подписка снова активна',
  cloudpayments_pastdue: 'CloudPayments: просрочена',
  cloudpayments_cancelled: 'CloudPayments: отменена',
  cloudpayments_rejected: 'CloudPayments: отклонена',
  cloudpayments_expired: 'CloudPayments: истекла',
};
/** Why an invoice failed, where the server gives a code of its own (CloudPayments' reasons are shown as they come). */
export const FAILURE_REASON_LABELS: Record<string, string> = {
  checkout_expired: 'счёт не оплачен за сутки',
  trial_already_used: 'пробный период уже использован, платёж возвращён',
};
export const failureReason = (reason: string) => FAILURE_REASON_LABELS[reason] ?? reason;
export const causeLabel = (cause: string | null) => (cause === null ? '—' : (CAUSE_LABELS[cause] ?? cause));

/** The colour of a status badge. */
export function statusTone(status: string): 'success' | 'warning' | 'danger' | 'neutral' {
  if (status === 'active' || status === 'paid' || status === 'done') return 'success';
  if (status === 'pending' || status === 'requested') return 'warning';
  if (status === 'past_due' || status === 'failed') return 'danger';
  return 'neutral';
}

export const rub = (amount: number) => formatAmount(amount, 'RUB');
export const days = (n: number) => `${String(n)} ${plural(n, ['день', 'дня', 'дней'])}`;
export const words = (n: number) => `${formatWords(n)} ${plural(n, ['слово', 'слова', 'слов'])}`;
export const media = (n: number) => `${formatMedia(n)} медиа`;
