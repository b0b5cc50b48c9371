import { CHAT_LIMITS, type ChatSearchHit } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { chatMessages } from './chat.service.ts';
import { findOwnChat } from './chat.queries.ts';
import { MARK_END, MARK_START, searchChats } from './chat-search.queries.ts';

/** Results a search answers at most. */
export const SEARCH_LIMIT = 30;

type Piece = ChatSearchHit['snippet'][number];

/** A headline as pieces, the matched words marked. */
export function markedPieces(headline: string): Piece[] {
  const pieces: Piece[] = [];
  let rest = headline;
  while (rest) {
    const start = rest.indexOf(MARK_START);
    if (start < 0) {
      pieces.push({ text: rest, mark: false });
      break;
    }
    if (start > 0) pieces.push({ text: rest.slice(0, start), mark: false });
    const end = rest.indexOf(MARK_END, start);
    const stop = end < 0 ? rest.length : end;
    pieces.push({ text: rest.slice(start + 1, stop), mark: true });
    rest = rest.slice(stop + 1);
  }
  return pieces.filter((p) => p.text !== '');
}

/** The viewer's chats whose titles or messages match `q`, newest first. */
export async function searchOwnChats(ctx: AppContext, userId: number, q: string): Promise<{ hits: ChatSearchHit[]; more: boolean }> {
  const rows = await searchChats(ctx.db, userId, q, SEARCH_LIMIT + 1);
  return {
    hits: rows.slice(0, SEARCH_LIMIT).map((r) => ({
      chat_id: r.chat_id,
      title: markedPieces(r.title_marked),
      message_id: r.message_id,
      role: r.role,
      snippet: markedPieces(r.snippet),
      created_at: r.created_at.toISOString(),
    })),
    more: rows.length > SEARCH_LIMIT,
  };
}

const MOSCOW = new Intl.DateTimeFormat('ru-RU', { timeZone: 'Europe/Moscow', day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const when = (iso: string) => `${MOSCOW.format(new Date(iso)).replace(',', '')} МСК`;

/** A chat as a Markdown file: its title, then each message of the conversation shown with who wrote it and when. */
export async function exportChatMarkdown(ctx: AppContext, userId: number, chatId: number, now = new Date()): Promise<{ fileName: string; body: string }> {
  const chat = await findOwnChat(ctx.db, userId, chatId);
  if (!chat) throw new AppError('NOT_FOUND', 'Чат не найден');
  // Every page of the conversation, newest page first, each oldest first.
  const messages: Awaited<ReturnType<typeof chatMessages>> = [];
  for (let page = await chatMessages(ctx, userId, chatId); ; page = await chatMessages(ctx, userId, chatId, page[0]?.id)) {
    messages.unshift(...page);
    if (page.length < CHAT_LIMITS.messagesPage) break;
  }
  const lines = [`# ${chat.title.replace(/\s+/g, ' ')}`, '', `Выгружено из «Нейростудии» ${when(now.toISOString())}.`, ''];
  for (const m of messages) {
    const who = m.role === 'user' ? 'Вы' : (m.model ?? 'Модель');
    const state = m.status === 'stopped' ? ' (остановлен)' : m.status === 'failed' ? ' (ошибка)' : m.status === 'generating' ? ' (ещё пишется)' : '';
    lines.push('---', '', `### ${who} · ${when(m.created_at)}${state}`, '');
    if (m.images.length) lines.push(`Изображения: ${m.images.map((i) => i.name).join(', ')}`, '');
    if (m.text) lines.push(m.text, '');
  }
  const safeTitle = chat.title.replace(/[\\/:*?"<>|\p{Cc}]+/gu, ' ').replace(/\s+/g, ' ').trim().slice(0, 60) || 'Чат';
  return { fileName: `${safeTitle}.md`, body: `${lines.join('\n').trimEnd()}\n` };
}
