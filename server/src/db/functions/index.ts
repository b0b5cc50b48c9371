import fs from 'node:fs';
import { sql, type Kysely } from 'kysely';

/**
 * The database's functions, each version's whole source in its own file
 * (`functions/<name>.v<N>.sql`, one `create or replace function`). A migration that changes a
 * function adds the next version's file and applies it; its `down()` applies the version before,
 * so the source of each version lives in one place. A version's file never changes once a
 * migration applies it: a change is a new version.
 */
export type DbFunction = 'wallet_apply' | 'wallet_hold_commit' | 'chat_send' | 'chat_close' | 'chat_delete';

/** The source of `name` at `version` (read from beside this module: the build copies the files). */
export function functionSource(name: DbFunction, version: number): string {
  return fs.readFileSync(new URL(`./${name}.v${String(version)}.sql`, import.meta.url), 'utf8');
}

/** Creates or replaces `name` with its source at `version`. */
export async function applyFunction(db: Kysely<unknown>, name: DbFunction, version: number): Promise<void> {
  await sql.raw(functionSource(name, version)).execute(db);
}
