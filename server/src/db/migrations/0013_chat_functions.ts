import { sql, type Kysely } from 'kysely';
import { applyFunction } from '../functions/index.ts';

/**
 * A chat message's two writes as one statement each, so a message costs two round trips and two
 * commits whatever it does (the hold and the settle run through `wallet_apply`):
 *
 * `chat_send(p)` — locks the chat (or creates it), refuses a chat with an answer still being
 * written, holds the words of the worst case (the caller's bound of the new message and the
 * longest answer, plus a bound of the history the chat has; nothing is written when they are too
 * few), then stores the user's message with its images and the answer's row (`generating`, with
 * its hold). Answers `{status: ok | not_found | busy | insufficient, …ids, hold_amount}`.
 *
 * `chat_close(p)` — closes an answer still `generating` (text, status, words, tokens, error),
 * marks its chat active, and settles its hold for the words (releases it for a failure). Answers
 * `{closed, words, media}`: whether this call closed it, and the user's balances after.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await applyFunction(db, 'chat_send', 1);
  await applyFunction(db, 'chat_close', 1);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists chat_close(jsonb)`.execute(db);
  await sql`drop function if exists chat_send(jsonb)`.execute(db);
}
