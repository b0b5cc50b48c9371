import { sql, type Kysely } from 'kysely';

/**
 * `settings`: what admins change at run time (Настройки), one row per setting that differs from
 * its default (the environment). `payment_refunds`: every refund of a payment — asked for by an
 * admin (with the reason, until CloudPayments reports it) or reported by CloudPayments — with
 * what it applied and when, so the payment's refunds and the revenue per day are exact.
 * `sandbox_refunds`: the payment sandbox's refund ids by request id, as CloudPayments keeps a
 * request's answer by its `X-Request-ID`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'jsonb', (c) => c.notNull())
    .addColumn('updated_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('payment_refunds')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('invoice_id', 'bigint', (c) => c.references('invoices.id').onDelete('cascade'))
    .addColumn('auto_charge_id', 'bigint', (c) => c.references('auto_charges.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('payment_transaction_id', 'bigint', (c) => c.notNull())
    .addColumn('amount_kopecks', 'bigint', (c) => c.notNull().check(sql`amount_kopecks >= 0`))
    .addColumn('applied_kopecks', 'bigint', (c) => c.check(sql`applied_kopecks >= 0`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('requested', 'done', 'failed')`))
    .addColumn('refund_transaction_id', 'bigint', (c) => c.unique())
    .addColumn('reason', 'text')
    .addColumn('request_id', 'uuid', (c) => c.unique())
    .addColumn('actor_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('applied_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('payment_refunds_one_payment', sql`num_nonnulls(invoice_id, auto_charge_id) = 1`)
    .execute();
  await db.schema.createIndex('payment_refunds_invoice_idx').on('payment_refunds').columns(['invoice_id', 'id']).where('invoice_id', 'is not', null).execute();
  await db.schema.createIndex('payment_refunds_applied_idx').on('payment_refunds').column('applied_at').where('applied_at', 'is not', null).execute();
  // What the analytics and the admin's lists read by day.
  await db.schema.createIndex('invoices_paid_at_idx').on('invoices').column('paid_at').where('paid_at', 'is not', null).execute();
  await db.schema.createIndex('auto_charges_created_idx').on('auto_charges').column('created_at').execute();
  await db.schema.createIndex('subscription_log_created_idx').on('subscription_log').columns(['created_at', 'id']).execute();

  // Refunds applied before this table existed, as one line per payment.
  await sql`insert into payment_refunds (invoice_id, user_id, payment_transaction_id, amount_kopecks, applied_kopecks, status, applied_at, created_at)
            select id, user_id, transaction_id, refunded_kopecks, refunded_kopecks, 'done', coalesce(refunded_at, updated_at), coalesce(refunded_at, updated_at)
            from invoices where refunded_kopecks > 0 and transaction_id is not null`.execute(db);
  await sql`insert into payment_refunds (auto_charge_id, user_id, payment_transaction_id, amount_kopecks, applied_kopecks, status, applied_at, created_at)
            select id, user_id, transaction_id, refunded_kopecks, refunded_kopecks, 'done', coalesce(refunded_at, updated_at), coalesce(refunded_at, updated_at)
            from auto_charges where refunded_kopecks > 0`.execute(db);

  await db.schema
    .createTable('sandbox_refunds')
    .addColumn('request_id', 'text', (c) => c.primaryKey())
    .addColumn('transaction_id', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sandbox_refunds').execute();
  await db.schema.dropIndex('subscription_log_created_idx').execute();
  await db.schema.dropIndex('auto_charges_created_idx').execute();
  await db.schema.dropIndex('invoices_paid_at_idx').execute();
  await db.schema.dropTable('payment_refunds').execute();
  await db.schema.dropTable('settings').execute();
}
