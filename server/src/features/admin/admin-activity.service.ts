import { CHAT_LIMITS, type AdminChat, type AdminChatDetail } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { mediaToWire } from '../wallet/wallet.queries.ts';
import { lastPage } from './admin-list.ts';
import { chatMessages, findChatRow, listChats, listGenerations, type AdminChatRow } from './admin-activity.queries.ts';

/** Messages of one chat an admin reads at once (as the user's own chat pages). */
const CHAT_MESSAGES = CHAT_LIMITS.messagesPage;

const iso = (d: Date | null) => d?.toISOString() ?? null;

export async function adminGenerations(ctx: AppContext, query: Parameters<typeof listGenerations>[1]) {
  const { rows, total } = await listGenerations(ctx.db, query);
  return {
    data: rows.map((g) => ({
      id: g.id,
      user_id: g.user_id,
      email: g.email,
      product: g.product_name,
      model: g.model_name,
      variant: g.variant,
      status: g.status,
      wallet: g.wallet,
      cost: g.wallet === 'media' ? mediaToWire(g.cost) : g.cost,
      prompt: g.prompt,
      error: g.error,
      error_detail: g.error_detail,
      outputs: g.outputs.map(Number),
      created_at: g.created_at.toISOString(),
      finished_at: iso(g.finished_at),
    })),
    last_page: lastPage(total),
  };
}

const toAdminChat = (c: AdminChatRow): AdminChat => ({
  id: c.id,
  user_id: c.user_id,
  email: c.email,
  title: c.title,
  message_count: c.message_count,
  words: c.words,
  created_at: c.created_at.toISOString(),
  updated_at: c.updated_at.toISOString(),
});

export async function adminChats(ctx: AppContext, query: Parameters<typeof listChats>[1]) {
  const { rows, total } = await listChats(ctx.db, query);
  return { data: rows.map(toAdminChat), last_page: lastPage(total) };
}

/** A chat with a page of its messages: the newest, or those before the message `before`; `truncated` when older ones remain. */
export async function adminChat(ctx: AppContext, id: number, before?: number): Promise<AdminChatDetail> {
  const row = await findChatRow(ctx.db, id);
  if (!row) throw new AppError('NOT_FOUND', 'Чат не найден');
  // One more than a page tells whether older messages remain.
  const read = await chatMessages(ctx.db, id, CHAT_MESSAGES + 1, before);
  const messages = read.slice(-CHAT_MESSAGES);
  const chat = toAdminChat(row);
  return {
    ...chat,
    messages: messages.map((m) => ({
      id: m.id,
      role: m.role,
      text: m.text,
      model: m.model_name,
      status: m.status,
      words: m.words,
      input_tokens: m.input_tokens,
      output_tokens: m.output_tokens,
      error: m.error,
      files: m.files.map(Number),
      replaced: m.off_path,
      created_at: m.created_at.toISOString(),
    })),
    truncated: read.length > messages.length,
  };
}
