import { sql, type OrderByModifiers, type SelectQueryBuilder } from 'kysely';
import { ADMIN_PAGE_SIZE } from '@app/contracts';
import { pageOffset } from './admin-list.ts';

/** A list's direction; empty values (never paid, not finished) come last either way. */
export const direction =
  (dir: 'asc' | 'desc'): OrderByModifiers =>
  (ob) =>
    (dir === 'asc' ? ob.asc() : ob.desc()).nullsLast();

/** Counts what a filtered list matches and reads one page of it (`page` selects and sorts). */
export async function pageOf<DB, TB extends keyof DB, O>(
  filtered: SelectQueryBuilder<DB, TB, object>,
  page: (query: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, O>,
  number: number,
): Promise<{ rows: O[]; total: number }> {
  const [count, rows] = await Promise.all([
    filtered.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow() as Promise<{ total: string }>,
    page(filtered).limit(ADMIN_PAGE_SIZE).offset(pageOffset(number)).execute(),
  ]);
  return { rows, total: Number(count.total) };
}
