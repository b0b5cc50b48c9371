import { sql, type Kysely } from 'kysely';

/** How much of a payment has been refunded so far, so partial refunds add up (0003 kept only a flag). */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['invoices', 'auto_charges']) {
    await db.schema.alterTable(table).addColumn('refunded_kopecks', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`refunded_kopecks >= 0`)).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['invoices', 'auto_charges']) await db.schema.alterTable(table).dropColumn('refunded_kopecks').execute();
}
