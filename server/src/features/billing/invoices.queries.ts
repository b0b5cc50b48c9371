import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/database.ts';
import type { InvoiceRow, InvoicesTable } from './billing.table.ts';
import type { Insertable, Updateable } from 'kysely';

export const insertInvoice = (db: Executor, invoice: Insertable<InvoicesTable>) => db.insertInto('invoices').values(invoice).returning('id').executeTakeFirstOrThrow();

/**
 * Records a second charge of a paid invoice (CloudPayments' transaction `transactionId`) as a
 * payment of its own that buys nothing (`duplicate_of` the invoice, no plan, no tokens); answers
 * its id, or undefined when that transaction is recorded already.
 */
export async function insertDuplicateCharge(tx: Tx, of: InvoiceRow, charge: { transactionId: number; amountKopecks: number; currency: string; paidAt: Date }): Promise<number | undefined> {
  const row = await tx
    .insertInto('invoices')
    .values({
      user_id: of.user_id,
      tariff_id: of.tariff_id,
      subscription_id: null,
      kind: of.kind,
      description: of.description,
      amount_kopecks: charge.amountKopecks,
      currency: charge.currency,
      status: 'paid',
      transaction_id: charge.transactionId,
      paid_at: charge.paidAt,
      tariff_name: of.tariff_name,
      words: 0,
      media_tenths: 0,
      trial_days: 0,
      duplicate_of: of.id,
    })
    .onConflict((oc) => oc.column('transaction_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** The invoice a plan was bought with (its checkout's), with what of it went back. */
export const invoiceOfSubscription = (db: Executor, subscriptionId: number) =>
  db.selectFrom('invoices').select(['id', 'refunded_kopecks', 'trial_days']).where('subscription_id', '=', subscriptionId).orderBy('id').limit(1).executeTakeFirst();

/** The second charges of these invoices (each refunded automatically), oldest first. */
export const duplicateChargesOf = (db: Executor, invoiceIds: readonly number[]) =>
  invoiceIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('invoices')
        .select(['id', 'duplicate_of', 'amount_kopecks', 'refunded_kopecks', 'currency', 'status', 'transaction_id', 'paid_at', 'refunded_at', 'created_at'])
        .where('duplicate_of', 'in', invoiceIds)
        .orderBy('id')
        .execute();

/** An invoice by id, only when it is `userId`'s. */
export const findUserInvoice = (db: Executor, userId: number, id: number) =>
  db.selectFrom('invoices').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();

export const findInvoice = (db: Executor, id: number) => db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirst();

export const lockInvoice = (tx: Tx, id: number) => tx.selectFrom('invoices').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();

export const lockInvoiceByTransaction = (tx: Tx, transactionId: number) =>
  tx.selectFrom('invoices').selectAll().where('transaction_id', '=', transactionId).forUpdate().executeTakeFirst();

export const updateInvoice = (db: Executor, id: number, fields: Omit<Updateable<InvoicesTable>, 'id' | 'updated_at'>) =>
  db.updateTable('invoices').set({ ...fields, updated_at: new Date() }).where('id', '=', id).execute();

/** How many package invoices the user paid (refunded ones included). */
export async function countPaidPackages(db: Executor, userId: number): Promise<number> {
  const row = await db
    .selectFrom('invoices')
    .select(db.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('kind', '=', 'package')
    .where('status', 'in', ['paid', 'refunded'])
    .where('duplicate_of', 'is', null)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** The `offset`-th paid package purchase of the user (a second charge of one is not another purchase), newest first, with its name as bought. */
export const paidPackageAt = (db: Executor, userId: number, offset: number) =>
  db
    .selectFrom('invoices')
    .select(['id', 'tariff_name as name', 'status', 'amount_kopecks', 'refunded_kopecks', 'currency', 'created_at', 'paid_at', 'updated_at'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'package')
    .where('status', 'in', ['paid', 'refunded'])
    .where('duplicate_of', 'is', null)
    .orderBy('paid_at', 'desc')
    .orderBy('id', 'desc')
    .offset(offset)
    .limit(1)
    .executeTakeFirst();

/** Records the conversion goal once per paid invoice: the user's newest paid invoice not yet recorded. */
export async function recordConversion(db: Executor, userId: number): Promise<boolean> {
  const res = await db
    .insertInto('conversions')
    .columns(['invoice_id', 'user_id'])
    .expression((eb) =>
      eb
        .selectFrom('invoices')
        .select(['invoices.id', 'invoices.user_id'])
        .where('invoices.user_id', '=', userId)
        .where('invoices.status', '=', 'paid')
        .where('invoices.duplicate_of', 'is', null)
        .where((w) => w.not(w.exists(w.selectFrom('conversions').select('conversions.invoice_id').whereRef('conversions.invoice_id', '=', 'invoices.id'))))
        .orderBy('invoices.id', 'desc')
        .limit(1),
    )
    .onConflict((oc) => oc.column('invoice_id').doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Invoices still unpaid `hours` after they were created (abandoned checkouts), oldest first. */
export const pendingInvoicesOlderThan = (db: Executor, hours: number) =>
  db
    .selectFrom('invoices')
    .select('id')
    .where('status', '=', 'pending')
    .where('created_at', '<', sql<Date>`now() - make_interval(hours => ${hours})`)
    .orderBy('created_at')
    .limit(500)
    .execute();
