import { useEffect, useRef, useState } from 'react';
import type { ChatSendResult } from '@app/contracts/browser';
import { ApiError } from '@app/kit';
import type { ChatApi, ChatStreamEvent, ChatStreamRequest } from './api.ts';
import { callFailure, sendFailure, type SendFailure } from './chat-utils.ts';
import type { SendPhase, ShownMessage } from './types.ts';

/** At most this often the answer being written is drawn again (its Markdown parsed anew). */
export const STREAM_FLUSH_MS = 100;

/** The exchange being sent and written now, shown after the chat's history until the history has it. */
export interface LiveExchange {
  run: number;
  /** The chat it belongs to (null until the server's `start` names a new chat's id). */
  chatId: number | null;
  phase: SendPhase | 'ended';
  user: ShownMessage & { id: number | null };
  answer: (ShownMessage & { id: number }) | null;
  /** Messages of the history this exchange takes the place of (the answer regenerated; the message edited and what followed it). */
  replaces: number[];
}

export interface SendInput {
  chatId: number | null;
  message: string;
  modelId: number;
  param: string | undefined;
  files: readonly File[];
  previews: { url: string; name: string }[];
  /**
   * A new answer to the chat's last question (`question`: its id; `replaces`: the answer shown
   * now), or the user's last message (`message_id`) sent again as edited, replacing what followed.
   */
  action?: { kind: 'regenerate'; questionId: number; replaces: number[] } | { kind: 'edit'; messageId: number; replaces: number[] } | undefined;
}

export interface SendCallbacks {
  /** The server started the answer: `isNew` when it created the chat. */
  onStarted: (start: Extract<ChatStreamEvent, { event: 'start' }>['data'], isNew: boolean) => void;
  /** The answer is complete (or stopped): balances changed. */
  onDone: (result: ChatSendResult) => void;
  /** The send failed before the server took the message: the composer gets it back. */
  onRefused: (input: SendInput) => void;
  /** The exchange ended (whatever the outcome): the chat's history is read again; resolves to whether it now has the answer. */
  onSettled: (chatId: number | null, answerId: number | null) => Promise<boolean>;
}

/**
 * Sending a message and streaming its answer (`POST /api/new/chat/stream`): the user's message
 * shows at once, the answer as its deltas arrive (drawn at most every `STREAM_FLUSH_MS`), its
 * words once `done` says. «Остановить» asks the server to stop; the stream then ends with
 * `done` status `stopped`. Leaving the chat (another chat, «Новый чат») closes the connection;
 * the server finishes the answer anyway and the history shows it.
 */
export function useChatSend(api: ChatApi, callbacks: SendCallbacks, flushMs = STREAM_FLUSH_MS) {
  const [live, setLive] = useState<LiveExchange | null>(null);
  const [failure, setFailure] = useState<SendFailure | null>(null);
  const run = useRef(0);
  const controller = useRef<AbortController | null>(null);
  const latest = useRef(callbacks);
  useEffect(() => {
    latest.current = callbacks;
  });
  useEffect(
    () => () => {
      controller.current?.abort();
    },
    [],
  );

  const update = (token: number, change: (live: LiveExchange) => LiveExchange) => setLive((current) => (current && current.run === token ? change(current) : current));

  const send = async (input: SendInput) => {
    controller.current?.abort();
    const token = ++run.current;
    const abort = new AbortController();
    controller.current = abort;
    setFailure(null);
    setLive({
      run: token,
      chatId: input.chatId,
      phase: 'sending',
      user: { key: `live-user-${String(token)}`, id: input.action?.kind === 'regenerate' ? input.action.questionId : null, role: 'user', text: input.message, model: null, status: 'done', words: 0, images: input.previews },
      answer: null,
      replaces: input.action?.replaces ?? [],
    });
    // Set from the stream's callback.
    const progress: { started: boolean; answerId: number | null } = { started: false, answerId: null };
    let chatId = input.chatId;
    let buffer = '';
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      const text = buffer;
      update(token, (l) => (l.answer ? { ...l, answer: { ...l.answer, text } } : l));
    };
    const onEvent = (event: ChatStreamEvent) => {
      if (token !== run.current) return;
      switch (event.event) {
        case 'start': {
          progress.started = true;
          progress.answerId = event.data.message_id;
          chatId = event.data.chat_id;
          const { model, message_id, user_message_id } = event.data;
          update(token, (l) => ({
            ...l,
            chatId: event.data.chat_id,
            phase: l.phase === 'stopping' ? 'stopping' : 'streaming',
            user: { ...l.user, id: user_message_id },
            answer: { key: `live-answer-${String(token)}`, id: message_id, role: 'assistant', text: '', model, status: 'generating', words: 0, images: [] },
          }));
          latest.current.onStarted(event.data, input.chatId === null);
          break;
        }
        case 'delta':
          buffer += event.data.text;
          timer ??= setTimeout(flush, flushMs);
          break;
        case 'done': {
          clearTimeout(timer);
          timer = undefined;
          buffer = event.data.message;
          const result = event.data;
          update(token, (l) => ({ ...l, phase: 'ended', answer: l.answer && { ...l.answer, text: result.message, status: result.status, words: result.words, model: result.model } }));
          latest.current.onDone(result);
          break;
        }
      }
    };
    const choice = { ai_models_id: input.modelId, ...(input.param === undefined ? {} : { param: input.param }) };
    const request: ChatStreamRequest = {
      body: { ...choice, message: input.message, ...(input.chatId === null ? {} : { chat_id: input.chatId }) },
      files: { image_example: input.files[0], image_example_2: input.files[1] },
    };
    const action = input.action;
    try {
      const options = { onEvent, signal: abort.signal };
      if (action && input.chatId !== null) {
        const params = { id: input.chatId };
        if (action.kind === 'regenerate') await api.regenerate({ params, body: choice }, options);
        else await api.edit({ params, body: { ...choice, message_id: action.messageId, message: input.message } }, options);
      } else await api.send(request, options);
    } catch (err) {
      if (abort.signal.aborted || token !== run.current) return;
      clearTimeout(timer);
      const failed = sendFailure(err);
      setFailure(failed);
      if (!progress.started) {
        setLive((l) => (l?.run === token ? null : l));
        latest.current.onRefused(input);
        return;
      }
      // A dropped connection is not a failed answer: the server finishes it, and the history (read next) shows it being written.
      const lost = !(err instanceof ApiError) || err.status === 0;
      update(token, (l) => ({ ...l, phase: 'ended', answer: l.answer && { ...l.answer, text: buffer, status: lost ? l.answer.status : 'failed' } }));
    }
    if (token !== run.current) return;
    clearTimeout(timer);
    update(token, (l) => ({ ...l, phase: 'ended' }));
    const kept = await latest.current.onSettled(chatId, progress.answerId);
    // The history has the exchange now; if it could not be read, the live copy stays.
    if (kept) setLive((l) => (l?.run === token ? null : l));
  };

  return {
    live,
    failure,
    phase: live && live.phase !== 'ended' ? live.phase : 'idle',
    send: (input: SendInput) => void send(input),
    /** «Остановить»: the server ends the answer where it is. */
    stop: () => {
      const current = live;
      if (!current || current.chatId === null || current.phase !== 'streaming') return;
      const token = current.run;
      update(token, (l) => ({ ...l, phase: 'stopping' }));
      api.stop({ params: { id: current.chatId } }).catch((err: unknown) => {
        update(token, (l) => (l.phase === 'stopping' ? { ...l, phase: 'streaming' } : l));
        setFailure({ kind: 'message', message: callFailure(err) });
      });
    },
    /** Leaves the exchange (another chat, «Новый чат»): the connection closes, the server finishes the answer. */
    detach: () => {
      run.current++;
      controller.current?.abort();
      controller.current = null;
      setLive(null);
      setFailure(null);
    },
    setFailure,
  };
}
