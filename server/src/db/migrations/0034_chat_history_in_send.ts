import type { Kysely } from 'kysely';
import { applyFunction } from '../functions/index.ts';

/**
 * A chat message's two statements do less:
 *
 * - `chat_send` answers the history it bounds the hold by (`history`: the latest messages with
 *   text, newest first, as `{role, text}`), so the conversation sent to the model is read once,
 *   in the same statement, instead of by a second query beside it.
 * - `chat_close` settles the hold before it stores the answer, so the answer's row is written once
 *   with what it was charged (the hold's `spent`), instead of twice. Whether the answer is still
 *   being written is read under its chat's lock, which every close and delete takes first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await applyFunction(db, 'chat_send', 4);
  await applyFunction(db, 'chat_close', 4);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await applyFunction(db, 'chat_send', 3);
  await applyFunction(db, 'chat_close', 3);
}
