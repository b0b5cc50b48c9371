import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';

/** One round trip to the database: resolves when it answers, rejects when it does not. */
export async function pingDatabase(db: Executor): Promise<void> {
  await sql`select 1`.execute(db);
}
