import type { Executor } from '../../db/database.ts';

/** The active news cards of the dashboard, in their order. */
export const listActiveCards = (db: Executor) =>
  db.selectFrom('dashboard_cards').select(['id', 'link', 'icon', 'name', 'description']).where('active', '=', true).orderBy('sort').orderBy('id').execute();
