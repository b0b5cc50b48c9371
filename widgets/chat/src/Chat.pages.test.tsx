import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CHAT_LIMITS, type ChatMessage, type ChatSearchHit } from '@app/contracts/browser';
import { fakeApi, renderChat, resetBetweenTests } from './chat-test-kit.tsx';

resetBetweenTests();

const TOTAL = 120;
const PAGE = CHAT_LIMITS.messagesPage;
/** A long chat: messages 1…120, «Сообщение N». */
const LONG: ChatMessage[] = Array.from({ length: TOTAL }, (_, i) => ({
  id: i + 1,
  role: i % 2 === 0 ? 'user' : 'assistant',
  text: `Сообщение ${String(i + 1)}`,
  model: i % 2 === 0 ? null : 'GPT-4o',
  status: 'done',
  words: 0,
  images: [],
  created_at: '2025-05-20T12:00:00Z',
}));

/** The server's paging: the newest page, or the page before a message. */
const page = (before?: number) => {
  const upTo = before === undefined ? LONG.length : LONG.findIndex((m) => m.id >= before);
  return LONG.slice(Math.max(0, upTo - PAGE), upTo);
};

/** The conversation region with a layout jsdom lacks: a scroll height that grows as messages are added, and a scroll position. */
function withLayout(region: HTMLElement) {
  const box = { top: 0 };
  Object.defineProperty(region, 'scrollHeight', { configurable: true, get: () => region.querySelectorAll('.chat-msg').length * 100 });
  Object.defineProperty(region, 'clientHeight', { configurable: true, get: () => 600 });
  Object.defineProperty(region, 'scrollTop', { configurable: true, get: () => box.top, set: (v: number) => (box.top = v) });
  return box;
}

const shownTexts = () => Array.from(document.querySelectorAll('.chat-msg')).map((el) => el.querySelector('.chat-msg__text, .markdown, p:not(.chat-msg__author)')?.textContent ?? '');

describe('Chat: a long chat is read a page at a time', () => {
  it('opens on the newest 50 messages; scrolling up reads the older ones before them, keeping the place read, until the first', async () => {
    const { api } = fakeApi({ messages: (_id, before) => page(before) });
    window.history.replaceState(null, '', '/chat?id=40');
    renderChat(api);
    expect(await screen.findByText('Сообщение 120')).toBeInTheDocument();
    expect(screen.queryByText('Сообщение 70')).not.toBeInTheDocument();
    expect(screen.getByText('Сообщение 71')).toBeInTheDocument();
    expect(api.messages).toHaveBeenCalledWith({ params: { id: 40 }, query: {} });

    const region = screen.getByRole('region', { name: 'Переписка' });
    const box = withLayout(region);
    // The user scrolls up to the top of the 50 messages (5 000 px): the 50 before them are read and put above, and the
    // message that was at the top stays where it was (scrolled down by the height added).
    box.top = 0;
    fireEvent.scroll(region);
    expect(await screen.findByText('Сообщение 21')).toBeInTheDocument();
    expect(api.messages).toHaveBeenCalledWith({ params: { id: 40 }, query: { before: 71 } });
    await waitFor(() => expect(box.top).toBe(50 * 100));

    // Again: the last 20, and nothing more to read.
    box.top = 10;
    fireEvent.scroll(region);
    expect(await screen.findByText('Сообщение 1')).toBeInTheDocument();
    expect(api.messages).toHaveBeenCalledWith({ params: { id: 40 }, query: { before: 21 } });
    await waitFor(() => expect(box.top).toBe(10 + 20 * 100));
    expect(screen.queryByRole('button', { name: 'Показать предыдущие сообщения' })).not.toBeInTheDocument();
    const calls = api.messages.mock.calls.length;
    box.top = 0;
    fireEvent.scroll(region);
    await act(async () => {
      await Promise.resolve();
    });
    expect(api.messages.mock.calls.length).toBe(calls);
    // Every message once, in order.
    expect(shownTexts()).toEqual(LONG.map((m) => m.text));
  });

  it('a search result older than the pages read opens at its message: older pages are read until it is among them', async () => {
    const hit: ChatSearchHit = { chat_id: 40, title: [{ text: 'Длинный чат', mark: false }], message_id: 5, role: 'user', snippet: [{ text: 'Сообщение 5', mark: true }], created_at: '2025-05-20T12:00:00Z' };
    const { api } = fakeApi({ messages: (_id, before) => page(before), search: () => ({ hits: [hit], more: false }) });
    window.history.replaceState(null, '', '/chat?id=40');
    renderChat(api);
    await screen.findByText('Сообщение 120');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Поиск по чатам' }), 'сообщение 5');
    const found = await screen.findByRole('list', { name: 'Найдено' });
    await userEvent.click(within(found).getByRole('button'));
    await waitFor(() => expect(document.getElementById('chat-msg-5')).toHaveClass('chat-msg--found'));
    expect(api.messages).toHaveBeenCalledWith({ params: { id: 40 }, query: { before: 71 } });
    expect(api.messages).toHaveBeenCalledWith({ params: { id: 40 }, query: { before: 21 } });
    // Every message once, in order, and nothing read past the chat's first.
    expect(shownTexts()).toEqual(LONG.map((m) => m.text));
    expect(api.messages).toHaveBeenCalledTimes(3);
  });

  it('a short chat has nothing older to read', async () => {
    const { api } = fakeApi({ messages: () => LONG.slice(-5) });
    window.history.replaceState(null, '', '/chat?id=40');
    renderChat(api);
    await screen.findByText('Сообщение 120');
    expect(screen.queryByRole('button', { name: 'Показать предыдущие сообщения' })).not.toBeInTheDocument();
    fireEvent.scroll(screen.getByRole('region', { name: 'Переписка' }));
    expect(api.messages).toHaveBeenCalledTimes(1);
  });

  it('a failed read of older messages says so and can be tried again', async () => {
    let fail = true;
    const { api } = fakeApi({
      messages: (_id, before) => {
        if (before !== undefined && fail) throw new Error('offline');
        return page(before);
      },
    });
    window.history.replaceState(null, '', '/chat?id=40');
    renderChat(api);
    await screen.findByText('Сообщение 120');
    fireEvent.click(screen.getByRole('button', { name: 'Показать предыдущие сообщения' }));
    expect(await screen.findByText('Ошибка при отправке')).toBeInTheDocument();
    const retry = screen.getByRole('button', { name: 'Повторить' });
    fail = false;
    fireEvent.click(retry);
    expect(await screen.findByText('Сообщение 21')).toBeInTheDocument();
  });
});
