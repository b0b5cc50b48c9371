import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';

/** What a ledger row is about: its own reference, or (a hold's release) its hold's, the piece of work. */
const refType = sql<string | null>`coalesce(l.ref_type, hl.ref_type)`;
/** The id it refers to (`ref_id` is text), or null when it is not a number. */
const refId = sql<number | null>`case when coalesce(l.ref_id, hl.ref_id) ~ '^[0-9]{1,18}$' then coalesce(l.ref_id, hl.ref_id)::bigint end`;

/**
 * Ledger rows (`l`) with what saying each in words needs (`describeLedgerRow`): its hold (status,
 * amount, what was spent), the work it was for — a run's product, a chat's title, found through
 * the hold's own line for a release —, the plan or package of an invoice as it was bought, the
 * plan of a renewal charge. The balance history and the ledger's CSV export read the same words.
 */
export const ledgerInWords = (db: Executor) =>
  db
    .selectFrom('wallet_ledger as l')
    .leftJoin('wallet_ledger as hl', (join) => join.on('hl.idempotency_key', '=', sql<string>`'hold:' || l.hold_id`))
    .leftJoin('wallet_holds as h', (join) => join.onRef('h.id', '=', 'l.hold_id').on('l.reason', '=', 'generation_hold'))
    .leftJoin('generations as g', (join) => join.on(sql<boolean>`${refType} = 'generation'`).on('g.id', '=', refId))
    .leftJoin('chat_messages as m', (join) => join.on(sql<boolean>`${refType} in ('chat_message', 'chat_summary')`).on('m.id', '=', refId))
    .leftJoin('chats as c', 'c.id', 'm.chat_id')
    .leftJoin('chats as sc', 'sc.id', 'c.summary_of')
    .leftJoin('invoices as i', (join) => join.on(sql<boolean>`${refType} in ('invoice', 'invoice_refund')`).on('i.id', '=', refId))
    .leftJoin('auto_charges as a', (join) => join.on(sql<boolean>`${refType} in ('auto_charge', 'auto_charge_refund')`).on('a.id', '=', refId))
    .select([
      'l.id',
      'l.kind',
      'l.amount',
      'l.reason',
      refType.as('ref_type'),
      refId.as('ref_id'),
      'l.note',
      'l.idempotency_key',
      'l.created_at',
      'h.status as hold_status',
      'h.amount as hold_amount',
      'h.spent as hold_spent',
      'g.product_name',
      'c.title as chat_title',
      'sc.title as summarized_title',
      'i.kind as invoice_kind',
      'i.tariff_name',
      'a.name as charge_name',
    ]);

export type LedgerWordsRow = Awaited<ReturnType<ReturnType<typeof ledgerInWords>['execute']>>[number];

/**
 * A user's ledger as the balance history reads it: every row but the releases of holds (a hold
 * is shown as one line with what its work kept). Only `userId`'s rows: the user is the first condition.
 */
const historyRows = (db: Executor, userId: number) => db.selectFrom('wallet_ledger as l').where('l.user_id', '=', userId).where('l.reason', '<>', 'generation_release');

/** How many lines the user's balance history has. */
export async function countBalanceLines(db: Executor, userId: number): Promise<number> {
  const row = await historyRows(db, userId).select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return row.n;
}

/** One page of the user's balance history, newest first, each row with what saying it in words needs. */
export const balanceLinesPage = (db: Executor, userId: number, offset: number, limit: number) =>
  ledgerInWords(db).where('l.user_id', '=', userId).where('l.reason', '<>', 'generation_release').orderBy('l.id', 'desc').offset(offset).limit(limit).execute();

export type BalanceLineRow = LedgerWordsRow;
