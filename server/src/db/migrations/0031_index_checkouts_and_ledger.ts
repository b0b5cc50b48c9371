import { sql, type Kysely } from 'kysely';

/**
 * The job that expires abandoned checkouts finds unpaid invoices and plans by age (few, so
 * partial indexes); the balance history reads a user's ledger newest first, a page at a time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index invoices_pending_idx on invoices (created_at) where status = 'pending'`.execute(db);
  await sql`create index subscriptions_pending_idx on subscriptions (created_at) where status = 'pending'`.execute(db);
  await sql`create index wallet_ledger_user_id_idx on wallet_ledger (user_id, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists wallet_ledger_user_id_idx`.execute(db);
  await sql`drop index if exists subscriptions_pending_idx`.execute(db);
  await sql`drop index if exists invoices_pending_idx`.execute(db);
}
