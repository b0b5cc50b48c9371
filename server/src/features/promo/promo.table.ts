import type { ColumnType, Generated, Selectable } from 'kysely';

type CreatedAt = ColumnType<Date, Date | undefined, never>;
type WithDefault<T> = ColumnType<T, T | undefined, T>;
type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

export type PromoKind = 'tokens' | 'discount';

export interface PromoCodesTable {
  id: Generated<number>;
  /** Upper-case Latin letters and digits, 4–32; users type it in any case. */
  code: string;
  kind: PromoKind;
  words: WithDefault<number>;
  /** Tenths of a media token. */
  media_tenths: WithDefault<number>;
  /** Percent off a plan's first payment (a `discount` code). */
  discount_percent: Nullable<number>;
  /** The one plan a discount applies to; none: any monthly plan. */
  tariff_id: Nullable<number>;
  /** Uses in all; none: unlimited. */
  max_uses: Nullable<number>;
  new_users_only: WithDefault<boolean>;
  starts_at: Nullable<Date>;
  ends_at: Nullable<Date>;
  disabled_at: Nullable<Date>;
  note: Nullable<string>;
  created_by: Nullable<number>;
  created_at: CreatedAt;
  updated_at: WithDefault<Date>;
}
export type PromoCodeRow = Selectable<PromoCodesTable>;

export interface PromoRedemptionsTable {
  id: Generated<number>;
  promo_code_id: number;
  user_id: number;
  /** The checkout a discount was given on; a failed one's redemption does not count. */
  invoice_id: Nullable<number>;
  words: WithDefault<number>;
  media_tenths: WithDefault<number>;
  discount_kopecks: WithDefault<number>;
  created_at: CreatedAt;
}

export interface ReferralBonusesTable {
  invited_id: number;
  inviter_id: number;
  /** The invited account's first payment. */
  invoice_id: number;
  words: number;
  /** `same_card`: the payment's card is one the inviter paid with, so no bonus. */
  status: 'granted' | 'same_card';
  created_at: CreatedAt;
}

export interface PaymentCardsTable {
  user_id: number;
  /** `token:<CloudPayments token>` or `pan:<first six>*<last four>`. */
  fingerprint: string;
  created_at: CreatedAt;
}

export interface PromoTables {
  promo_codes: PromoCodesTable;
  promo_redemptions: PromoRedemptionsTable;
  referral_bonuses: ReferralBonusesTable;
  payment_cards: PaymentCardsTable;
}
