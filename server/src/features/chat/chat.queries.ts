import { sql } from 'kysely';
import { isBalanceRefused, type Executor } from '../../db/database.ts';
import { statement } from '../../db/prepared.ts';
import type { ChatMessageStatus } from './chat.table.ts';
import type { RawBalances } from '../wallet/wallet.queries.ts';

/** The user's chats that are not deleted (a chat deleted while an answer was written there stays until it is closed, hidden). */
const ownChats = (db: Executor, userId: number) => db.selectFrom('chats').where('user_id', '=', userId).where('deleted_at', 'is', null);

export const findOwnChat = (db: Executor, userId: number, chatId: number) => ownChats(db, userId).select(['id', 'title', 'updated_at']).where('id', '=', chatId).executeTakeFirst();

export const countChats = async (db: Executor, userId: number) => (await ownChats(db, userId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;

/** The user's chats from `offset`, at most `limit`, most recently active first. */
export const chatsFrom = (db: Executor, userId: number, offset: number, limit: number) =>
  ownChats(db, userId).select(['id', 'title', 'updated_at']).orderBy('updated_at', 'desc').orderBy('id', 'desc').offset(offset).limit(limit).execute();

export const renameChat = (db: Executor, userId: number, chatId: number, title: string) =>
  db.updateTable('chats').set({ title }).where('id', '=', chatId).where('user_id', '=', userId).where('deleted_at', 'is', null).returning(['id', 'title', 'updated_at']).executeTakeFirst();

/**
 * Deletes the user's chat with its messages (`chat_delete`, migration 0021); answers its images'
 * file ids, to delete their blobs. With an answer still being written there (`pending`), the chat
 * is only hidden: whoever closes the answer charges it and removes the chat.
 */
export async function deleteChat(db: Executor, userId: number, chatId: number): Promise<{ deleted: boolean; pending: boolean; fileIds: number[] }> {
  const { rows } = await sql<{ result: { deleted: boolean; pending: boolean; file_ids: number[] } }>`select chat_delete(${JSON.stringify({ user_id: userId, chat_id: chatId })}::jsonb) as result`.execute(db);
  const result = rows[0]?.result;
  return { deleted: result?.deleted ?? false, pending: result?.pending ?? false, fileIds: result?.file_ids ?? [] };
}

/**
 * A page of the conversation a chat shows: its newest `limit` messages (before the message `before`,
 * when given), newest first, each with the ids of its place's variants (oldest first).
 */
export const listMessages = (db: Executor, chatId: number, limit: number, before?: number) => {
  let query = db
    .selectFrom('chat_messages as m')
    .select(['m.id', 'm.role', 'm.text', 'm.model_name', 'm.status', 'm.words', 'm.created_at'])
    .select(
      // The siblings through the parent's index; a chat's first messages (no parent) by the chat's.
      sql<string[]>`coalesce(
        (select array_agg(s.id order by s.id) from chat_messages s where s.parent_id = m.parent_id and s.role = m.role),
        (select array_agg(s.id order by s.id) from chat_messages s where m.parent_id is null and s.chat_id = m.chat_id and s.parent_id is null and s.role = m.role))`.as('variants'),
    )
    .where('m.chat_id', '=', chatId)
    .where('m.off_path', '=', false);
  if (before !== undefined) query = query.where('m.id', '<', before);
  return query.orderBy('m.id', 'desc').limit(limit).execute();
};

/** The files attached to these messages, in their order. */
export const listMessageFiles = (db: Executor, messageIds: readonly number[]) =>
  db
    .selectFrom('chat_message_files as mf')
    .innerJoin('files as f', 'f.id', 'mf.file_id')
    .select(['mf.message_id', 'f.id', 'f.original_name'])
    .where('mf.message_id', 'in', messageIds)
    .orderBy('mf.message_id')
    .orderBy('mf.position')
    .execute();

/** The answer being written in a chat, if any. */
export const generatingAnswer = (db: Executor, chatId: number) =>
  db.selectFrom('chat_messages').select(['id']).where('chat_id', '=', chatId).where('role', '=', 'assistant').where('status', '=', 'generating').executeTakeFirst();

/** The answers of a user being written now, in any chat. */
export const generatingAnswersOf = (db: Executor, userId: number) =>
  db.selectFrom('chat_messages').select(['id']).where('user_id', '=', userId).where('role', '=', 'assistant').where('status', '=', 'generating').execute();

/** Saves an answer's text so far (and that it is alive); only while it is still being written. */
export const saveProgress = (db: Executor, messageId: number, text: string) =>
  db.updateTable('chat_messages').set({ text, updated_at: sql<Date>`now()` }).where('id', '=', messageId).where('status', '=', 'generating').execute();

/** Asks every process (NOTIFY on `channel`) to stop the answer `messageId` if it is writing it. */
export const notifyStop = (db: Executor, channel: string, messageId: number) =>
  db.selectNoFrom((eb) => eb.fn<unknown>('pg_notify', [eb.val(channel), eb.val(String(messageId))]).as('sent')).execute();

/** Answers left `generating` without a save for `seconds` by the database's clock: the process writing them died. */
export const abandonedAnswers = (db: Executor, seconds: number) =>
  db
    .selectFrom('chat_messages as m')
    .leftJoin('ai_models as a', 'a.id', 'm.model_id')
    .leftJoin('provider_connections as c', 'c.id', 'a.connection_id')
    .leftJoin('wallet_holds as h', 'h.id', 'm.hold_id')
    .select(['m.id', 'm.user_id', 'm.text', 'a.words_per_token', 'c.protocol', 'h.amount as hold_amount'])
    .where('m.status', '=', 'generating')
    .where('m.updated_at', '<', sql<Date>`now() - make_interval(secs => ${seconds})`)
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

/** What `chat_send` (`db/functions/chat_send.v<N>.sql`, the latest applied by its migration) stores: the messages of a send and its hold, in one statement. */
export interface ChatSendParams {
  user_id: number;
  /** Absent: a new chat titled `title`. */
  chat_id?: number | undefined;
  title: string;
  model_id: number;
  model_name: string;
  param: string | null;
  message: string;
  /** Words per token (0: a free model, nothing held). */
  rate: number;
  /** Input tokens of the system prompt and new message (bound) plus the answer's limit; the history's bound is added in SQL. */
  base_tokens: number;
  /** Messages of history the bound covers. */
  history_limit: number;
  /** `send` (after the chat's last message), `regenerate` (`target_id`: the last answer, to `question_id`) or `edit` (`target_id`: the user's last message). */
  mode?: 'send' | 'regenerate' | 'edit' | undefined;
  target_id?: number | undefined;
  question_id?: number | undefined;
  /** Images of the message (rows stored in the same transaction), in order. */
  file_ids: number[];
  /** Answers the user may have being written at once: one more is refused (`too_many`). */
  max_answers: number;
}

/** A message of the history `chat_send` answers. */
export interface ChatHistoryRow {
  role: 'user' | 'assistant';
  text: string;
}

export type ChatSendOutcome =
  /** `history`: the latest messages with text before this send (at most `history_limit`), newest first. */
  | { status: 'ok'; chat_id: number; user_message_id: number; answer_id: number; hold_id: number | null; hold_amount: number; history: ChatHistoryRow[] }
  | { status: 'not_found' | 'busy' | 'too_many' | 'insufficient' | 'not_last' };

const chatSendStatement = statement<{ result: ChatSendOutcome }>('select chat_send($1::jsonb) as result');

export async function chatSend(db: Executor, params: ChatSendParams): Promise<ChatSendOutcome> {
  const rows = await chatSendStatement(db, [JSON.stringify(params)]).catch((err: unknown) => {
    // Over the cap under the user's lock: the statement, and all it wrote, is undone.
    if ((err as { code?: unknown }).code === 'NS429') return [{ result: { status: 'too_many' as const } }];
    // Outside a transaction the statement commits at once: a hold another send left uncovered fails there.
    if (isBalanceRefused(err)) return [{ result: { status: 'insufficient' as const } }];
    throw err;
  });
  const result = rows[0]?.result;
  if (!result) throw new Error('chat_send answered nothing');
  return result;
}

/** How an answer ended, for `chat_close` (`db/functions/chat_close.v<N>.sql`, the latest applied by its migration). */
export interface ChatCloseParams {
  message_id: number;
  user_id: number;
  text: string;
  status: Exclude<ChatMessageStatus, 'generating'>;
  words: number;
  input_tokens: number | null;
  output_tokens: number | null;
  error: string | null;
}

const chatCloseStatement = statement<{ result: { closed: boolean; charged: number | null; words: number; media: number } }>('select chat_close($1::jsonb) as result');

/**
 * Closes an answer still being written and settles its hold (releases it for a failure), in one
 * statement; answers whether this call closed it, the words it recorded (what the settle really
 * kept) and the user's balances after.
 */
export async function chatClose(db: Executor, params: ChatCloseParams): Promise<{ closed: boolean; words: number | null; balances: RawBalances }> {
  const rows = await chatCloseStatement(db, [JSON.stringify(params)]);
  const result = rows[0]?.result;
  if (!result) throw new Error('chat_close answered nothing');
  return { closed: result.closed, words: result.charged, balances: { words: result.words, media: result.media } };
}
