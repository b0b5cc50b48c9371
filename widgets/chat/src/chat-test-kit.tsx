import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, vi } from 'vitest';
import { accountEndpoints, billingEndpoints, chatEndpoints, type ChatEstimate, type ChatListItem, type ChatMessage, type ChatSearchHit, type ChatSummaryResult, type SubscribeCheck } from '@app/contracts/browser';
import { fakeRoute } from '@app/kit/test';
import { Chat } from './Chat.tsx';
import type { ChatApi, ChatStreamEvent, ChatStreamFn, ChatStreamRequest } from './api.ts';
import { CHATS, HISTORY, MODELS, USER } from './fixtures.ts';

/** What the chat's test files share: a fake api whose stream the test drives, the rendered widget and its controls. */

export const PLANS = '/dashboard/user/payment';
export const PACKAGES = '/dashboard/user/payment#packages';

/** A streamed send the test drives: events are pushed, then the stream ends or fails. */
export function fakeStream() {
  const calls: { request: ChatStreamRequest; emit: (e: ChatStreamEvent) => void; end: () => void; fail: (err: unknown) => void; signal?: AbortSignal }[] = [];
  const fn = vi.fn<ChatStreamFn>(
    (request, { onEvent, signal }) =>
      new Promise<void>((resolve, reject) => {
        signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        calls.push({ request, emit: onEvent, end: resolve, fail: reject, signal });
      }),
  );
  const last = () => {
    const call = calls.at(-1);
    if (!call) throw new Error('nothing was sent');
    return call;
  };
  return {
    fn,
    calls,
    last,
    emit: async (...events: ChatStreamEvent[]) => {
      await act(async () => {
        for (const e of events) last().emit(e);
        await Promise.resolve();
      });
    },
    end: async () => {
      await act(async () => {
        last().end();
        await Promise.resolve();
      });
    },
    fail: async (err: unknown) => {
      await act(async () => {
        last().fail(err);
        await Promise.resolve();
      });
    },
  };
}

export type Overrides = Partial<{
  /** Every chat of the list, newest first: the fake answers its pages as the server does (`page`, `per_page`). */
  list: () => ChatListItem[];
  messages: (id: number, before?: number) => ChatMessage[];
  check: SubscribeCheck;
  variant: (chatId: number, messageId: number) => ChatMessage[];
  search: (q: string) => { hits: ChatSearchHit[]; more: boolean };
  estimate: ChatEstimate;
  summary: (chatId: number, requestId: string) => Promise<ChatSummaryResult>;
}>;

/** `GET /api/new/subscribe/check` of a user on a plan (packages can be bought), without one, and with a cancelled one. */
export const PLAN_CHECK: SubscribeCheck = { subscriptions: 2, first: false, card: null, cancelled: false, active_until: '2025-06-15T12:00:00Z', trial: false, past_due: false, next_charge_at: '2025-06-15T12:00:00Z', next_charge_amount: 990 };
export const NO_PLAN_CHECK: SubscribeCheck = { ...PLAN_CHECK, subscriptions: null, first: true, active_until: null, next_charge_at: null, next_charge_amount: null };
export const CANCELLED_CHECK: SubscribeCheck = { ...PLAN_CHECK, cancelled: true, next_charge_at: null, next_charge_amount: null };

export function fakeApi(overrides: Overrides = {}) {
  const stream = fakeStream();
  const all = overrides.list ?? (() => CHATS);
  const list = (page: number, perPage: number) => {
    const chats = all();
    return { data: chats.slice((page - 1) * perPage, page * perPage), last_page: Math.max(1, Math.ceil(chats.length / perPage)) };
  };
  const api = {
    list: fakeRoute(chatEndpoints.list, (r) => list(Number(r.query.page), Number(r.query.per_page ?? 1))),
    messages: fakeRoute(chatEndpoints.messages, (r) => (overrides.messages ? overrides.messages(Number(r.params.id), r.query.before === undefined ? undefined : Number(r.query.before)) : HISTORY)),
    models: fakeRoute(chatEndpoints.models, MODELS),
    stop: fakeRoute(chatEndpoints.stop, { stopped: true }),
    rename: fakeRoute(chatEndpoints.rename, (r) => ({ id: Number(r.params.id), text: (r.body instanceof FormData ? '' : r.body.title).trim(), updated_at: '2025-05-20T12:00:00Z' })),
    remove: fakeRoute(chatEndpoints.remove, { deleted: true as const }),
    user: fakeRoute(accountEndpoints.user, USER),
    check: fakeRoute(billingEndpoints.subscribeCheck, overrides.check ?? PLAN_CHECK),
    send: stream.fn,
    // Regenerates and edits are streams the test drives like a send (their request is recorded as it is).
    regenerate: vi.fn<ChatApi['regenerate']>((request, options) => stream.fn(request as unknown as ChatStreamRequest, options)),
    edit: vi.fn<ChatApi['edit']>((request, options) => stream.fn(request as unknown as ChatStreamRequest, options)),
    variant: fakeRoute(chatEndpoints.variant, (r) => (overrides.variant ? overrides.variant(Number(r.params.id), r.body instanceof FormData ? 0 : Number(r.body.message_id)) : HISTORY)),
    search: fakeRoute(chatEndpoints.search, (r) => overrides.search?.(r.query.q) ?? { hits: [], more: false }),
    // The longest answer of the model, and 10 words more with a short one than nothing.
    estimate: fakeRoute(chatEndpoints.estimate, (r) => {
      const max = MODELS.find((m) => m.ai_models_id === (r.body instanceof FormData ? 0 : r.body.ai_models_id))?.max_words ?? 100;
      return overrides.estimate ?? { min_words: 10, max_words: max, history_words: 0, history_messages: 0, answer_words: max, history_limit: null, summary_words: 0 };
    }),
    summary: fakeRoute(chatEndpoints.summary, (r) =>
      overrides.summary
        ? overrides.summary(Number(r.params.id), r.body instanceof FormData ? '' : r.body.request_id)
        : { chat_id: 77, title: 'Продолжение: чат', message_id: 990, status: 'done' as const, words: 120, balances: USER.balances },
    ),
  } satisfies ChatApi;
  return { api, stream };
}

export function renderChat(api: ChatApi, extra: { pollMs?: number } = {}) {
  return render(<Chat plansUrl={PLANS} packagesUrl={PACKAGES} api={api} pollMs={extra.pollMs ?? 20} flushMs={1} />);
}

export const input = () => screen.getByRole('textbox', { name: 'Сообщение' });
export const sendButton = () => screen.getByRole('button', { name: 'Отправить' });
export const png = (name = 'кот.png', size = 64) => {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new File([bytes], name, { type: 'image/png' });
};
export const jpeg = (name = 'фото.jpg') => new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0])], name, { type: 'image/jpeg' });
export const attach = async (...files: File[]) => {
  await userEvent.upload(screen.getByTestId('chat-file-input'), files);
};

/** What the composer says a send will cost. */
export const priceText = () => screen.getByTitle(/^Слово — единица оплаты/).textContent.replace(/\s/g, ' ');

/** The model choices are loaded (the composer can send). */
export const ready = async () => {
  await screen.findByRole('combobox', { name: 'Модель' });
};

export const start = (over: Partial<Extract<ChatStreamEvent, { event: 'start' }>['data']> = {}): ChatStreamEvent => ({ event: 'start', data: { chat_id: 41, message_id: 902, model: 'GPT-4o mini', user_message_id: 901, ...over } });
export const delta = (text: string): ChatStreamEvent => ({ event: 'delta', data: { text } });

/** Each test starts at /chat with nothing remembered, on the real clock. */
export function resetBetweenTests() {
  beforeEach(() => {
    window.history.replaceState(null, '', '/chat');
    window.localStorage.clear();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}
