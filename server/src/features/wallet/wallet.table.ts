import type { ColumnType, Generated, Selectable } from 'kysely';

/** `words` are whole words; `media` is counted in tenths of a media token. */
export type WalletKind = 'words' | 'media';

export type LedgerReason =
  | 'subscription_grant'
  | 'trial_grant'
  | 'package'
  | 'welcome_gift'
  | 'admin_adjustment'
  | 'generation_hold'
  | 'generation_release'
  | 'refund'
  | 'promo_code'
  | 'referral_bonus';

export interface WalletsTable {
  user_id: number;
  kind: WalletKind;
  balance: ColumnType<number, number | undefined, number>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface LedgerTable {
  id: Generated<number>;
  user_id: number;
  kind: WalletKind;
  /** Signed change of the balance. */
  amount: number;
  reason: LedgerReason;
  ref_type: string | null;
  ref_id: string | null;
  idempotency_key: string;
  hold_id: number | null;
  note: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
}
export type LedgerRow = Selectable<LedgerTable>;

export type HoldStatus = 'held' | 'settled' | 'released';

export interface HoldsTable {
  id: Generated<number>;
  user_id: number;
  kind: WalletKind;
  /** Amount taken from the balance when the hold was placed. */
  amount: number;
  /** Amount finally spent (after settle). */
  spent: number | null;
  status: ColumnType<HoldStatus, HoldStatus | undefined, HoldStatus>;
  idempotency_key: string;
  /**
   * What a refund claims of this hold (≤ amount): when the hold closes, what it gives back goes
   * to the refund first, as a `refund` ledger line referring to `clawback_ref_*` (the payment).
   */
  clawback: ColumnType<number, number | undefined, number>;
  clawback_ref_type: string | null;
  clawback_ref_id: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  closed_at: Date | null;
}

export interface WalletTables {
  wallets: WalletsTable;
  wallet_ledger: LedgerTable;
  wallet_holds: HoldsTable;
}
