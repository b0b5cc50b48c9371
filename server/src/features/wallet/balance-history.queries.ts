import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';

/** The id a ledger row refers to (`ref_id` is text), or null when it is not a number. */
const refId = sql<number | null>`case when l.ref_id ~ '^[0-9]{1,18}$' then l.ref_id::bigint end`;

/**
 * A user's ledger as the balance history reads it: every row but the releases of holds (a hold
 * is shown as one line with what its work kept), with what the line needs to say what it was.
 */
const historyRows = (db: Executor, userId: number) => db.selectFrom('wallet_ledger as l').where('l.user_id', '=', userId).where('l.reason', '<>', 'generation_release');

/** How many lines the user's balance history has. */
export async function countBalanceLines(db: Executor, userId: number): Promise<number> {
  const row = await historyRows(db, userId).select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return row.n;
}

/**
 * One page of the user's balance history, newest first: each ledger row with its hold (status,
 * amount, what was spent), the run's product, the chat's title, the plan or package of an
 * invoice, the plan of a renewal charge. Only `userId`'s rows: the user is the first condition.
 */
export const balanceLinesPage = (db: Executor, userId: number, offset: number, limit: number) =>
  historyRows(db, userId)
    .leftJoin('wallet_holds as h', (join) => join.onRef('h.id', '=', 'l.hold_id').on('l.reason', '=', 'generation_hold'))
    .leftJoin('generations as g', (join) => join.on('l.ref_type', '=', 'generation').on('g.id', '=', refId))
    .leftJoin('chat_messages as m', (join) => join.on('l.ref_type', '=', 'chat_message').on('m.id', '=', refId))
    .leftJoin('chats as c', 'c.id', 'm.chat_id')
    .leftJoin('invoices as i', (join) => join.on('l.ref_type', 'in', ['invoice', 'invoice_refund']).on('i.id', '=', refId))
    .leftJoin('tariffs as t', 't.id', 'i.tariff_id')
    .leftJoin('auto_charges as a', (join) => join.on('l.ref_type', 'in', ['auto_charge', 'auto_charge_refund']).on('a.id', '=', refId))
    .select([
      'l.id',
      'l.kind',
      'l.amount',
      'l.reason',
      'l.ref_type',
      'l.note',
      'l.idempotency_key',
      'l.created_at',
      'h.status as hold_status',
      'h.amount as hold_amount',
      'h.spent as hold_spent',
      'g.product_name',
      'c.title as chat_title',
      'i.kind as invoice_kind',
      't.name as tariff_name',
      'a.name as charge_name',
    ])
    .orderBy('l.id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();

export type BalanceLineRow = Awaited<ReturnType<typeof balanceLinesPage>>[number];
