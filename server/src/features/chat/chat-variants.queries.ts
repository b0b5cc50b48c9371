import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/database.ts';

/** A message of a chat with where it stands (for a regenerate or an edit, read before `chat_send` checks it under the chat's lock). */
export const findChatMessage = (db: Executor, chatId: number, messageId: number) =>
  db.selectFrom('chat_messages').select(['id', 'role', 'text', 'parent_id', 'off_path', 'status']).where('chat_id', '=', chatId).where('id', '=', messageId).executeTakeFirst();

/** The last message of the conversation a chat shows. */
export const lastOnPath = (db: Executor, chatId: number) =>
  db
    .selectFrom('chat_messages')
    .select(['id', 'role', 'text', 'parent_id', 'status'])
    .where('chat_id', '=', chatId)
    .where('off_path', '=', false)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

/** The images of a message, in order, with where their bytes are. */
export const messageImages = (db: Executor, messageId: number) =>
  db
    .selectFrom('chat_message_files as mf')
    .innerJoin('files as f', 'f.id', 'mf.file_id')
    .select(['f.id', 'f.storage_key', 'f.content_type', 'f.original_name'])
    .where('mf.message_id', '=', messageId)
    .orderBy('mf.position')
    .execute();

/**
 * The most tokens a message of the history (`h.text`) may be counted, as `chat_send` bounds it:
 * half a token a letter or digit, one any other visible character, three an emoji, 4 a message.
 */
export const TOKENS_BOUND = sql<number>`ceil(length(regexp_replace(h.text, '[^[:alnum:]_]', '', 'g')) / 2.0)
  + length(regexp_replace(h.text, '[[:alnum:]_[:space:]]', '', 'g'))
  + 2 * length(regexp_replace(h.text, '[^\\U00010000-\\U0010FFFF]', '', 'g')) + 4`;

/**
 * The bound `chat_send` holds for a chat's history (the latest `limit` messages with text of the
 * conversation shown), counted by the same expression, with a fair estimate (three characters a
 * token, 4 a message) and how many messages it covers.
 */
export async function historyBound(db: Executor, chatId: number, limit: number): Promise<{ bound: number; estimate: number; messages: number }> {
  const { rows } = await sql<{ bound: string | null; estimate: string | null; messages: string }>`
    select sum(${TOKENS_BOUND}) as bound,
           sum(ceil(length(h.text) / 3.0) + 4) as estimate,
           count(*) as messages
    from (
      select id, text from chat_messages
      where chat_id = ${chatId} and not off_path and status in ('done', 'stopped') and text <> ''
      order by id desc limit ${limit}) h`.execute(db);
  const row = rows[0];
  return { bound: Number(row?.bound ?? 0), estimate: Number(row?.estimate ?? 0), messages: Number(row?.messages ?? 0) };
}

export type SwitchOutcome = 'ok' | 'not_found' | 'busy';

/**
 * Shows `messageId` instead of the variant of its place the chat shows now, and after it the
 * newest conversation that followed it. Locks the chat as `chat_send` does; refused while an
 * answer is being written there.
 */
export async function switchVariant(tx: Tx, userId: number, chatId: number, messageId: number): Promise<SwitchOutcome> {
  const chat = await tx.selectFrom('chats').select('id').where('id', '=', chatId).where('user_id', '=', userId).where('deleted_at', 'is', null).forUpdate().executeTakeFirst();
  if (!chat) return 'not_found';
  const target = await tx.selectFrom('chat_messages').select(['id', 'parent_id']).where('chat_id', '=', chatId).where('id', '=', messageId).executeTakeFirst();
  if (!target) return 'not_found';
  const generating = await tx.selectFrom('chat_messages').select('id').where('chat_id', '=', chatId).where('status', '=', 'generating').executeTakeFirst();
  if (generating) return 'busy';
  // The conversation's ids grow along it: what follows the place's parent is what it shows there now.
  await tx
    .updateTable('chat_messages')
    .set({ off_path: true })
    .where('chat_id', '=', chatId)
    .where('off_path', '=', false)
    .where('id', '>', target.parent_id ?? 0)
    .execute();
  // The newest message after the variant (the largest id below it has nothing after it), and the way up to the variant.
  await sql`
    with recursive below as (
      select id from chat_messages where id = ${messageId}
      union all
      select m.id from chat_messages m join below b on m.parent_id = b.id
    ), way as (
      select id, parent_id from chat_messages where id = (select max(id) from below)
      union all
      select m.id, m.parent_id from chat_messages m join way w on m.id = w.parent_id where w.id <> ${messageId}
    )
    update chat_messages set off_path = false where id in (select id from way)`.execute(tx);
  return 'ok';
}
