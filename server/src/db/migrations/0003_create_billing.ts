import { sql, type Kysely } from 'kysely';

const id = (c: ReturnType<Kysely<unknown>['schema']['createTable']>) => c.addColumn('id', 'bigint', (col) => col.primaryKey().generatedAlwaysAsIdentity());
const timestamps = (c: ReturnType<Kysely<unknown>['schema']['createTable']>) =>
  c.addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`)).addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`));

export async function up(db: Kysely<unknown>): Promise<void> {
  await timestamps(
    id(db.schema.createTable('tariffs'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('amount_kopecks', 'bigint', (c) => c.notNull().check(sql`amount_kopecks > 0`))
      .addColumn('first_amount_kopecks', 'bigint', (c) => c.check(sql`first_amount_kopecks > 0`))
      .addColumn('description', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .addColumn('subscriptions_type', 'integer', (c) => c.notNull())
      .addColumn('popular', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('currency_provider', 'text', (c) => c.notNull().defaultTo('RUB'))
      .addColumn('words', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`words >= 0`))
      .addColumn('media_tenths', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`media_tenths >= 0`))
      .addColumn('trial_days', 'integer', (c) => c.notNull().defaultTo(3).check(sql`trial_days >= 0`))
      .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true)),
  ).execute();

  await timestamps(
    id(db.schema.createTable('subscriptions'))
      .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('tariff_id', 'bigint', (c) => c.notNull().references('tariffs.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending').check(sql`status in ('pending', 'active', 'past_due', 'cancelled', 'expired', 'replaced')`))
      .addColumn('amount_kopecks', 'bigint', (c) => c.notNull())
      .addColumn('first_amount_kopecks', 'bigint', (c) => c.notNull())
      .addColumn('currency_provider', 'text', (c) => c.notNull().defaultTo('RUB'))
      .addColumn('is_trial', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('paid_at', 'timestamptz')
      .addColumn('cancelled_at', 'timestamptz')
      .addColumn('period_end', 'timestamptz')
      .addColumn('ended_at', 'timestamptz')
      .addColumn('cp_subscription_id', 'text', (c) => c.unique()),
  ).execute();
  await db.schema.createIndex('subscriptions_user_idx').on('subscriptions').columns(['user_id', 'id']).execute();
  // One current subscription per user (PRODUCT.md).
  await db.schema
    .createIndex('subscriptions_one_current_idx')
    .on('subscriptions')
    .column('user_id')
    .unique()
    .where(sql.ref('status'), 'in', sql`('active', 'past_due', 'cancelled')`)
    .execute();
  await db.schema.createIndex('subscriptions_period_idx').on('subscriptions').column('period_end').where(sql.ref('status'), 'in', sql`('active', 'past_due', 'cancelled')`).execute();

  await timestamps(
    id(db.schema.createTable('invoices'))
      .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('tariff_id', 'bigint', (c) => c.notNull().references('tariffs.id'))
      .addColumn('subscription_id', 'bigint', (c) => c.references('subscriptions.id'))
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('subscription', 'package')`))
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('amount_kopecks', 'bigint', (c) => c.notNull().check(sql`amount_kopecks > 0`))
      .addColumn('currency', 'text', (c) => c.notNull().defaultTo('RUB'))
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending').check(sql`status in ('pending', 'paid', 'failed', 'refunded')`))
      .addColumn('transaction_id', 'bigint', (c) => c.unique())
      .addColumn('failure_reason', 'text')
      .addColumn('paid_at', 'timestamptz')
      .addColumn('refunded_at', 'timestamptz'),
  ).execute();
  await db.schema.createIndex('invoices_user_idx').on('invoices').columns(['user_id', 'id']).execute();

  await timestamps(
    id(db.schema.createTable('auto_charges'))
      .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('subscription_id', 'bigint', (c) => c.notNull().references('subscriptions.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('success', 'boolean', (c) => c.notNull())
      .addColumn('amount_kopecks', 'bigint', (c) => c.notNull())
      .addColumn('currency_provider', 'text', (c) => c.notNull().defaultTo('RUB'))
      .addColumn('transaction_id', 'bigint', (c) => c.notNull().unique())
      .addColumn('failure_reason', 'text')
      .addColumn('refunded_at', 'timestamptz'),
  ).execute();
  await db.schema.createIndex('auto_charges_user_idx').on('auto_charges').columns(['user_id', 'id']).execute();

  await id(db.schema.createTable('subscription_log'))
    .addColumn('subscription_id', 'bigint', (c) => c.notNull().references('subscriptions.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('cause', 'text', (c) => c.notNull())
    .addColumn('ref', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('subscription_log_sub_idx').on('subscription_log').columns(['subscription_id', 'id']).execute();

  await id(db.schema.createTable('payment_notifications'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('transaction_id', 'bigint')
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('result_code', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('cp_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('amount_kopecks', 'bigint', (c) => c.notNull())
    .addColumn('next_transaction_at', 'timestamptz')
    .addColumn('successful_transactions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed_transactions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('user_cards')
    .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('first_six', 'text')
    .addColumn('last_four', 'text', (c) => c.notNull())
    .addColumn('card_type', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('conversions')
    .addColumn('invoice_id', 'bigint', (c) => c.primaryKey().references('invoices.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // The payment sandbox's own records: what CloudPayments would keep on its side.
  await db.schema
    .createTable('sandbox_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('amount_kopecks', 'bigint', (c) => c.notNull())
    .addColumn('card_number', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('start_at', 'timestamptz', (c) => c.notNull())
    .addColumn('next_transaction_at', 'timestamptz', (c) => c.notNull())
    .addColumn('successful_transactions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed_transactions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create sequence sandbox_transaction_seq start 1000001`.execute(db);

  await timestamps(
    id(db.schema.createTable('dashboard_cards'))
      .addColumn('link', 'text', (c) => c.notNull())
      .addColumn('icon', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true)),
  ).execute();

  await db.schema.alterTable('users').addColumn('welcome_closed_at', 'timestamptz').execute();
  await db.schema.alterTable('users').addColumn('telegram_id', 'bigint', (c) => c.unique()).execute();
  await db.schema
    .createTable('telegram_links')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema.createTable('sandbox_telegram_members').addColumn('telegram_id', 'bigint', (c) => c.primaryKey()).execute();
  await db.schema
    .createTable('telegram_state')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['telegram_state', 'sandbox_telegram_members', 'telegram_links']) await db.schema.dropTable(table).execute();
  await db.schema.alterTable('users').dropColumn('telegram_id').execute();
  await db.schema.alterTable('users').dropColumn('welcome_closed_at').execute();
  await sql`drop sequence sandbox_transaction_seq`.execute(db);
  for (const table of ['dashboard_cards', 'sandbox_subscriptions', 'conversions', 'user_cards', 'cp_subscriptions', 'payment_notifications', 'subscription_log', 'auto_charges', 'invoices', 'subscriptions', 'tariffs']) {
    await db.schema.dropTable(table).execute();
  }
}
