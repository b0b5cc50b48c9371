import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { focusManager } from '@tanstack/react-query';
import { pageQueryClient } from '@app/kit';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ChatSearchHit } from '@app/contracts/browser';
import { CHATS, HISTORY, REGENERATED, REGENERATED_FIRST, USER, doneResult } from './fixtures.ts';
import { delta, fakeApi, priceText, ready, renderChat, resetBetweenTests, start } from './chat-test-kit.tsx';

/* Answering again, editing the last message, variants, copying an answer, the search, the export, the estimate and the balance on focus. */

resetBetweenTests();

const openChat = (id: number) => window.history.replaceState(null, '', `/chat?id=${String(id)}`);
const answers = () => screen.getAllByRole('article', { name: /GPT|ИИ/ });

describe('answering again and variants', () => {
  it('«Ответить заново» streams a new answer to the last question with the chosen model; the old one goes until the history has both', async () => {
    openChat(41);
    const { api, stream } = fakeApi({ messages: () => REGENERATED_FIRST.map((m) => ({ ...m, variants: undefined })) });
    renderChat(api);
    await ready();
    await userEvent.click(await screen.findByRole('button', { name: 'Ответить заново' }));
    expect(api.regenerate).toHaveBeenCalledTimes(1);
    expect(stream.last().request).toEqual({ params: { id: 41 }, body: { ai_models_id: 11, param: 'balanced' } });
    await stream.emit(start({ chat_id: 41, user_message_id: 51, message_id: 53 }), delta('«Бриз'));
    expect(screen.queryByText('«Морская чашка».')).not.toBeInTheDocument();
    expect(screen.getAllByText('Придумай название для кофейни у моря')).toHaveLength(1);
    await stream.emit({ event: 'done', data: doneResult({ chat_id: 41, message_id: 53, message: '«Бриз и зерно»', words: 180 }) });
    expect(await screen.findByText(/Бриз и зерно/)).toBeInTheDocument();
  });

  it('«Вариант 2 из 2»: the arrows show the other variant (the server answers the chat as it shows then)', async () => {
    openChat(41);
    const { api } = fakeApi({ messages: () => REGENERATED, variant: () => REGENERATED_FIRST });
    renderChat(api);
    expect(await screen.findByRole('group', { name: 'Вариант 2 из 2' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Следующий вариант' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Предыдущий вариант' }));
    expect(api.variant).toHaveBeenCalledWith({ params: { id: 41 }, body: { message_id: 52 } });
    expect(await screen.findByText('«Морская чашка».')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Вариант 1 из 2' })).toBeInTheDocument();
  });

  it('«Изменить» on the last message of the user sends it again as edited, replacing what followed', async () => {
    openChat(41);
    const { api, stream } = fakeApi({ messages: () => HISTORY });
    renderChat(api);
    await ready();
    // Only the last message of the user can be edited.
    const edits = await screen.findAllByRole('button', { name: 'Изменить' });
    expect(edits).toHaveLength(1);
    await userEvent.click(edits[0] as HTMLElement);
    const field = screen.getByRole('textbox', { name: 'Изменённое сообщение' });
    await userEvent.clear(field);
    await userEvent.type(field, 'А что на этом фото?');
    await userEvent.click(within(field.closest('form') as HTMLElement).getByRole('button', { name: 'Отправить' }));
    expect(api.edit).toHaveBeenCalledTimes(1);
    expect(stream.last().request).toEqual({ params: { id: 41 }, body: { ai_models_id: 11, param: 'balanced', message_id: 3, message: 'А что на этом фото?' } });
    // The edited message and its answer give way at once.
    expect(screen.queryByText('Что на этой картинке?')).not.toBeInTheDocument();
    expect(screen.queryByText('На картинке схематичный пейзаж: солнце над горами.')).not.toBeInTheDocument();
    expect(screen.getByText('А что на этом фото?')).toBeInTheDocument();
  });

  it('«Копировать ответ» copies the whole answer, Markdown and all', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    openChat(41);
    const { api } = fakeApi({ messages: () => HISTORY });
    renderChat(api);
    const buttons = await screen.findAllByRole('button', { name: 'Копировать ответ' });
    expect(buttons).toHaveLength(2);
    await userEvent.click(buttons[1] as HTMLElement);
    expect(writeText).toHaveBeenCalledWith('На картинке схематичный пейзаж: солнце над горами.');
    expect(await screen.findByRole('button', { name: 'Скопировано' })).toBeInTheDocument();
  });

  it('an answer being written shows no raw Markdown marks', async () => {
    const { api, stream } = fakeApi();
    renderChat(api);
    await ready();
    await userEvent.type(screen.getByRole('textbox', { name: 'Сообщение' }), 'Привет{Enter}');
    await stream.emit(start(), delta('Готово.\n\n_Это ответ демо'));
    const em = await screen.findByText('Это ответ демо');
    expect(em.tagName).toBe('EM');
    expect(answers().at(-1)?.textContent).not.toContain('_');
  });
});

describe('search, export, estimate, balance', () => {
  const HIT: ChatSearchHit = {
    chat_id: 38,
    title: [{ text: 'SQL: отчёт по продажам', mark: false }],
    message_id: 4,
    role: 'assistant',
    snippet: [
      { text: 'На ', mark: false },
      { text: 'картинке', mark: true },
      { text: ' схематичный пейзаж', mark: false },
    ],
    created_at: '2025-05-20T12:00:00Z',
  };

  it('finds in the chats with the words marked; a result opens its chat at the message', async () => {
    const { api } = fakeApi({ search: () => ({ hits: [HIT], more: false }), messages: () => HISTORY });
    renderChat(api);
    await userEvent.type(await screen.findByRole('searchbox', { name: 'Поиск по чатам' }), 'картинка');
    const found = await screen.findByRole('list', { name: 'Найдено' });
    expect(within(found).getByText('картинке').tagName).toBe('MARK');
    expect(api.search).toHaveBeenLastCalledWith({ query: { q: 'картинка' } });
    await userEvent.click(within(found).getByRole('button'));
    expect(window.location.search).toBe('?id=38');
    await waitFor(() => expect(document.getElementById('chat-msg-4')).toHaveClass('chat-msg--found'));
  });

  it('says when nothing is found, and searches nothing for one letter', async () => {
    const { api } = fakeApi();
    renderChat(api);
    const box = await screen.findByRole('searchbox', { name: 'Поиск по чатам' });
    await userEvent.type(box, 'ж');
    expect(screen.getByRole('button', { name: /Переименовать чат «План статьи/ })).toBeInTheDocument();
    await userEvent.type(box, 'ираф');
    expect(await screen.findByText('Ничего не нашлось')).toBeInTheDocument();
    expect(api.search).not.toHaveBeenCalledWith({ query: { q: 'ж' } });
  });

  it('the open chat can be downloaded as Markdown', async () => {
    openChat(41);
    renderChat(fakeApi({ messages: () => HISTORY }).api);
    const link = await screen.findByRole('link', { name: 'Скачать .md' });
    expect(link).toHaveAttribute('href', '/api/new/chat/41/export');
    expect(link).toHaveAttribute('download');
  });

  it('the price counts the chat’s history and says so, with what a «слово» is', async () => {
    openChat(41);
    const { api } = fakeApi({ messages: () => HISTORY, estimate: { min_words: 420, max_words: 3_400, history_words: 400, history_messages: 4, answer_words: 3_000, history_limit: null, summary_words: 0 } });
    renderChat(api);
    await ready();
    await waitFor(() => expect(priceText()).toContain('Отправка: 420–3 400 слов, из них история чата — до 400'));
    expect(screen.getByTitle(/^Слово — единица оплаты/).getAttribute('title')).toContain('историю чата');
    await userEvent.type(screen.getByRole('textbox', { name: 'Сообщение' }), 'Ещё');
    await waitFor(() => expect(api.estimate).toHaveBeenLastCalledWith({ body: { ai_models_id: 11, param: 'balanced', chat_id: 41, message: 'Ещё', images: 0 } }));
  });

  it('the balance is read again when the page gets the focus back (staff may have credited words)', async () => {
    // The page's client listens to focus as the page's provider makes it.
    pageQueryClient.mount();
    const { api } = fakeApi();
    renderChat(api);
    await ready();
    expect(await screen.findByText('48 250')).toBeInTheDocument();
    api.user.mockResolvedValue({ ...USER, balances: { words: 98_250, media: 12.5 } });
    // Within the queries' 30 seconds of freshness: only a read on focus whatever its age shows it.
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    expect(await screen.findByText('98 250')).toBeInTheDocument();
    pageQueryClient.unmount();
  });

  it('the delete dialog names the chat by its whole title', async () => {
    renderChat(fakeApi().api);
    await userEvent.click(await screen.findByRole('button', { name: `Удалить чат «${CHATS[3]?.text ?? ''}»` }));
    expect(await screen.findByText(`Чат «${CHATS[3]?.text ?? ''}» и все его сообщения будут удалены. Это действие нельзя отменить.`)).toBeInTheDocument();
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
  });
});
