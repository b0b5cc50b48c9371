import { sql, type Kysely } from 'kysely';

/** A Replicate webhook names its prediction: the run is found by the provider's id of it. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index generations_provider_ref_idx on generations (provider_ref) where provider_ref is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index generations_provider_ref_idx`.execute(db);
}
