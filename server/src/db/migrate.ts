import { Migrator, type Migration } from 'kysely';
import type { Kysely } from 'kysely';
import { migrations } from './migrations/index.ts';

/** Runs every pending migration of `list` (all of them by default); throws with the failing migration's name. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works on any schema
export async function migrateToLatest(db: Kysely<any>, list: Record<string, Migration> = migrations): Promise<string[]> {
  // Numbers are handed out to parallel branches (0010 may land before 0005), so a migration
  // that sorts before one already run is still applied, not refused as out of order.
  const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(list) }, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
