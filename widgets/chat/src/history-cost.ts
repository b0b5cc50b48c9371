import type { ChatEstimate } from '@app/contracts/browser';
import { plural } from '@app/kit';

/**
 * Whether the chat's history has grown expensive enough to offer a new chat with a summary: it
 * costs with each message at least as much as the longest answer, and a summary can be made.
 */
export const isHistoryExpensive = (e: ChatEstimate | null | undefined): e is ChatEstimate => !!e && e.summary_words > 0 && e.history_words > 0 && e.history_words >= e.answer_words;

/** The part of the price line about the history staff let the model get: «(последние 6 сообщений)». */
export function historyLimitText(e: ChatEstimate): string {
  if (e.history_limit === null || e.summary_words === 0) return '';
  if (e.history_limit === 0) return ', история чата не отправляется';
  if (e.history_limit === 1) return ' (только последнее сообщение)';
  return ` (последние ${String(e.history_limit)} ${plural(e.history_limit, ['сообщение', 'сообщения', 'сообщений'])})`;
}
