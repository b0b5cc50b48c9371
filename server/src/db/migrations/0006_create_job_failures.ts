import { sql, type Kysely } from 'kysely';

/** Jobs that failed every attempt, for admins to see (and mark resolved). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('job_failures')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('job_id', 'text', (c) => c.notNull().unique())
    .addColumn('queue', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('error', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('failed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('resolved_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('job_failures_queue').on('job_failures').columns(['queue', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('job_failures').execute();
}
