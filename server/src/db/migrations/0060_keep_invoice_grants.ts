import { sql, type Kysely } from 'kysely';

/**
 * An invoice keeps what its checkout showed: the plan's or package's name, its words and media
 * tokens and its trial days, so an admin's edit of the plan between checkout and payment does not
 * change what the payment buys (invoices made before this take the plan's figures of now).
 * `duplicate_of`: a second charge of an already paid invoice (CloudPayments' own transaction) is
 * kept as a payment of its own that buys nothing and is refunded automatically; `payment_refunds.cause`
 * says why the service itself asked for a refund (`duplicate_payment`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table invoices
      add column tariff_name text,
      add column words bigint check (words >= 0),
      add column media_tenths bigint check (media_tenths >= 0),
      add column trial_days integer check (trial_days >= 0),
      add column duplicate_of bigint references invoices(id) on delete cascade`.execute(db);
  await sql`update invoices i set tariff_name = t.name, words = t.words, media_tenths = t.media_tenths, trial_days = 0 from tariffs t where t.id = i.tariff_id`.execute(db);
  await sql`update invoices i set trial_days = t.trial_days from subscriptions s, tariffs t where s.id = i.subscription_id and s.is_trial and t.id = i.tariff_id`.execute(db);
  await sql`
    alter table invoices
      alter column tariff_name set not null,
      alter column words set not null,
      alter column media_tenths set not null,
      alter column trial_days set not null,
      add constraint invoices_duplicate_without_plan check (duplicate_of is null or subscription_id is null)`.execute(db);
  await sql`create index invoices_duplicate_of_idx on invoices (duplicate_of) where duplicate_of is not null`.execute(db);
  await sql`alter table payment_refunds add column cause text check (cause in ('duplicate_payment'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table payment_refunds drop column if exists cause`.execute(db);
  // A duplicate charge stays on record (its money and refund moved): only the link to its invoice goes.
  await sql`drop index if exists invoices_duplicate_of_idx`.execute(db);
  await sql`
    alter table invoices
      drop constraint if exists invoices_duplicate_without_plan,
      drop column if exists duplicate_of,
      drop column if exists trial_days,
      drop column if exists media_tenths,
      drop column if exists words,
      drop column if exists tariff_name`.execute(db);
}
