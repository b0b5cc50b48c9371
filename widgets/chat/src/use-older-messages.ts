import { useCallback, useEffect, useRef, useState } from 'react';
import { CHAT_LIMITS, type ChatMessage } from '@app/contracts/browser';
import type { ChatApi } from './api.ts';
import { callFailure } from './chat-utils.ts';

/** Whether older messages of the open chat can be read, are being read, or failed to be. */
export interface OlderState {
  hasMore: boolean;
  loading: boolean;
  error: string | null;
}

interface Older {
  chatId: number | null;
  /** Messages before the newest page, oldest first. */
  messages: ChatMessage[];
  /** The chat's first message is among them. */
  reachedStart: boolean;
  loading: boolean;
  error: string | null;
}

const initial = (chatId: number | null): Older => ({ chatId, messages: [], reachedStart: false, loading: false, error: null });

/**
 * The open chat a page at a time: the server answers its newest messages (`newest`, read and
 * polled by the caller); older pages are read on demand (`before` the oldest message shown) and
 * kept. Messages that leave the newest page as new ones arrive are kept too, so nothing is
 * skipped between the pages.
 */
export function useOlderMessages(api: ChatApi, chatId: number | null, newest: readonly ChatMessage[] | undefined) {
  const [older, setOlder] = useState<Older>(() => initial(chatId));
  const current = older.chatId === chatId ? older : initial(chatId);
  const previousNewest = useRef<{ chatId: number | null; messages: readonly ChatMessage[] } | null>(null);

  useEffect(() => {
    const previous = previousNewest.current;
    previousNewest.current = newest ? { chatId, messages: newest } : null;
    const first = newest?.[0]?.id;
    if (!previous || previous.chatId !== chatId || first === undefined) return;
    const dropped = previous.messages.filter((m) => m.id < first);
    if (dropped.length === 0) return;
    setOlder((o) => {
      const base = o.chatId === chatId ? o : initial(chatId);
      const known = new Set(base.messages.map((m) => m.id));
      return { ...base, messages: [...base.messages, ...dropped.filter((m) => !known.has(m.id))].sort((a, b) => a.id - b.id) };
    });
  }, [chatId, newest]);

  const messages = newest ? [...current.messages, ...newest] : current.messages;
  const oldest = messages[0]?.id;
  const hasMore = chatId !== null && newest !== undefined && !current.reachedStart && (current.messages.length > 0 || newest.length >= CHAT_LIMITS.messagesPage);

  const loading = useRef(false);
  const loadOlder = useCallback(() => {
    if (chatId === null || oldest === undefined || loading.current || !hasMore) return;
    loading.current = true;
    setOlder((o) => ({ ...(o.chatId === chatId ? o : initial(chatId)), loading: true, error: null }));
    void (async () => {
      try {
        const page = await api.messages({ params: { id: chatId }, query: { before: oldest } });
        setOlder((o) => {
          const base = o.chatId === chatId ? o : initial(chatId);
          const known = new Set(base.messages.map((m) => m.id));
          return { ...base, messages: [...page.filter((m) => !known.has(m.id)), ...base.messages], reachedStart: page.length < CHAT_LIMITS.messagesPage, loading: false };
        });
      } catch (err) {
        setOlder((o) => ({ ...(o.chatId === chatId ? o : initial(chatId)), loading: false, error: callFailure(err) }));
      } finally {
        loading.current = false;
      }
    })();
  }, [api, chatId, oldest, hasMore]);

  const state: OlderState = { hasMore, loading: current.loading, error: current.error };
  return { messages, state, loadOlder };
}
