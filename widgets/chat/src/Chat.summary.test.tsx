import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@app/kit';
import type { ChatEstimate, ChatMessage } from '@app/contracts/browser';
import { HISTORY, USER } from './fixtures.ts';
import { fakeApi, priceText, ready, renderChat, resetBetweenTests } from './chat-test-kit.tsx';

resetBetweenTests();

const openChat = (id: number) => window.history.replaceState(null, '', `/chat?id=${String(id)}`);
/** A history that costs more with each message than the longest answer. */
const EXPENSIVE: ChatEstimate = { min_words: 1_400, max_words: 4_400, history_words: 3_200, history_messages: 20, answer_words: 3_000, history_limit: null, summary_words: 3_900 };
const SUMMARY: ChatMessage = {
  id: 990,
  role: 'assistant',
  text: '**Краткое содержание предыдущего чата «План статьи»**\n\n- План из пяти разделов.',
  model: 'GPT-4o mini',
  status: 'done',
  words: 120,
  images: [],
  created_at: '2025-05-20T12:10:00Z',
};
const offer = () => screen.findByRole('region', { name: 'Дорогая история чата' });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('a new chat with a short summary when the history grows expensive', () => {
  it('is offered beside the price once the history costs as much as an answer; one click opens the new chat that starts with the summary', async () => {
    openChat(41);
    const { api } = fakeApi({ messages: (id) => (id === 77 ? [SUMMARY] : HISTORY), estimate: EXPENSIVE });
    api.summary.mockResolvedValueOnce({ chat_id: 77, title: 'Продолжение: План статьи', message_id: 990, status: 'done', words: 120, balances: { words: 48_130, media: 12.5 } });
    renderChat(api);
    await ready();
    const region = await offer();
    expect(region).toHaveTextContent('История чата уже дороже самого ответа: до 3 200 слов с каждым сообщением.');
    expect(region).toHaveTextContent('Модель перескажет этот чат (до 3 900 слов, спишется как ответ), и новый чат начнётся с этого пересказа');
    await userEvent.click(within(region).getByRole('button', { name: 'Новый чат с кратким содержанием' }));
    await waitFor(() => expect(window.location.search).toBe('?id=77'));
    expect(api.summary).toHaveBeenCalledWith({ params: { id: 41 }, body: { request_id: expect.stringMatching(UUID) as string, ai_models_id: 11, param: 'balanced' } });
    expect(await screen.findByText('Краткое содержание предыдущего чата «План статьи»')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Продолжение: План статьи');
    // The summary answers no question of the user's: it is not asked again.
    expect(screen.getByRole('button', { name: 'Копировать ответ' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ответить заново' })).toBeNull();
    // The summary's words come off the balance the page shows.
    expect(await screen.findByText('48 130')).toBeInTheDocument();
  });

  it('is not offered while the history is cheaper than an answer, nor in a new chat', async () => {
    openChat(41);
    const { api } = fakeApi({ messages: () => HISTORY, estimate: { ...EXPENSIVE, history_words: 400 } });
    renderChat(api);
    await ready();
    await waitFor(() => expect(priceText()).toContain('из них история чата — до 400'));
    expect(screen.queryByRole('region', { name: 'Дорогая история чата' })).toBeNull();
  });

  it('a failed click keeps its request id, so trying again never pays twice; too few words says what the summary costs', async () => {
    openChat(41);
    const { api } = fakeApi({ messages: () => HISTORY, estimate: EXPENSIVE });
    api.summary.mockRejectedValueOnce(new ApiError(0, 'NETWORK', 'Нет соединения')).mockRejectedValueOnce(new ApiError(402, 'INSUFFICIENT_TOKENS', 'Недостаточно токенов'));
    renderChat(api);
    await ready();
    const region = await offer();
    const button = within(region).getByRole('button', { name: 'Новый чат с кратким содержанием' });
    await userEvent.click(button);
    expect(await within(region).findByRole('alert')).toHaveTextContent('Ошибка при отправке');
    await userEvent.click(button);
    expect(await within(region).findByRole('alert')).toHaveTextContent('Не хватает слов на краткое содержание: оно может стоить до 3 900 слов.');
    const ids = api.summary.mock.calls.map((c) => (c[0]?.body instanceof FormData ? '' : c[0]?.body.request_id));
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(ids[0]);
    expect(window.location.search).toBe('?id=41');
    expect(screen.getByText('48 250')).toBeInTheDocument();
  });

  it('too few words for a send: the panel names the same figure as the price, the history counted, and the summary is offered beside it', async () => {
    openChat(41);
    const { api, stream } = fakeApi({ messages: () => HISTORY, estimate: EXPENSIVE });
    renderChat(api);
    await ready();
    await offer();
    await userEvent.type(screen.getByRole('textbox', { name: 'Сообщение' }), 'Ещё{Enter}');
    // Words were spent elsewhere meanwhile: the refusal reads the balance again, and the panel names it.
    api.user.mockResolvedValue({ ...USER, balances: { words: 100, media: 12.5 } });
    await stream.fail(new ApiError(402, 'INSUFFICIENT_TOKENS', 'Недостаточно токенов'));
    const panel = await screen.findByRole('alert', { name: 'Недостаточно слов' });
    await waitFor(() =>
      expect(within(panel).getByText(/^Отправка может стоить/)).toHaveTextContent('Отправка может стоить до 4 400 слов, из них история чата — до 3 200 слов, на балансе 100 слов. Купите пакет слов — они придут на баланс сразу и не сгорают.'),
    );
    expect(priceText()).toContain('Отправка: 1 400–4 400 слов, из них история чата — до 3 200');
    expect(within(await offer()).getByRole('button', { name: 'Новый чат с кратким содержанием' })).toBeEnabled();
  });

  it('the price says how many latest messages the model gets when staff capped its history', async () => {
    openChat(41);
    const { api } = fakeApi({ messages: () => HISTORY, estimate: { ...EXPENSIVE, history_words: 400, history_messages: 6, history_limit: 6 } });
    renderChat(api);
    await ready();
    await waitFor(() => expect(priceText()).toContain('из них история чата — до 400 (последние 6 сообщений)'));
  });
});
