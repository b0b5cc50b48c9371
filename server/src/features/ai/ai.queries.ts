import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { ModelKind } from './ai.table.ts';

/** NOTIFY channel: the catalogue (models, connections) changed; every process drops its cache. */
export const CATALOG_CHANNEL = 'ns_catalog';

/** Tells every process the catalogue changed (in `db`'s transaction, if it is one). */
export async function catalogChanged(db: Executor): Promise<void> {
  await sql`select pg_notify(${CATALOG_CHANNEL}, '')`.execute(db);
}

/** An active model of one of `kinds` with its active connection, or undefined. */
export const findActiveModel = (db: Executor, id: number, kinds: readonly ModelKind[]) =>
  db
    .selectFrom('ai_models as m')
    .innerJoin('provider_connections as c', 'c.id', 'm.connection_id')
    .selectAll('m')
    .select(['c.protocol', 'c.name as connection_name', 'c.base_url', 'c.api_key_env', 'c.timeout_seconds', 'c.updated_at as connection_updated_at'])
    .where('m.id', '=', id)
    .where('m.kind', 'in', kinds)
    .where('m.active', '=', true)
    .where('c.active', '=', true)
    .executeTakeFirst();
export type ActiveModel = NonNullable<Awaited<ReturnType<typeof findActiveModel>>>;

/** Active models of `kinds` whose connection is active, in their order. */
export const listActiveModels = (db: Executor, kinds: readonly ModelKind[]) =>
  db
    .selectFrom('ai_models as m')
    .innerJoin('provider_connections as c', 'c.id', 'm.connection_id')
    .select(['m.id', 'm.name', 'm.kind', 'm.setting', 'm.words_per_token', 'm.max_output_tokens', 'm.description', 'c.protocol', 'c.name as connection_name'])
    .where('m.kind', 'in', kinds)
    .where('m.active', '=', true)
    .where('c.active', '=', true)
    .orderBy('m.sort')
    .orderBy('m.id')
    .execute();

export const findConnection = (db: Executor, id: number) => db.selectFrom('provider_connections').selectAll().where('id', '=', id).executeTakeFirst();
