import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('wallets')
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('words', 'media')`))
    .addColumn('balance', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`balance >= 0`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('wallets_pk', ['user_id', 'kind'])
    .execute();

  await db.schema
    .createTable('wallet_holds')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('words', 'media')`))
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('spent', 'bigint', (c) => c.check(sql`spent >= 0 and spent <= amount`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('held').check(sql`status in ('held', 'settled', 'released')`))
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('closed_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('wallet_ledger')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('words', 'media')`))
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount <> 0`))
    .addColumn('reason', 'text', (c) =>
      c.notNull().check(sql`reason in ('subscription_grant', 'trial_grant', 'package', 'welcome_gift', 'admin_adjustment', 'generation_hold', 'generation_release', 'refund')`),
    )
    .addColumn('ref_type', 'text')
    .addColumn('ref_id', 'text')
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('hold_id', 'bigint', (c) => c.references('wallet_holds.id'))
    .addColumn('note', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('wallet_ledger_user_idx').on('wallet_ledger').columns(['user_id', 'kind']).execute();
  await db.schema.createIndex('wallet_holds_open_idx').on('wallet_holds').column('created_at').where(sql.ref('status'), '=', 'held').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['wallet_ledger', 'wallet_holds', 'wallets']) await db.schema.dropTable(table).execute();
}
