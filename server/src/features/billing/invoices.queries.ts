import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/database.ts';
import type { InvoicesTable } from './billing.table.ts';
import type { Insertable, Updateable } from 'kysely';

export const insertInvoice = (db: Executor, invoice: Insertable<InvoicesTable>) => db.insertInto('invoices').values(invoice).returning('id').executeTakeFirstOrThrow();

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
    .executeTakeFirstOrThrow();
  return row.n;
}

/** The `offset`-th paid package purchase of the user, newest first, with its plan's name. */
export const paidPackageAt = (db: Executor, userId: number, offset: number) =>
  db
    .selectFrom('invoices')
    .innerJoin('tariffs', 'tariffs.id', 'invoices.tariff_id')
    .select(['invoices.id', 'tariffs.name', 'invoices.status', 'invoices.amount_kopecks', 'invoices.refunded_kopecks', 'invoices.currency', 'invoices.created_at', 'invoices.paid_at', 'invoices.updated_at'])
    .where('invoices.user_id', '=', userId)
    .where('invoices.kind', '=', 'package')
    .where('invoices.status', 'in', ['paid', 'refunded'])
    .orderBy('invoices.paid_at', 'desc')
    .orderBy('invoices.id', 'desc')
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
