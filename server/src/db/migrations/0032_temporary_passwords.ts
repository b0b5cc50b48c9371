import type { Kysely } from 'kysely';

/**
 * A password someone else chose (the temporary one `npm run admin:create` prints): until its
 * owner sets their own, every call but the change and sign-out is refused and the pages lead
 * to the change form.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('password_temporary', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('password_temporary').execute();
}
