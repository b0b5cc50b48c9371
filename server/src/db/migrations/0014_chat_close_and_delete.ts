import { sql, type Kysely } from 'kysely';
import { applyFunction } from '../functions/index.ts';

/**
 * `chat_send` bounds the history's tokens as `chat-pricing.ts` bounds text (letters and digits
 * half a token, other visible characters one, characters beyond the BMP three), not half a token
 * a character, which punctuation and emoji exceed.
 *
 * `chat_close` locks the answer's chat before its row (the order `chat_send` and `chat_delete`
 * lock them in), and records the words the settle really kept: none when the hold was closed
 * before (released by the stale-hold job), so a message never shows a charge that did not happen;
 * it answers them as `charged`.
 *
 * `chat_delete(p)` deletes a chat of the user with its messages, first closing the holds of
 * answers still being written there by a process that is gone or elsewhere (released: the answer
 * is deleted with the chat). Answers `{deleted, file_ids}` (the images, whose blobs the caller
 * deletes).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await applyFunction(db, 'chat_send', 2);
  await applyFunction(db, 'chat_close', 2);
  await applyFunction(db, 'chat_delete', 1);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists chat_delete(jsonb)`.execute(db);
  await applyFunction(db, 'chat_send', 1);
  await applyFunction(db, 'chat_close', 1);
}
