import { sql, type Kysely } from 'kysely';

const REASONS_BEFORE = `'subscription_grant', 'trial_grant', 'package', 'welcome_gift', 'admin_adjustment', 'generation_hold', 'generation_release', 'refund'`;

/**
 * Promo codes and referrals.
 * `promo_codes`: a code (kept upper-case, unique) grants words and/or media tokens, or takes a
 * percentage off a plan's first payment; a limit of uses in all (none: unlimited), validity dates,
 * new users only or all, switched off by staff (`disabled_at`). `promo_redemptions`: one per code
 * and user; a discount's names the invoice it was given on (a failed checkout's does not count).
 * `users.referral_code` (made when first asked for) and `users.referred_by` (set at registration);
 * `referral_bonuses`: one per invited account, written with its first payment, granted unless the
 * payment's card is one the inviter has paid with (`payment_cards`: every card a user has paid
 * with, by CloudPayments' token and by its first six and last four digits).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table promo_codes (
      id bigint generated always as identity primary key,
      code text not null unique check (code ~ '^[A-Z0-9]{4,32}$'),
      kind text not null check (kind in ('tokens', 'discount')),
      words bigint not null default 0 check (words >= 0),
      media_tenths bigint not null default 0 check (media_tenths >= 0),
      discount_percent integer check (discount_percent between 1 and 99),
      tariff_id bigint references tariffs(id) on delete set null,
      max_uses integer check (max_uses > 0),
      new_users_only boolean not null default false,
      starts_at timestamptz,
      ends_at timestamptz,
      disabled_at timestamptz,
      note text,
      created_by bigint references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint promo_codes_grant check (
        (kind = 'tokens' and words + media_tenths > 0 and discount_percent is null)
        or (kind = 'discount' and discount_percent is not null and words = 0 and media_tenths = 0)
      ),
      constraint promo_codes_period check (starts_at is null or ends_at is null or starts_at < ends_at)
    )`.execute(db);
  await sql`
    create table promo_redemptions (
      id bigint generated always as identity primary key,
      promo_code_id bigint not null references promo_codes(id) on delete cascade,
      user_id bigint not null references users(id) on delete cascade,
      invoice_id bigint references invoices(id) on delete set null,
      words bigint not null default 0,
      media_tenths bigint not null default 0,
      discount_kopecks bigint not null default 0 check (discount_kopecks >= 0),
      created_at timestamptz not null default now(),
      unique (promo_code_id, user_id)
    )`.execute(db);
  await sql`create index promo_redemptions_user_idx on promo_redemptions (user_id)`.execute(db);
  await sql`create index promo_redemptions_invoice_idx on promo_redemptions (invoice_id) where invoice_id is not null`.execute(db);
  await sql`alter table invoices add column promo_code_id bigint references promo_codes(id) on delete set null, add column discount_kopecks bigint not null default 0 check (discount_kopecks >= 0)`.execute(db);

  await sql`alter table users add column referral_code text unique, add column referred_by bigint references users(id) on delete set null`.execute(db);
  await sql`create index users_referred_by_idx on users (referred_by) where referred_by is not null`.execute(db);
  await sql`
    create table referral_bonuses (
      invited_id bigint primary key references users(id) on delete cascade,
      inviter_id bigint not null references users(id) on delete cascade,
      invoice_id bigint not null references invoices(id) on delete cascade,
      words bigint not null check (words >= 0),
      status text not null check (status in ('granted', 'same_card')),
      created_at timestamptz not null default now(),
      check (invited_id <> inviter_id)
    )`.execute(db);
  await sql`create index referral_bonuses_inviter_idx on referral_bonuses (inviter_id)`.execute(db);
  await sql`create index referral_bonuses_invoice_idx on referral_bonuses (invoice_id)`.execute(db);
  await sql`
    create table payment_cards (
      user_id bigint not null references users(id) on delete cascade,
      fingerprint text not null,
      created_at timestamptz not null default now(),
      primary key (user_id, fingerprint)
    )`.execute(db);
  await sql`create index payment_cards_fingerprint_idx on payment_cards (fingerprint)`.execute(db);
  // The cards paid with so far: the saved ones, and those every accepted Pay named.
  await sql`
    insert into payment_cards (user_id, fingerprint)
    select user_id, 'token:' || token from user_cards
    union select user_id, 'pan:' || first_six || '*' || last_four from user_cards where first_six is not null
    on conflict do nothing`.execute(db);
  await sql`
    insert into payment_cards (user_id, fingerprint)
    select u.id, f.fingerprint
    from payment_notifications n
    join users u on u.id::text = n.payload->>'AccountId'
    cross join lateral (values
      (case when n.payload->>'Token' <> '' then 'token:' || (n.payload->>'Token') end),
      (case when n.payload->>'CardFirstSix' <> '' and n.payload->>'CardLastFour' <> '' then 'pan:' || (n.payload->>'CardFirstSix') || '*' || right(n.payload->>'CardLastFour', 4) end)
    ) as f(fingerprint)
    where n.kind = 'pay' and f.fingerprint is not null
    on conflict do nothing`.execute(db);

  await sql`alter table wallet_ledger drop constraint wallet_ledger_reason_check`.execute(db);
  await sql.raw(`alter table wallet_ledger add constraint wallet_ledger_reason_check check (reason in (${REASONS_BEFORE}, 'promo_code', 'referral_bonus'))`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table wallet_ledger drop constraint wallet_ledger_reason_check`.execute(db);
  // Promo and referral lines stay in the ledger (balances are its sums) as service adjustments.
  await sql`update wallet_ledger set reason = 'admin_adjustment' where reason in ('promo_code', 'referral_bonus')`.execute(db);
  await sql.raw(`alter table wallet_ledger add constraint wallet_ledger_reason_check check (reason in (${REASONS_BEFORE}))`).execute(db);
  await sql`drop table if exists payment_cards`.execute(db);
  await sql`drop table if exists referral_bonuses`.execute(db);
  await sql`alter table users drop column if exists referred_by, drop column if exists referral_code`.execute(db);
  await sql`alter table invoices drop column if exists discount_kopecks, drop column if exists promo_code_id`.execute(db);
  await sql`drop table if exists promo_redemptions`.execute(db);
  await sql`drop table if exists promo_codes`.execute(db);
}
