import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { ChatMessageStatus } from './chat.table.ts';

export const findOwnChat = (db: Executor, userId: number, chatId: number) =>
  db.selectFrom('chats').select(['id', 'title', 'updated_at']).where('id', '=', chatId).where('user_id', '=', userId).executeTakeFirst();

/** The viewer's chat, locked until the transaction ends (sends into one chat queue behind each other). */
export const lockOwnChat = (tx: Executor, userId: number, chatId: number) =>
  tx.selectFrom('chats').select(['id']).where('id', '=', chatId).where('user_id', '=', userId).forUpdate().executeTakeFirst();

export const countChats = async (db: Executor, userId: number) =>
  (await db.selectFrom('chats').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow()).n;

/** The user's chat at `offset`, most recently active first. */
export const chatAt = (db: Executor, userId: number, offset: number) =>
  db.selectFrom('chats').select(['id', 'title', 'updated_at']).where('user_id', '=', userId).orderBy('updated_at', 'desc').orderBy('id', 'desc').offset(offset).limit(1).executeTakeFirst();

export const insertChat = (db: Executor, chat: { userId: number; title: string; modelId: number }) =>
  db.insertInto('chats').values({ user_id: chat.userId, title: chat.title, model_id: chat.modelId }).returning(['id']).executeTakeFirstOrThrow();

/** Marks the chat active now (the list puts it first). */
export const touchChat = (db: Executor, chatId: number, modelId?: number) =>
  db
    .updateTable('chats')
    .set({ updated_at: new Date(), ...(modelId === undefined ? {} : { model_id: modelId }) })
    .where('id', '=', chatId)
    .execute();

export const renameChat = (db: Executor, userId: number, chatId: number, title: string) =>
  db.updateTable('chats').set({ title }).where('id', '=', chatId).where('user_id', '=', userId).returning(['id', 'title', 'updated_at']).executeTakeFirst();

/** Deletes the chat (its messages and their file links go with it); answers its files' ids, to delete their blobs. */
export async function deleteChat(db: Executor, userId: number, chatId: number): Promise<{ deleted: boolean; fileIds: number[] }> {
  const files = await db
    .selectFrom('chat_message_files as f')
    .innerJoin('chat_messages as m', 'm.id', 'f.message_id')
    .select('f.file_id')
    .where('m.chat_id', '=', chatId)
    .where('m.user_id', '=', userId)
    .execute();
  const row = await db.deleteFrom('chats').where('id', '=', chatId).where('user_id', '=', userId).returning('id').executeTakeFirst();
  return { deleted: row !== undefined, fileIds: row ? files.map((f) => f.file_id) : [] };
}

/** A chat's messages, oldest first. */
export const listMessages = (db: Executor, chatId: number) =>
  db
    .selectFrom('chat_messages')
    .select(['id', 'role', 'text', 'model_name', 'status', 'words', 'created_at'])
    .where('chat_id', '=', chatId)
    .orderBy('id')
    .execute();

/** The files attached to messages of a chat, in their order. */
export const listMessageFiles = (db: Executor, chatId: number) =>
  db
    .selectFrom('chat_message_files as mf')
    .innerJoin('chat_messages as m', 'm.id', 'mf.message_id')
    .innerJoin('files as f', 'f.id', 'mf.file_id')
    .select(['mf.message_id', 'f.id', 'f.original_name'])
    .where('m.chat_id', '=', chatId)
    .orderBy('mf.message_id')
    .orderBy('mf.position')
    .execute();

/** The latest messages of a chat with text (the conversation sent to the model), newest first. */
export const recentMessages = (db: Executor, chatId: number, limit: number) =>
  db
    .selectFrom('chat_messages')
    .select(['role', 'text'])
    .where('chat_id', '=', chatId)
    .where('status', 'in', ['done', 'stopped'])
    .where('text', '<>', '')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();

/** The answer being written in a chat, if any. */
export const generatingAnswer = (db: Executor, chatId: number) =>
  db.selectFrom('chat_messages').select(['id']).where('chat_id', '=', chatId).where('role', '=', 'assistant').where('status', '=', 'generating').executeTakeFirst();

export const insertUserMessage = (db: Executor, m: { chatId: number; userId: number; text: string }) =>
  db.insertInto('chat_messages').values({ chat_id: m.chatId, user_id: m.userId, role: 'user', text: m.text }).returning(['id']).executeTakeFirstOrThrow();

export const insertAnswer = (db: Executor, m: { chatId: number; userId: number; modelId: number; modelName: string; param: string | null }) =>
  db
    .insertInto('chat_messages')
    .values({ chat_id: m.chatId, user_id: m.userId, role: 'assistant', status: 'generating', model_id: m.modelId, model_name: m.modelName, param: m.param })
    .returning(['id'])
    .executeTakeFirstOrThrow();

export const linkMessageFile = (db: Executor, messageId: number, fileId: number, position: number) =>
  db.insertInto('chat_message_files').values({ message_id: messageId, file_id: fileId, position }).execute();

export const setAnswerHold = (db: Executor, messageId: number, holdId: number) => db.updateTable('chat_messages').set({ hold_id: holdId }).where('id', '=', messageId).execute();

/** Saves an answer's text so far (and that it is alive); only while it is still being written. */
export const saveProgress = (db: Executor, messageId: number, text: string) =>
  db.updateTable('chat_messages').set({ text, updated_at: new Date() }).where('id', '=', messageId).where('status', '=', 'generating').execute();

/**
 * Closes an answer being written: its text, status and charge. Answers the row (with its hold)
 * when this call closed it, nothing when something else did first.
 */
export const closeAnswer = (db: Executor, messageId: number, end: { text: string; status: Exclude<ChatMessageStatus, 'generating'>; words: number; inputTokens: number | null; outputTokens: number | null; error: string | null }) =>
  db
    .updateTable('chat_messages')
    .set({ text: end.text, status: end.status, words: end.words, input_tokens: end.inputTokens, output_tokens: end.outputTokens, error: end.error, updated_at: new Date() })
    .where('id', '=', messageId)
    .where('status', '=', 'generating')
    .returning(['id', 'chat_id', 'user_id', 'hold_id'])
    .executeTakeFirst();

/** Answers left `generating` longer than `olderThan` ago: the process writing them died. */
export const abandonedAnswers = (db: Executor, olderThan: Date) =>
  db
    .selectFrom('chat_messages as m')
    .leftJoin('ai_models as a', 'a.id', 'm.model_id')
    .leftJoin('provider_connections as c', 'c.id', 'a.connection_id')
    .leftJoin('wallet_holds as h', 'h.id', 'm.hold_id')
    .select(['m.id', 'm.text', 'a.words_per_token', 'c.protocol', 'h.amount as hold_amount'])
    .where('m.status', '=', 'generating')
    .where('m.updated_at', '<', olderThan)
    .orderBy('m.id')
    .limit(200)
    .execute();

/** Chat files not linked to any message any more (their chat was deleted before the blobs were). */
export const orphanChatFiles = (db: Executor) =>
  db
    .selectFrom('files as f')
    .select(['f.id'])
    .where('f.purpose', '=', 'chat_attachment')
    .where(sql<boolean>`not exists (select 1 from chat_message_files mf where mf.file_id = f.id)`)
    .where('f.created_at', '<', sql<Date>`now() - interval '1 hour'`)
    .limit(500)
    .execute();
