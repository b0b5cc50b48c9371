import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CHAT_TEXTS, type ChatMessage } from '@app/contracts/browser';
import { ApiError } from '@app/kit';
import { PLANS, PACKAGES, NO_PLAN_CHECK, CANCELLED_CHECK, fakeApi, renderChat, input, png, attach, ready, start, delta, resetBetweenTests } from './chat-test-kit.tsx';

resetBetweenTests();

describe('Chat: failures (seed §8)', () => {
  it('402 with a current plan: the too-few-words panel leads to the packages (and to another plan); the message comes back to the composer', async () => {
    const { api, stream } = fakeApi();
    renderChat(api);
    await ready();
    expect(api.check).not.toHaveBeenCalled();
    await userEvent.type(input(), 'Напиши роман{Enter}');
    await stream.fail(new ApiError(402, 'INSUFFICIENT_TOKENS', 'Недостаточно токенов'));
    const panel = await screen.findByRole('alert', { name: 'Недостаточно слов' });
    // The heading says it once: the text does not repeat the server's «Недостаточно токенов».
    // Sent before any estimate was read (a new chat has none until something is typed): the figure is
    // the price of the model's answer, as under the composer (with an estimate, its most: Chat.summary.test.tsx).
    expect(within(panel).getByText(/^Ответ этой модели может стоить/)).toHaveTextContent('Ответ этой модели может стоить до 3 000 слов, на балансе 48 250 слов. Купите пакет слов — они придут на баланс сразу и не сгорают.');
    expect(panel).not.toHaveTextContent('Недостаточно токенов');
    expect(await within(panel).findByRole('link', { name: 'Купить пакет слов' })).toHaveAttribute('href', PACKAGES);
    expect(within(panel).getByRole('link', { name: 'Сменить тариф' })).toHaveAttribute('href', PLANS);
    expect(api.check).toHaveBeenCalledTimes(1);
    expect(input()).toHaveValue('Напиши роман');
    expect(screen.queryByRole('article', { name: 'Вы' })).not.toBeInTheDocument();
  });

  it.each([
    ['no plan', NO_PLAN_CHECK, 'Подключите тариф: слова и медиа токены начисляются каждый месяц и не сгорают. Пакеты докупаются к действующей подписке.'],
    ['a cancelled plan', CANCELLED_CHECK, 'Подписка отменена, поэтому пакеты к ней купить нельзя. Подключите тариф снова, чтобы пополнить баланс.'],
  ])('402 with %s: the panel leads to the plans only, never to packages that could not be bought', async (_, check, advice) => {
    const { api, stream } = fakeApi({ check });
    renderChat(api);
    await ready();
    await userEvent.type(input(), 'Напиши роман{Enter}');
    await stream.fail(new ApiError(402, 'INSUFFICIENT_TOKENS', 'Недостаточно токенов'));
    const panel = await screen.findByRole('alert', { name: 'Недостаточно слов' });
    await waitFor(() => expect(panel).toHaveTextContent(advice));
    expect(panel).not.toHaveTextContent('Недостаточно токенов');
    expect(within(panel).getByRole('link', { name: 'Выбрать тариф' })).toHaveAttribute('href', PLANS);
    expect(within(panel).getAllByRole('link')).toHaveLength(1);
  });

  it('a failed reply without a message of its own shows «Ошибка при выполнении запроса»', async () => {
    const { api, stream } = fakeApi();
    renderChat(api);
    await ready();
    await userEvent.type(input(), 'Привет{Enter}');
    await stream.fail(new ApiError(500, 'INTERNAL', 'Произошла ошибка'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Ошибка при выполнении запроса');
  });

  it('an error event after the start shows the server’s message and marks the answer failed', async () => {
    const failed: ChatMessage[] = [
      { id: 901, role: 'user', text: 'Переведи', model: null, status: 'done', words: 0, images: [], created_at: '2025-05-20T12:00:00Z' },
      { id: 902, role: 'assistant', text: 'Trans', model: 'GPT-4o mini', status: 'failed', words: 0, images: [], created_at: '2025-05-20T12:00:00Z' },
    ];
    const { api, stream } = fakeApi({ messages: () => failed });
    renderChat(api);
    await ready();
    await userEvent.type(input(), 'Переведи{Enter}');
    await stream.emit(start({ chat_id: 78 }), delta('Trans'));
    await stream.fail(new ApiError(500, 'SERVICE_UNAVAILABLE', 'Провайдер не ответил'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Провайдер не ответил');
    expect(screen.getByText(CHAT_TEXTS.requestFailed)).toBeInTheDocument();
  });

  it('a call that throws (no network) shows «Ошибка при отправке»', async () => {
    const { api, stream } = fakeApi();
    renderChat(api);
    await ready();
    await userEvent.type(input(), 'Привет{Enter}');
    await stream.fail(new ApiError(0, 'NETWORK', 'Нет соединения с сервером. Проверьте интернет и попробуйте снова'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Ошибка при отправке');
    await userEvent.clear(input());
    await userEvent.type(input(), 'Ещё раз{Enter}');
    await stream.fail(new TypeError('boom'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Ошибка при отправке');
  });

  it('a connection lost while the answer is written: «Ошибка при отправке», and the answer, which the server finishes, is read from the history', async () => {
    let reads = 0;
    const writing: ChatMessage[] = [
      { id: 901, role: 'user', text: 'Привет', model: null, status: 'done', words: 0, images: [], created_at: '2025-05-20T12:00:00Z' },
      { id: 902, role: 'assistant', text: 'Здравствуйте', model: 'GPT-4o mini', status: 'generating', words: 0, images: [], created_at: '2025-05-20T12:00:00Z' },
    ];
    const finished: ChatMessage[] = [writing[0] as ChatMessage, { ...(writing[1] as ChatMessage), text: 'Здравствуйте! Чем помочь?', status: 'done', words: 5 }];
    const { api, stream } = fakeApi({ messages: () => (++reads < 2 ? writing : finished) });
    renderChat(api, { pollMs: 10 });
    await ready();
    await userEvent.type(input(), 'Привет{Enter}');
    await stream.emit(start({ chat_id: 79 }), delta('Здравствуйте'));
    await stream.fail(new ApiError(0, 'NETWORK', 'Соединение прервалось. Проверьте интернет и попробуйте снова'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Ошибка при отправке');
    expect(screen.queryByText(CHAT_TEXTS.requestFailed)).not.toBeInTheDocument();
    expect(await screen.findByText('Списано 5 слов')).toBeInTheDocument();
    expect(screen.getByText('Здравствуйте! Чем помочь?')).toBeInTheDocument();
  });

  it('per-field messages of the server show next to the composer', async () => {
    const { api, stream } = fakeApi();
    renderChat(api);
    await ready();
    await attach(png('скан.png'));
    await userEvent.type(input(), 'Что здесь?{Enter}');
    await stream.fail(new ApiError(415, 'FILE_TYPE_NOT_ALLOWED', { image_example: ['Файл «скан.png» должен быть в формате PNG или JPEG'] }));
    expect(await screen.findByText('Файл «скан.png» должен быть в формате PNG или JPEG')).toBeInTheDocument();
    // Nothing was taken: the text and the image are back in the composer.
    expect(input()).toHaveValue('Что здесь?');
    expect(screen.getByRole('button', { name: 'Убрать изображение «скан.png»' })).toBeInTheDocument();
  });
});
