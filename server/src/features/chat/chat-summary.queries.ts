import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/database.ts';
import type { ChatHistoryRow } from './chat.queries.ts';
import { TOKENS_BOUND } from './chat-variants.queries.ts';

/** The viewer's chat with the model it was last answered by. */
export const ownChatWithModel = (db: Executor, userId: number, chatId: number) =>
  db.selectFrom('chats').select(['id', 'title', 'model_id']).where('id', '=', chatId).where('user_id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst();

const summaryChats = (db: Executor, userId: number) =>
  db
    .selectFrom('chats as c')
    .innerJoin('chat_messages as m', (join) => join.onRef('m.chat_id', '=', 'c.id').on('m.parent_id', 'is', null))
    .select(['c.id as chat_id', 'c.title', 'm.id as message_id', 'm.status', 'm.words'])
    .where('c.user_id', '=', userId)
    .where('c.summary_request', 'is not', null)
    .where('c.deleted_at', 'is', null)
    .orderBy('m.id')
    .limit(1);

/** The chat a summary request already made (a retry, or a second click that waited for the first), with its summary's state. */
export const chatOfSummaryRequest = (db: Executor, userId: number, requestId: string) => summaryChats(db, userId).where('c.summary_request', '=', requestId).executeTakeFirst();

/** The same, read again by the chat's id (while its summary is written). */
export const chatOfSummaryRequestById = (db: Executor, userId: number, chatId: number) => summaryChats(db, userId).where('c.id', '=', chatId).executeTakeFirst();

/**
 * Locks the viewer's chat a summary is made of (as a send locks it) and tells what stands in the
 * way: gone, an answer still written there, or the user's answers at their cap (counted under the
 * user's lock, as `chat_send` counts them).
 */
export async function lockSummarySource(tx: Tx, userId: number, chatId: number, maxAnswers: number): Promise<'ok' | 'not_found' | 'busy' | 'too_many'> {
  const chat = await tx.selectFrom('chats').select('id').where('id', '=', chatId).where('user_id', '=', userId).where('deleted_at', 'is', null).forUpdate().executeTakeFirst();
  if (!chat) return 'not_found';
  const writing = await tx.selectFrom('chat_messages').select('id').where('chat_id', '=', chatId).where('role', '=', 'assistant').where('status', '=', 'generating').executeTakeFirst();
  if (writing) return 'busy';
  await sql`select pg_advisory_xact_lock(hashtextextended(${`chat-answers:${String(userId)}`}, 0))`.execute(tx);
  const { n } = await tx
    .selectFrom('chat_messages')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('role', '=', 'assistant')
    .where('status', '=', 'generating')
    .executeTakeFirstOrThrow();
  return Number(n) >= maxAnswers ? 'too_many' : 'ok';
}

/** The chat's latest `limit` messages with text on its conversation, newest first, each with the bound of its tokens (`TOKENS_BOUND`). */
export async function historyWithBounds(db: Executor, chatId: number, limit: number): Promise<(ChatHistoryRow & { bound: number })[]> {
  const { rows } = await sql<ChatHistoryRow & { bound: string }>`
    select h.role, h.text, ${TOKENS_BOUND} as bound
    from (
      select id, role, text from chat_messages
      where chat_id = ${chatId} and not off_path and status in ('done', 'stopped') and text <> ''
      order by id desc limit ${limit}) h
    order by h.id desc`.execute(db);
  return rows.map((r) => ({ role: r.role, text: r.text, bound: Number(r.bound) }));
}

export const nextMessageId = async (tx: Tx) => {
  const { rows } = await sql<{ id: string }>`select nextval('chat_messages_id_seq') as id`.execute(tx);
  return Number(rows[0]?.id);
};

/** The new chat started from a summary, with its first message (the summary, being written; `text` is its heading until the model writes on). */
export async function insertSummaryChat(
  tx: Tx,
  row: { userId: number; title: string; sourceId: number; requestId: string; modelId: number; modelName: string; param: string | null; messageId: number; holdId: number | null; text: string },
): Promise<number> {
  const chat = await tx
    .insertInto('chats')
    .values({ user_id: row.userId, title: row.title, model_id: row.modelId, summary_of: row.sourceId, summary_request: row.requestId })
    .returning('id')
    .executeTakeFirstOrThrow();
  await sql`insert into chat_messages (id, chat_id, user_id, role, status, text, model_id, model_name, param, hold_id) overriding system value
    values (${row.messageId}, ${chat.id}, ${row.userId}, 'assistant', 'generating', ${row.text}, ${row.modelId}, ${row.modelName}, ${row.param}, ${row.holdId})`.execute(tx);
  return chat.id;
}
