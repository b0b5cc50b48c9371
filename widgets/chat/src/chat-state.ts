import type { ChatMessage } from '@app/contracts/browser';
import type { LiveExchange } from './use-chat-send.ts';
import type { ShownMessage } from './types.ts';

/* The chat's page state as plain functions: the address, the stored model, previews, the shown history. */

export const MODEL_KEY = 'neurostudio.chat.model';

/** `?id=N` of the page's address: the chat to open. */
export function chatIdFromUrl(): number | null {
  const id = Number(new URLSearchParams(window.location.search).get('id'));
  return Number.isInteger(id) && id > 0 ? id : null;
}

export function storedChoice(): string | null {
  try {
    return window.localStorage.getItem(MODEL_KEY);
  } catch {
    return null;
  }
}

export const preview = (file: File) => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : '');
export const revoke = (url: string) => {
  if (url && typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(url);
};

/** The call of a chat's newest messages (its query cache key too). */
export const newestOf = (id: number) => ({ params: { id }, query: {} });

const toShown = (m: ChatMessage): ShownMessage => ({
  key: `m${String(m.id)}`,
  id: m.id,
  role: m.role,
  text: m.text,
  model: m.model,
  status: m.status,
  words: m.words,
  images: m.images.map((i) => ({ url: i.url, name: i.name })),
  ...(m.variants ? { variants: m.variants } : {}),
});

/** Whether a history has an answer to draw as Markdown. */
export const hasAnswers = (history: readonly ChatMessage[]) => history.some((m) => m.role === 'assistant' && m.text !== '');

/** The history of the open chat with the exchange being sent, whose live copy wins over the history's until the history has it done. */
export function withLive(history: readonly ChatMessage[], live: LiveExchange | null): ShownMessage[] {
  if (!live) return history.map(toShown);
  const liveIds = new Set([live.user.id, live.answer?.id, ...live.replaces].filter((id): id is number => id !== null && id !== undefined));
  return [...history.filter((m) => !liveIds.has(m.id)).map(toShown), live.user, ...(live.answer ? [live.answer] : [])];
}

export function liveStatus(live: LiveExchange | null): string {
  if (!live) return '';
  if (live.phase === 'sending') return 'Отправляем сообщение…';
  if (live.phase === 'stopping') return 'Останавливаем ответ…';
  const status = live.answer?.status;
  if (status === 'generating') return 'Модель пишет ответ…';
  if (status === 'done') return 'Ответ готов';
  if (status === 'stopped') return 'Ответ остановлен';
  if (status === 'failed') return 'Ошибка при выполнении запроса';
  return '';
}
