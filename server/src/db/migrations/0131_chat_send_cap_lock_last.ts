import type { Kysely } from 'kysely';
import { applyFunction } from '../functions/index.ts';

/**
 * `chat_send` (v6) takes the user's lock for the cap of answers being written last, right before
 * it stores the answer, instead of before the hold and the other rows: one user's sends wait for
 * each other only through the answer's row and the commit. Over the cap under the lock, it raises
 * `NS429` and everything the send wrote goes with the statement (`chatSend` answers `too_many`);
 * the count before any write still refuses the plain cases at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await applyFunction(db, 'chat_send', 6);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await applyFunction(db, 'chat_send', 5);
}
