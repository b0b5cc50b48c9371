import { useRef, useState } from 'react';
import type { ChatSummaryResult } from '@app/contracts/browser';
import type { ChatApi } from './api.ts';
import { callFailure, sendFailure } from './chat-utils.ts';

/** Where «Новый чат с кратким содержанием» stands: idle, the summary being written, or why it was refused (`tooFewWords`: a 402). */
export type SummaryState = { phase: 'idle' | 'busy'; error: string | null; tooFewWords?: boolean };

const IDLE: SummaryState = { phase: 'idle', error: null };

const newRequestId = (): string =>
  typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (c) => (Number(c) ^ (Math.floor(Math.random() * 16) >> (Number(c) / 4))).toString(16));

/**
 * Starts a new chat from a short summary of `chatId`. One request id a chat until it succeeds: a
 * click again after a failure (a lost reply, too few words topped up) is the same request, which the
 * server answers with the chat it already made instead of charging twice.
 */
export function useChatSummary(api: Pick<ChatApi, 'summary'>, chatId: number | null, onMade: (result: ChatSummaryResult) => void) {
  // The state of the chat it was for: another chat opened starts idle.
  const [held, setHeld] = useState<{ chatId: number | null; state: SummaryState }>({ chatId, state: IDLE });
  const state = held.chatId === chatId ? held.state : IDLE;
  const requestRef = useRef<{ chatId: number; id: string } | null>(null);

  const start = (model: { ai_models_id: number; param?: string | undefined } | null) => {
    if (chatId === null || state.phase === 'busy') return;
    if (requestRef.current?.chatId !== chatId) requestRef.current = { chatId, id: newRequestId() };
    const requestId = requestRef.current.id;
    const set = (next: SummaryState) => setHeld({ chatId, state: next });
    set({ phase: 'busy', error: null });
    api
      .summary({ params: { id: chatId }, body: { request_id: requestId, ...(model ? { ai_models_id: model.ai_models_id, ...(model.param === undefined ? {} : { param: model.param }) } : {}) } })
      .then((result) => {
        requestRef.current = null;
        set(IDLE);
        onMade(result);
      })
      .catch((err: unknown) => set({ phase: 'idle', error: callFailure(err), tooFewWords: sendFailure(err).kind === 'tooFewWords' }));
  };
  return { state, start };
}
