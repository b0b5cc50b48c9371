import type { Insertable } from 'kysely';
import type { Executor, Tx } from '../../db/database.ts';
import type { DashboardCardsTable } from '../billing/billing.table.ts';
import { containing } from './admin-list.ts';
import { direction, pageOf } from './admin-page.queries.ts';

const ORDER = { id: 'c.id', sort: 'c.sort', name: 'c.name', created_at: 'c.created_at' } as const;

/** Dashboard cards, shown and hidden, searched by name or link. */
export function listCards(db: Executor, opts: { q: string; sort: keyof typeof ORDER; dir: 'asc' | 'desc'; page: number }) {
  let query = db.selectFrom('dashboard_cards as c');
  if (opts.q) {
    const like = containing(opts.q);
    query = query.where((eb) => eb.or([eb('c.name', 'ilike', like), eb('c.link', 'ilike', like)]));
  }
  return pageOf(query, (q) => q.selectAll('c').orderBy(ORDER[opts.sort], direction(opts.dir)).orderBy('c.id', opts.dir), opts.page);
}

export type CardValues = Omit<Insertable<DashboardCardsTable>, 'id' | 'created_at' | 'updated_at'>;

export const findCard = (db: Executor, id: number) => db.selectFrom('dashboard_cards').selectAll().where('id', '=', id).executeTakeFirst();

export const lockCard = (tx: Tx, id: number) => tx.selectFrom('dashboard_cards').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();

export const insertCard = (tx: Tx, values: CardValues) => tx.insertInto('dashboard_cards').values(values).returningAll().executeTakeFirstOrThrow();

export const replaceCard = (tx: Tx, id: number, values: CardValues) =>
  tx
    .updateTable('dashboard_cards')
    .set({ ...values, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();

export const deleteCard = (tx: Tx, id: number) => tx.deleteFrom('dashboard_cards').where('id', '=', id).execute();
