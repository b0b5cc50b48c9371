import { sql, type Kysely } from 'kysely';

/**
 * Uploaded and generated files: the bytes live in the storage (local disk or S3) under
 * `storage_key`; this row says whose they are. A user with files cannot be deleted until the
 * files are (through the files service, which also deletes their blobs), so no blob is orphaned.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('files')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('owner_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('restrict'))
    .addColumn('storage_key', 'text', (c) => c.notNull().unique().check(sql`storage_key ~ '^[0-9a-f]{32}$'`))
    .addColumn('content_type', 'text', (c) => c.notNull().check(sql`length(content_type) between 3 and 200`))
    .addColumn('size', 'bigint', (c) => c.notNull().check(sql`size >= 0`))
    .addColumn('original_name', 'text', (c) => c.notNull().check(sql`length(original_name) between 1 and 255`))
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose ~ '^[a-z][a-z0-9_]{0,39}$'`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('files_owner_idx').on('files').columns(['owner_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('files').execute();
}
