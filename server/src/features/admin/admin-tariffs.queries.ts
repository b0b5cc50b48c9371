import type { Insertable } from 'kysely';
import type { Executor, Tx } from '../../db/database.ts';
import type { TariffsTable } from '../billing/billing.table.ts';
import { containing } from './admin-list.ts';
import { direction, pageOf } from './admin-page.queries.ts';

const ORDER = { id: 't.id', sort: 't.sort', name: 't.name', amount: 't.amount_kopecks', created_at: 't.created_at' } as const;

/** Plans and packages, on sale or not, searched by name. */
export function listTariffs(db: Executor, opts: { q: string; sort: keyof typeof ORDER; dir: 'asc' | 'desc'; page: number }) {
  let query = db.selectFrom('tariffs as t');
  if (opts.q) query = query.where('t.name', 'ilike', containing(opts.q));
  return pageOf(query, (q) => q.selectAll('t').orderBy(ORDER[opts.sort], direction(opts.dir)).orderBy('t.id', opts.dir), opts.page);
}

export type TariffValues = Omit<Insertable<TariffsTable>, 'id' | 'created_at' | 'updated_at'>;

export const insertTariff = (tx: Tx, values: TariffValues) => tx.insertInto('tariffs').values(values).returningAll().executeTakeFirstOrThrow();

export const lockTariff = (tx: Tx, id: number) => tx.selectFrom('tariffs').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();

export const replaceTariff = (tx: Tx, id: number, values: TariffValues) =>
  tx
    .updateTable('tariffs')
    .set({ ...values, description: values.description ?? '[]', updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
