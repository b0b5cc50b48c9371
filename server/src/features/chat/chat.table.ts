import type { ColumnType, Generated, Selectable } from 'kysely';

export interface ChatsTable {
  id: Generated<number>;
  user_id: number;
  /** The whole title; the widget cuts it at 20 characters. */
  title: string;
  model_id: number | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  /**
   * Set when the user deleted the chat while an answer was still being written there: the chat is
   * hidden at once and removed when its last answer is closed (and charged).
   */
  deleted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The chat this one was started from with a short summary of it (its first message). */
  summary_of: ColumnType<number | null, number | null | undefined, number | null>;
  /** The browser's id of that request: a retry finds this chat instead of paying again. */
  summary_request: ColumnType<string | null, string | null | undefined, never>;
}

export type ChatMessageStatus = 'done' | 'generating' | 'stopped' | 'failed';

/**
 * A message. An answer is `generating` while it is written (its text saved as it grows), then
 * `done`, `stopped` (kept as far as it went, charged for that) or `failed` (its words released).
 */
export interface ChatMessagesTable {
  id: Generated<number>;
  chat_id: number;
  user_id: number;
  role: 'user' | 'assistant';
  text: ColumnType<string, string | undefined, string>;
  model_id: number | null;
  model_name: string | null;
  param: string | null;
  status: ColumnType<ChatMessageStatus, ChatMessageStatus | undefined, ChatMessageStatus>;
  /** Words charged for an answer. */
  words: ColumnType<number, number | undefined, number>;
  input_tokens: number | null;
  output_tokens: number | null;
  hold_id: number | null;
  /** Why an answer failed, for logs and admins (users see «Ошибка при выполнении запроса»). */
  error: string | null;
  /** The message this one follows (null for a chat's first): siblings are variants of one place. */
  parent_id: number | null;
  /** Not on the conversation the chat shows (a variant switched away from, or replaced). */
  off_path: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}
export type ChatMessageRow = Selectable<ChatMessagesTable>;

export interface ChatMessageFilesTable {
  message_id: number;
  file_id: number;
  position: number;
}

export interface ChatTables {
  chats: ChatsTable;
  chat_messages: ChatMessagesTable;
  chat_message_files: ChatMessageFilesTable;
}
