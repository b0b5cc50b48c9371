import { sql, type Kysely } from 'kysely';
import { applyFunction } from '../functions/index.ts';

/**
 * Variants of answers and of the user's last message, and search over the user's chats.
 *
 * - A message follows `parent_id` (null for a chat's first message): regenerating an answer adds
 *   a sibling of it (the same question), editing the user's last message a sibling of that
 *   message. `off_path` marks the messages not on the conversation the chat shows; every read of a
 *   chat, the history a send is bounded by included, keeps to the messages on it.
 * - `chat_send` takes a `mode`: `send` (a new message after the chat's last), `regenerate`
 *   (`target_id`, the chat's last answer, whose question is `question_id`: a new answer to it)
 *   or `edit` (`target_id`, the user's last message: a new message in its place with
 *   `message`, then its answer). The hold, its checks and the lock order are those of a send.
 * - Full-text search (the `russian` configuration) over titles and messages, with GIN indexes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table chat_messages add column parent_id bigint references chat_messages(id) on delete cascade,
    add column off_path boolean not null default false`.execute(db);
  await sql`update chat_messages m set parent_id = p.prev
    from (select id, lag(id) over (partition by chat_id order by id) as prev from chat_messages) p
    where p.id = m.id and p.prev is not null`.execute(db);
  await sql`create index chat_messages_parent_idx on chat_messages (parent_id)`.execute(db);
  await sql`create index chat_messages_text_search_idx on chat_messages using gin (to_tsvector('russian', text)) where not off_path`.execute(db);
  await sql`create index chats_title_search_idx on chats using gin (to_tsvector('russian', title))`.execute(db);

  await applyFunction(db, 'chat_send', 5);
}

/** Restores the `chat_send` before (v4), then drops what this one added (variants off the conversation go). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await applyFunction(db, 'chat_send', 4);
  await sql`drop index if exists chats_title_search_idx`.execute(db);
  await sql`drop index if exists chat_messages_text_search_idx`.execute(db);
  await sql`delete from chat_messages where off_path`.execute(db);
  await sql`alter table chat_messages drop column off_path, drop column parent_id`.execute(db);
}
