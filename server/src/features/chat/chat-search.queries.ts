import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';

/** Where a matched word starts and ends in a headline (characters no stored text keeps: they are taken out first). */
export const MARK_START = '\u0001';
export const MARK_END = '\u0002';

export interface ChatSearchRow {
  chat_id: number;
  title: string;
  title_marked: string;
  message_id: number | null;
  role: 'user' | 'assistant' | null;
  snippet: string;
  created_at: Date;
}

/**
 * The user's chats whose title or a message of the conversation shown matches `q` (websearch
 * syntax, the `russian` configuration, so «кофейни» finds «кофейня»), newest first: one row a
 * matching message, one a matching title. Headlines mark the matched words with
 * {@link MARK_START} and {@link MARK_END}.
 */
export async function searchChats(db: Executor, userId: number, q: string, limit: number): Promise<ChatSearchRow[]> {
  const { rows } = await sql<ChatSearchRow>`
    with query as (select websearch_to_tsquery('russian', ${q}) as q),
    hits as (
      (select m.chat_id, m.id as message_id, m.role, m.text, m.created_at
        from chat_messages m join chats c on c.id = m.chat_id, query
        where c.user_id = ${userId} and c.deleted_at is null and not m.off_path
          and to_tsvector('russian', m.text) @@ query.q
        order by m.created_at desc, m.id desc limit ${limit})
      union all
      (select c.id, null, null, null, c.updated_at
        from chats c, query
        where c.user_id = ${userId} and c.deleted_at is null and to_tsvector('russian', c.title) @@ query.q
        order by c.updated_at desc limit ${limit})
    )
    select h.chat_id, c.title, h.message_id, h.role, h.created_at,
      ts_headline('russian', translate(c.title, chr(1) || chr(2), ''), query.q,
        'HighlightAll=true, StartSel=' || chr(1) || ', StopSel=' || chr(2)) as title_marked,
      case when h.text is null then '' else ts_headline('russian', translate(h.text, chr(1) || chr(2), ''), query.q,
        'MaxWords=28, MinWords=10, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … ", StartSel=' || chr(1) || ', StopSel=' || chr(2)) end as snippet
    from (select * from hits order by created_at desc, message_id desc nulls last limit ${limit}) h
      join chats c on c.id = h.chat_id, query
    order by h.created_at desc, h.message_id desc nulls last`.execute(db);
  return rows;
}
