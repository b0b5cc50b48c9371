import { BILLING_TEXTS, type AutoCharge, type PackagePurchase, type SubscriptionRecord } from '@app/contracts/browser';
import { formatAmount, plural } from '@app/kit';

/*
 * The order history's tabs and how each record reads as a row: apart from the components, so that
 * an edit of the component module updates it in place under `vite dev` (React Fast Refresh takes a
 * module that exports components only).
 */

export type OrdersTab = 'subscriptions' | 'payments' | 'packages';

export const ORDER_TABS: readonly { id: OrdersTab; label: string }[] = [
  { id: 'subscriptions', label: BILLING_TEXTS.ordersTabSubscriptions },
  { id: 'payments', label: BILLING_TEXTS.ordersTabAutoCharges },
  { id: 'packages', label: BILLING_TEXTS.ordersTabPackages },
];

export type StatusTone = 'success' | 'danger' | 'muted' | 'info';
type DuplicateCharge = SubscriptionRecord['duplicates'][number];

/** One record as the list shows it. */
export interface OrderRow {
  id: number;
  name: string;
  amount: string;
  statuses: { label: string; tone: StatusTone }[];
  /** What else happened to the order: its payment taken a second time and returned. */
  notes: string[];
  created_at: string;
  updated_at: string;
}

const DAYS = ['день', 'дня', 'дней'] as const;

export const ORDER_STATUS = {
  paid: 'Оплачено',
  cancelled: 'Отменено',
  unpaid: 'Не оплачено',
  charged: 'Списано',
  chargeFailed: 'Не удалось списать',
  refunded: 'Возвращено',
  partiallyRefunded: (amount: string) => `Частично возвращено: ${amount}`,
  trial: (days: number) => (days > 0 ? `Пробный период ${String(days)} ${plural(days, DAYS)}` : 'Пробный период'),
} as const;

/** What of a payment came back: all of it, or how much. */
function refundStatus(record: { amount: number; refunded: number; currency_provider: string }): OrderRow['statuses'] {
  if (record.refunded <= 0) return [];
  if (record.refunded >= record.amount) return [{ label: ORDER_STATUS.refunded, tone: 'muted' }];
  return [{ label: ORDER_STATUS.partiallyRefunded(formatAmount(record.refunded, record.currency_provider)), tone: 'muted' }];
}

/** An order's payment taken a second time: it bought nothing and goes back to the card by itself. */
export function duplicateNote(charge: DuplicateCharge, currency: string): string {
  const amount = formatAmount(charge.amount, currency);
  return charge.refunded ? `Оплата прошла дважды: второе списание ${amount} вернули на карту` : `Оплата прошла дважды: второе списание ${amount} возвращаем на карту, токены за него не начислялись`;
}

const rowOf = (record: { id: number; name: string; amount: number; currency_provider: string; created_at: string; updated_at: string }, statuses: OrderRow['statuses'], notes: string[] = []): OrderRow => ({
  id: record.id,
  name: record.name,
  amount: formatAmount(record.amount, record.currency_provider),
  statuses,
  notes,
  created_at: record.created_at,
  updated_at: record.updated_at,
});

/**
 * Subscription record (seed §4): paid, cancelled (closed) or unpaid; paid and later cancelled
 * shows both. A trial says so; what of its payment came back, and a second charge of it, too.
 */
export function subscriptionRow(record: SubscriptionRecord): OrderRow {
  const statuses: OrderRow['statuses'] = [];
  if (record.status) statuses.push({ label: ORDER_STATUS.paid, tone: 'success' });
  if (record.trial_days !== null) statuses.push({ label: ORDER_STATUS.trial(record.trial_days), tone: 'info' });
  statuses.push(...refundStatus(record));
  if (record.closed) statuses.push({ label: ORDER_STATUS.cancelled, tone: 'muted' });
  if (!record.status && !record.closed) statuses.unshift({ label: ORDER_STATUS.unpaid, tone: 'danger' });
  return rowOf(record, statuses, record.duplicates.map((d) => duplicateNote(d, record.currency_provider)));
}

export function autoChargeRow(record: AutoCharge): OrderRow {
  const status = record.status ? { label: ORDER_STATUS.charged, tone: 'success' as const } : { label: ORDER_STATUS.chargeFailed, tone: 'danger' as const };
  return rowOf(record, [status, ...refundStatus(record)]);
}

/** A package purchase: paid, refunded, or partly refunded (paid, and how much came back). */
export function packageRow(record: PackagePurchase): OrderRow {
  const statuses: OrderRow['statuses'] = record.status === 'refunded' ? [{ label: ORDER_STATUS.refunded, tone: 'muted' }] : [{ label: ORDER_STATUS.paid, tone: 'success' }, ...refundStatus(record)];
  return rowOf(record, statuses, record.duplicates.map((d) => duplicateNote(d, record.currency_provider)));
}
