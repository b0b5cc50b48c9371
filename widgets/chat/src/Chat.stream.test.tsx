import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CHAT_TEXTS, type ChatListItem, type ChatMessage } from '@app/contracts/browser';
import { CHATS, GENERATING, doneResult } from './fixtures.ts';
import { fakeApi, renderChat, input, ready, start, delta, resetBetweenTests } from './chat-test-kit.tsx';

resetBetweenTests();

describe('Chat: the streamed answer', () => {
  it('appends the deltas as they come; done shows the words charged and updates the balance', async () => {
    const { api, stream } = fakeApi();
    window.history.replaceState(null, '', '/chat?id=41');
    renderChat(api);
    await screen.findByText('На картинке схематичный пейзаж: солнце над горами.');
    expect(screen.getByText('48 250')).toBeInTheDocument();
    await userEvent.type(input(), 'Привет{Enter}');
    expect(stream.last().request.body).toMatchObject({ chat_id: 41 });
    expect(screen.getByRole('button', { name: /Подождите/ })).toBeDisabled();
    await stream.emit(start(), delta('Здрав'), delta('ствуйте, '));
    expect(await screen.findByText('Здравствуйте,')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Остановить' })).toBeInTheDocument();
    expect(screen.getByText('Пишет ответ…')).toBeInTheDocument();
    await stream.emit(delta('**Анна**!'));
    expect(await screen.findByText('Анна', { selector: 'strong' })).toBeInTheDocument();
    await stream.emit({ event: 'done', data: doneResult({ message: 'Здравствуйте, **Анна**!', words: 3, balances: { words: 48_247, media: 12.5 } }) });
    expect(await screen.findByText('Списано 3 слова')).toBeInTheDocument();
    expect(screen.getByText('48 247')).toBeInTheDocument();
    expect(screen.queryByText('Пишет ответ…')).not.toBeInTheDocument();
    await stream.end();
    // The history is read again once the answer is complete.
    await waitFor(() => expect(api.messages.mock.calls.length).toBeGreaterThan(1));
    expect(screen.getByRole('button', { name: 'Отправить' })).toBeEnabled();
  });

  it('«Остановить» asks the server to stop; the answer ends marked «Остановлено»', async () => {
    const { api, stream } = fakeApi();
    window.history.replaceState(null, '', '/chat?id=41');
    renderChat(api);
    await ready();
    await userEvent.type(input(), 'Расскажи историю{Enter}');
    await stream.emit(start(), delta('Жил-был'));
    await userEvent.click(screen.getByRole('button', { name: 'Остановить' }));
    expect(api.stop).toHaveBeenCalledWith({ params: { id: 41 } });
    await stream.emit({ event: 'done', data: doneResult({ message: 'Жил-был', status: 'stopped', words: 2 }) });
    const answer = screen.getAllByRole('article', { name: 'GPT-4o mini' }).at(-1) as HTMLElement;
    expect(within(answer).getByText('Остановлено')).toBeInTheDocument();
    expect(within(answer).getByText('Списано 2 слова')).toBeInTheDocument();
  });

  it('a new chat: sending without chat_id sets the id the server returns, in the address and at the top of the list', async () => {
    const { api, stream } = fakeApi();
    renderChat(api);
    await ready();
    expect(screen.getByRole('heading', { name: 'С чем помочь?' })).toBeInTheDocument();
    await userEvent.type(input(), 'Как дела у нейросетей?{Enter}');
    expect(stream.last().request.body).not.toHaveProperty('chat_id');
    await stream.emit(start({ chat_id: 77 }));
    expect(window.location.search).toBe('?id=77');
    const list = screen.getByRole('navigation', { name: 'Чаты' });
    const first = within(list).getAllByRole('listitem')[0] as HTMLElement;
    expect(within(first).getByRole('button', { name: 'Как дела у нейросете…' })).toHaveAttribute('aria-current', 'page');
  });

  it('writing in an older chat moves it to the top of the list', async () => {
    let order = CHATS;
    const { api, stream } = fakeApi({ list: () => order });
    const last = CHATS.at(-1) as ChatListItem;
    window.history.replaceState(null, '', `/chat?id=${String(last.id)}`);
    renderChat(api);
    await ready();
    await userEvent.type(input(), 'Ещё вопрос{Enter}');
    order = [last, ...CHATS.slice(0, -1)];
    await stream.emit(start({ chat_id: last.id }));
    const list = screen.getByRole('navigation', { name: 'Чаты' });
    await waitFor(() => expect(within(within(list).getAllByRole('listitem')[0] as HTMLElement).getByRole('button', { name: last.text })).toBeInTheDocument());
  });

  it('«Новый чат» resets the chat id: the next message starts a new chat', async () => {
    const { api, stream } = fakeApi();
    window.history.replaceState(null, '', '/chat?id=41');
    renderChat(api);
    await screen.findByText('На картинке схематичный пейзаж: солнце над горами.');
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Чаты' })).getByRole('button', { name: CHAT_TEXTS.newChat }));
    expect(window.location.search).toBe('');
    expect(input()).toHaveFocus();
    expect(screen.getByRole('heading', { name: 'С чем помочь?' })).toBeInTheDocument();
    await userEvent.type(input(), 'Новая тема{Enter}');
    expect(stream.last().request.body).not.toHaveProperty('chat_id');
  });

  it('leaving a chat while its answer is written closes the stream quietly (the server finishes the answer)', async () => {
    const { api, stream } = fakeApi();
    window.history.replaceState(null, '', '/chat?id=41');
    renderChat(api);
    await ready();
    await userEvent.type(input(), 'Расскажи историю{Enter}');
    await stream.emit(start(), delta('Жил-был'));
    await userEvent.click(screen.getByRole('button', { name: 'Письмо клиенту' }));
    expect(stream.last().signal?.aborted).toBe(true);
    expect(window.location.search).toBe('?id=40');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Отправить' })).toBeEnabled();
    expect(screen.queryByText('Жил-был')).not.toBeInTheDocument();
  });

  it('opening /chat?id=N opens that chat, highlighted in the list', async () => {
    const { api } = fakeApi();
    window.history.replaceState(null, '', '/chat?id=40');
    renderChat(api);
    await screen.findByText('На картинке схематичный пейзаж: солнце над горами.');
    expect(api.messages).toHaveBeenCalledWith({ params: { id: 40 }, query: {} });
    expect(await screen.findByRole('button', { name: 'Письмо клиенту' })).toHaveAttribute('aria-current', 'page');
  });

  it('an answer still being written in the history is read again until it is done', async () => {
    // A clock the test moves: once the answer is done, however much time passes, nothing is read again.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let reads = 0;
    const finished: ChatMessage[] = GENERATING.map((m) => (m.role === 'assistant' ? { ...m, text: 'Весна пришла, звенят ручьи, и солнце греет всё теплей.', status: 'done', words: 12 } : m));
    const { api } = fakeApi({ messages: () => (++reads < 3 ? GENERATING : finished) });
    window.history.replaceState(null, '', '/chat?id=39');
    renderChat(api, { pollMs: 10 });
    expect(await screen.findByText('Пишет ответ…')).toBeInTheDocument();
    expect(await screen.findByText('Списано 12 слов')).toBeInTheDocument();
    expect(screen.queryByText('Пишет ответ…')).not.toBeInTheDocument();
    // Its words were settled on the server: the balance is read again.
    await waitFor(() => expect(api.user).toHaveBeenCalledTimes(2));
    const calls = api.messages.mock.calls.length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    expect(api.messages.mock.calls.length).toBe(calls);
  });
});
