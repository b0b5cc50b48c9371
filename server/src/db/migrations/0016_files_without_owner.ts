import type { Kysely } from 'kysely';

/**
 * Files of the service itself (product example images) have no owner: the file route serves them
 * to admins only, and the catalogue serves each product's example to signed-in users.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('files').alterColumn('owner_id', (c) => c.dropNotNull()).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('files').alterColumn('owner_id', (c) => c.setNotNull()).execute();
}
