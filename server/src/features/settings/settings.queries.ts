import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/database.ts';

/** NOTIFY channel: an admin changed the settings; every process reads them again. */
export const SETTINGS_CHANNEL = 'ns_settings';

/** Tells every process the settings changed (in `db`'s transaction: delivered when it commits). */
export async function settingsChanged(db: Executor): Promise<void> {
  await sql`select pg_notify(${SETTINGS_CHANNEL}, '')`.execute(db);
}

export const readSettingRows = (db: Executor) => db.selectFrom('settings').select(['key', 'value', 'updated_at']).execute();

/** Serialises changes of the settings (two admins saving at once each see the other's result as `before`). */
export async function lockSettings(tx: Tx): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('settings'))`.execute(tx);
}

/** Stores the settings that differ from their defaults and forgets the rest, so the environment decides those again. */
export async function writeSettings(tx: Tx, values: Record<string, unknown>, defaults: Record<string, unknown>, actorId: number): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    if (value === defaults[key]) {
      await tx.deleteFrom('settings').where('key', '=', key).execute();
      continue;
    }
    await tx
      .insertInto('settings')
      .values({ key, value: JSON.stringify(value), updated_by: actorId })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_by: actorId, updated_at: new Date() }))
      .execute();
  }
}
