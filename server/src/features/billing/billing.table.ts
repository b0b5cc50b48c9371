import type { ColumnType, Generated, Selectable } from 'kysely';

type CreatedAt = ColumnType<Date, Date | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | undefined, Date>;
type WithDefault<T> = ColumnType<T, T | undefined, T>;
/** A nullable column an insert may leave out. */
type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

export interface TariffsTable {
  id: Generated<number>;
  name: string;
  amount_kopecks: number;
  first_amount_kopecks: number | null;
  description: ColumnType<string[], string | undefined, string>;
  subscriptions_type: number;
  popular: WithDefault<boolean>;
  currency_provider: WithDefault<string>;
  words: WithDefault<number>;
  media_tenths: WithDefault<number>;
  trial_days: WithDefault<number>;
  sort: WithDefault<number>;
  active: WithDefault<boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type TariffRow = Selectable<TariffsTable>;

/**
 * pending: invoice created, not paid (shown as unpaid); active: paid and auto-renewing;
 * past_due: a renewal charge failed, CloudPayments retries; cancelled: auto-renewal off, active
 * to period_end; expired: over; replaced: another plan was bought over it.
 */
export type SubscriptionStatus = 'pending' | 'active' | 'past_due' | 'cancelled' | 'expired' | 'replaced';
export const CURRENT_STATUSES = ['active', 'past_due', 'cancelled'] as const satisfies readonly SubscriptionStatus[];

export interface SubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  tariff_id: number;
  name: string;
  status: WithDefault<SubscriptionStatus>;
  amount_kopecks: number;
  first_amount_kopecks: number;
  currency_provider: WithDefault<string>;
  is_trial: WithDefault<boolean>;
  paid_at: Nullable<Date>;
  cancelled_at: Nullable<Date>;
  period_end: Nullable<Date>;
  ended_at: Nullable<Date>;
  cp_subscription_id: Nullable<string>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type SubscriptionRow = Selectable<SubscriptionsTable>;

export type InvoiceStatus = 'pending' | 'paid' | 'failed' | 'refunded';

export interface InvoicesTable {
  id: Generated<number>;
  user_id: number;
  tariff_id: number;
  subscription_id: Nullable<number>;
  kind: 'subscription' | 'package';
  description: string;
  amount_kopecks: number;
  currency: WithDefault<string>;
  status: WithDefault<InvoiceStatus>;
  transaction_id: Nullable<number>;
  failure_reason: Nullable<string>;
  paid_at: Nullable<Date>;
  refunded_at: Nullable<Date>;
  /** Refunded so far (partial refunds add up); the invoice is `refunded` once it reaches the amount. */
  refunded_kopecks: WithDefault<number>;
  /** What the checkout showed and the payment buys: the plan's or package's name, its tokens, the trial's days (0 without one). */
  tariff_name: string;
  words: number;
  media_tenths: number;
  trial_days: number;
  /** A second charge of that (already paid) invoice: it buys nothing and is refunded automatically. */
  duplicate_of: Nullable<number>;
  /** The promo code whose discount the checkout took off (`discount_kopecks` of the plan's price). */
  promo_code_id: Nullable<number>;
  discount_kopecks: WithDefault<number>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type InvoiceRow = Selectable<InvoicesTable>;

export interface AutoChargesTable {
  id: Generated<number>;
  user_id: number;
  subscription_id: number;
  name: string;
  success: boolean;
  amount_kopecks: number;
  currency_provider: WithDefault<string>;
  transaction_id: number;
  failure_reason: Nullable<string>;
  refunded_at: Nullable<Date>;
  /** Refunded so far (partial refunds add up). */
  refunded_kopecks: WithDefault<number>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export type RefundStatus = 'requested' | 'done' | 'failed';
export type RefundCause = 'duplicate_payment';

/**
 * A refund of one payment (an invoice or a renewal charge): an admin's request (reason, actor,
 * `request_id`) stays `requested` until CloudPayments reports it, then `done` with what it
 * applied; a refund made at CloudPayments itself arrives `done` with no actor.
 */
export interface PaymentRefundsTable {
  id: Generated<number>;
  invoice_id: Nullable<number>;
  auto_charge_id: Nullable<number>;
  user_id: number;
  payment_transaction_id: number;
  amount_kopecks: number;
  /** What the refund took off the payment (capped at what was left); null until reported. */
  applied_kopecks: Nullable<number>;
  status: RefundStatus;
  /** CloudPayments' id of the refund transaction, from its reply or its notification. */
  refund_transaction_id: Nullable<number>;
  reason: Nullable<string>;
  /** Why the service itself asked for it (no admin did): a duplicate charge. */
  cause: Nullable<RefundCause>;
  request_id: Nullable<string>;
  actor_id: Nullable<number>;
  created_at: CreatedAt;
  applied_at: Nullable<Date>;
  updated_at: UpdatedAt;
}

export interface SubscriptionLogTable {
  id: Generated<number>;
  subscription_id: number;
  user_id: number;
  from_status: string | null;
  to_status: string;
  cause: string;
  ref: string | null;
  created_at: CreatedAt;
}

export interface PaymentNotificationsTable {
  id: Generated<number>;
  kind: string;
  idempotency_key: string;
  transaction_id: Nullable<number>;
  payload: ColumnType<Record<string, unknown>, string, never>;
  result_code: number;
  created_at: CreatedAt;
}

export interface CpSubscriptionsTable {
  id: string;
  account_id: string;
  status: string;
  amount_kopecks: number;
  next_transaction_at: Date | null;
  successful_transactions: WithDefault<number>;
  failed_transactions: WithDefault<number>;
  updated_at: UpdatedAt;
}

export interface UserCardsTable {
  user_id: number;
  token: string;
  first_six: string | null;
  last_four: string;
  card_type: string | null;
  updated_at: UpdatedAt;
}

export interface ConversionsTable {
  invoice_id: number;
  user_id: number;
  created_at: CreatedAt;
}

export interface SandboxSubscriptionsTable {
  id: string;
  account_id: string;
  email: string;
  description: string;
  amount_kopecks: number;
  card_number: string;
  status: string;
  start_at: Date;
  next_transaction_at: Date;
  successful_transactions: WithDefault<number>;
  failed_transactions: WithDefault<number>;
  created_at: CreatedAt;
}

export interface DashboardCardsTable {
  id: Generated<number>;
  link: string;
  icon: string;
  name: string;
  description: string;
  sort: WithDefault<number>;
  active: WithDefault<boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface TelegramLinksTable {
  code: string;
  user_id: number;
  created_at: CreatedAt;
  used_at: Date | null;
}

export interface BillingTables {
  tariffs: TariffsTable;
  subscriptions: SubscriptionsTable;
  invoices: InvoicesTable;
  auto_charges: AutoChargesTable;
  subscription_log: SubscriptionLogTable;
  payment_notifications: PaymentNotificationsTable;
  cp_subscriptions: CpSubscriptionsTable;
  user_cards: UserCardsTable;
  conversions: ConversionsTable;
  sandbox_subscriptions: SandboxSubscriptionsTable;
  sandbox_refunds: { request_id: string; transaction_id: number; created_at: CreatedAt };
  payment_refunds: PaymentRefundsTable;
  dashboard_cards: DashboardCardsTable;
  telegram_links: TelegramLinksTable;
  sandbox_telegram_members: { telegram_id: number };
  telegram_state: { key: string; value: string };
}
