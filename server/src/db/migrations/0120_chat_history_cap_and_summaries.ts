import { sql, type Kysely } from 'kysely';

/**
 * What a long chat costs, under control:
 *
 * - `ai_models.history_messages`: how many of the chat's latest messages a chat model gets with a
 *   new one (staff set it per model; null — the service's own window, the latest 20 within 24 000
 *   characters; 0 — none). The hold, the estimate and the request sent read the same number.
 * - `chats.summary_of` and `chats.summary_request`: a chat started from a short summary of another
 *   (its first message is the summary, written and charged as an answer); the request id the
 *   browser sent makes a retry find the chat it already made instead of paying again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ai_models add column history_messages smallint check (history_messages between 0 and 20)`.execute(db);
  await sql`alter table chats add column summary_of bigint references chats(id) on delete set null, add column summary_request uuid`.execute(db);
  await sql`create unique index chats_summary_request_idx on chats (user_id, summary_request) where summary_request is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists chats_summary_request_idx`.execute(db);
  await sql`alter table chats drop column summary_request, drop column summary_of`.execute(db);
  await sql`alter table ai_models drop column history_messages`.execute(db);
}
