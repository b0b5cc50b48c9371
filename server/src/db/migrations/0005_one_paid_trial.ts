import { sql, type Kysely } from 'kysely';

/** One trial per user: at most one trial subscription of a user is ever paid (granted). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create unique index subscriptions_one_paid_trial on subscriptions (user_id) where is_trial and paid_at is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index subscriptions_one_paid_trial`.execute(db);
}
