import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHAT_TEXTS, accountEndpoints, billingEndpoints, chatEndpoints, type ChatListItem, type ChatMessage, type SubscribeCheck } from '@app/contracts/browser';
import { ApiError, routeCall } from '@app/kit';
import { fakeRoute } from '@app/kit/test';
import { Chat } from './Chat.tsx';
import type { ChatApi, ChatStreamEvent, ChatStreamFn, ChatStreamRequest } from './api.ts';
import { CHATS, GENERATING, HISTORY, MODELS, USER, doneResult } from './fixtures.ts';

const PLANS = '/dashboard/user/payment';
const PACKAGES = '/dashboard/user/payment#packages';

/** A streamed send the test drives: events are pushed, then the stream ends or fails. */
function fakeStream() {
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

type Overrides = Partial<{ list: (page: number) => { data: ChatListItem[]; last_page: number }; messages: (id: number) => ChatMessage[]; check: SubscribeCheck }>;

/** `GET /api/new/subscribe/check` of a user on a plan (packages can be bought), without one, and with a cancelled one. */
const PLAN_CHECK: SubscribeCheck = { subscriptions: 2, first: false, card: null, cancelled: false, active_until: '2025-06-15T12:00:00Z', trial: false, past_due: false, next_charge_at: '2025-06-15T12:00:00Z', next_charge_amount: 990 };
const NO_PLAN_CHECK: SubscribeCheck = { ...PLAN_CHECK, subscriptions: null, first: true, active_until: null, next_charge_at: null, next_charge_amount: null };
const CANCELLED_CHECK: SubscribeCheck = { ...PLAN_CHECK, cancelled: true, next_charge_at: null, next_charge_amount: null };

function fakeApi(overrides: Overrides = {}) {
  const stream = fakeStream();
  const list = overrides.list ?? ((page: number) => ({ data: CHATS[page - 1] ? [CHATS[page - 1] as ChatListItem] : [], last_page: CHATS.length }));
  const api = {
    list: fakeRoute(chatEndpoints.list, (r) => list(Number(r.query.page))),
    messages: fakeRoute(chatEndpoints.messages, (r) => (overrides.messages ? overrides.messages(Number(r.params.id)) : HISTORY)),
    models: fakeRoute(chatEndpoints.models, MODELS),
    stop: fakeRoute(chatEndpoints.stop, { stopped: true }),
    rename: fakeRoute(chatEndpoints.rename, (r) => ({ id: Number(r.params.id), text: (r.body instanceof FormData ? '' : r.body.title).trim(), updated_at: '2025-05-20T12:00:00Z' })),
    remove: fakeRoute(chatEndpoints.remove, { deleted: true as const }),
    user: fakeRoute(accountEndpoints.user, USER),
    check: fakeRoute(billingEndpoints.subscribeCheck, overrides.check ?? PLAN_CHECK),
    send: stream.fn,
  } satisfies ChatApi;
  return { api, stream };
}

function renderChat(api: ChatApi, extra: { pollMs?: number } = {}) {
  return render(<Chat plansUrl={PLANS} packagesUrl={PACKAGES} api={api} pollMs={extra.pollMs ?? 20} flushMs={1} />);
}

const input = () => screen.getByRole('textbox', { name: 'Сообщение' });
const sendButton = () => screen.getByRole('button', { name: 'Отправить' });
const png = (name = 'кот.png', size = 64) => {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new File([bytes], name, { type: 'image/png' });
};
const jpeg = (name = 'фото.jpg') => new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0])], name, { type: 'image/jpeg' });
const attach = async (...files: File[]) => {
  await userEvent.upload(screen.getByTestId('chat-file-input'), files);
};

/** The model choices are loaded (the composer can send). */
const ready = async () => {
  await screen.findByRole('combobox', { name: 'Модель' });
};

const start = (over: Partial<Extract<ChatStreamEvent, { event: 'start' }>['data']> = {}): ChatStreamEvent => ({ event: 'start', data: { chat_id: 41, message_id: 902, model: 'GPT-4o mini', user_message_id: 901, ...over } });
const delta = (text: string): ChatStreamEvent => ({ event: 'delta', data: { text } });

beforeEach(() => {
  window.history.replaceState(null, '', '/chat');
  window.localStorage.clear();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Chat: the composer', () => {
  it('Enter sends, Shift+Enter makes a new line, Enter that ends an IME composition does not send', async () => {
    const { api, stream } = fakeApi();
    renderChat(api);
    await ready();
    await userEvent.type(input(), 'Первая строка{Shift>}{Enter}{/Shift}вторая');
    expect(input()).toHaveValue('Первая строка\nвторая');
    fireEvent.keyDown(input(), { key: 'Enter', isComposing: true });
    fireEvent.keyDown(input(), { key: 'Enter', keyCode: 229 });
    expect(stream.fn).not.toHaveBeenCalled();
    await userEvent.keyboard('{Enter}');
    expect(stream.fn).toHaveBeenCalledTimes(1);
    expect(stream.last().request.body).toEqual({ ai_models_id: 11, param: 'balanced', message: 'Первая строка\nвторая' });
    expect(input()).toHaveValue('');
  });

  it('the model select remembers the choice for the next visit and is locked while an answer is written', async () => {
    const first = fakeApi();
    const { unmount } = renderChat(first.api);
    await ready();
    const select = screen.getByRole('combobox', { name: 'Модель' });
    expect(select).toHaveValue('11:balanced');
    expect(screen.getByText('до 3 000 слов за ответ')).toBeInTheDocument();
    await userEvent.selectOptions(select, 'Демо');
    expect(screen.getByText('до 500 слов за ответ · демо')).toBeInTheDocument();
    await userEvent.selectOptions(select, 'GPT-4o · Точно');
    // «до» takes the genitive: «до 12 000 слов», never «до … слова».
    expect(screen.getByText('до 12 000 слов за ответ')).toBeInTheDocument();
    await userEvent.selectOptions(select, 'Демо');
    await userEvent.type(input(), 'Привет{Enter}');
    expect(select).toBeDisabled();
    expect(first.stream.last().request.body).toEqual({ ai_models_id: 13, message: 'Привет' });
    unmount();
    renderChat(fakeApi().api);
    await ready();
    expect(screen.getByRole('combobox', { name: 'Модель' })).toHaveValue('13:');
  });

  it('an empty message is not sent: the schema’s message shows next to the composer', async () => {
    const { api, stream } = fakeApi();
    renderChat(api);
    await ready();
    await userEvent.type(input(), '   ');
    await userEvent.click(sendButton());
    expect(await screen.findByText('Введите сообщение')).toBeInTheDocument();
    expect(input()).toHaveAttribute('aria-invalid', 'true');
    expect(stream.fn).not.toHaveBeenCalled();
  });

  it('sends the chosen model and parameter with up to two images as image_example and image_example_2', async () => {
    const { api, stream } = fakeApi();
    renderChat(api);
    await ready();
    const select = screen.getByRole('combobox', { name: 'Модель' });
    // A native select: each model with parameters is a group of them.
    expect(within(select).getByRole('group', { name: 'GPT-4o' })).toContainElement(within(select).getByRole('option', { name: 'GPT-4o · Точно' }));
    expect(within(select).getByRole('option', { name: 'Демо' })).toBeInTheDocument();
    await userEvent.selectOptions(select, 'GPT-4o · Точно');
    expect(select).toHaveValue('12:precise');
    expect(screen.getByText('до 12 000 слов за ответ')).toBeInTheDocument();
    const first = png('первый.png');
    const second = jpeg('второй.jpg');
    await attach(first, second);
    expect(await screen.findByRole('button', { name: 'Убрать изображение «первый.png»' })).toBeInTheDocument();
    await userEvent.type(input(), 'Сравни{Enter}');
    expect(stream.last().request.body).toEqual({ ai_models_id: 12, param: 'precise', message: 'Сравни' });
    expect(stream.last().request.files).toEqual({ image_example: first, image_example_2: second });
    // The sent message shows at once with its images; the composer is empty again.
    const mine = screen.getAllByRole('article', { name: 'Вы' }).at(-1) as HTMLElement;
    expect(within(mine).getByText('Сравни')).toBeInTheDocument();
    expect(within(mine).getAllByRole('img').map((img) => img.getAttribute('alt'))).toEqual(['первый.png', 'второй.jpg']);
    expect(screen.queryByRole('button', { name: /Убрать изображение/ })).not.toBeInTheDocument();
  });
});

describe('Chat: images are checked before anything is sent', () => {
  it('refuses a third image with «Не больше 2 изображений»', async () => {
    const { api } = fakeApi();
    renderChat(api);
    await ready();
    await attach(png('1.png'), png('2.png'));
    await screen.findByRole('button', { name: 'Убрать изображение «2.png»' });
    await attach(png('3.png'));
    expect(await screen.findByText('Не больше 2 изображений')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /Убрать изображение/ })).toHaveLength(2);
    // Removing one makes room again.
    await userEvent.click(screen.getByRole('button', { name: 'Убрать изображение «1.png»' }));
    await attach(png('3.png'));
    expect(await screen.findByRole('button', { name: 'Убрать изображение «3.png»' })).toBeInTheDocument();
    expect(screen.queryByText('Не больше 2 изображений')).not.toBeInTheDocument();
  });

  it('refuses a type other than PNG or JPEG, by the declared type and by the first bytes', async () => {
    const { api } = fakeApi();
    renderChat(api);
    await ready();
    fireEvent.change(screen.getByTestId('chat-file-input'), { target: { files: [new File(['GIF89a'], 'анимация.gif', { type: 'image/gif' })] } });
    expect(await screen.findByText(/Файл «анимация\.gif» — не PNG и не JPEG/)).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('chat-file-input'), { target: { files: [new File(['%PDF-1.7 ...'], 'скан.png', { type: 'image/png' })] } });
    expect(await screen.findByText(/Файл «скан\.png» — не PNG и не JPEG/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Убрать изображение/ })).not.toBeInTheDocument();
  });

  it('refuses an image over the size limit', async () => {
    const { api } = fakeApi();
    renderChat(api);
    await ready();
    const big = png('огромный.png');
    Object.defineProperty(big, 'size', { value: 10 * 1024 * 1024 + 1 });
    await attach(big);
    expect(await screen.findByText('Файл «огромный.png» больше 10 МБ')).toBeInTheDocument();
  });

  it('takes images dropped on the composer', async () => {
    const { api } = fakeApi();
    renderChat(api);
    await ready();
    const form = input().closest('form') as HTMLFormElement;
    fireEvent.dragOver(form, { dataTransfer: { types: ['Files'], files: [] } });
    expect(screen.getByText('Отпустите, чтобы прикрепить изображение')).toBeInTheDocument();
    fireEvent.drop(form, { dataTransfer: { types: ['Files'], files: [jpeg('перетащил.jpg')] } });
    expect(await screen.findByRole('button', { name: 'Убрать изображение «перетащил.jpg»' })).toBeInTheDocument();
    expect(screen.queryByText('Отпустите, чтобы прикрепить изображение')).not.toBeInTheDocument();
  });

  it('takes images pasted into the message', async () => {
    const { api } = fakeApi();
    renderChat(api);
    await ready();
    fireEvent.paste(input(), { clipboardData: { files: [png('вставка.png')], types: ['Files'] } });
    expect(await screen.findByRole('button', { name: 'Убрать изображение «вставка.png»' })).toBeInTheDocument();
  });
});

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
    const { api, stream } = fakeApi({ list: (page) => ({ data: order[page - 1] ? [order[page - 1] as ChatListItem] : [], last_page: order.length }) });
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
    expect(api.messages).toHaveBeenCalledWith({ params: { id: 40 } });
    expect(await screen.findByRole('button', { name: 'Письмо клиенту' })).toHaveAttribute('aria-current', 'page');
  });

  it('an answer still being written in the history is read again until it is done', async () => {
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
    await new Promise((r) => setTimeout(r, 60));
    expect(api.messages.mock.calls.length).toBe(calls);
  });
});

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
    expect(within(panel).getByText(/^Ответ этой модели/)).toHaveTextContent('Ответ этой модели может стоить до 3 000 слов, на балансе 48 250 слов. Купите пакет слов — они придут на баланс сразу и не сгорают.');
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

describe('Chat: the list of chats', () => {
  it('cuts titles at 20 characters plus «…» and keeps the whole title as a tooltip', async () => {
    const { api } = fakeApi();
    renderChat(api);
    const item = await screen.findByRole('button', { name: 'План статьи о здоров…' });
    expect(item).toHaveAttribute('title', 'План статьи о здоровом сне для блога клиники');
    expect(screen.getByRole('button', { name: 'Письмо клиенту' })).toBeInTheDocument();
  });

  it('reads one chat a page in chunks of ten pages; «Показать ещё» reads the next ten', async () => {
    const all = Array.from({ length: 25 }, (_, i): ChatListItem => ({ id: 100 - i, text: `Чат ${String(i + 1)}`, updated_at: '2025-05-20T12:00:00Z' }));
    const { api } = fakeApi({ list: (page) => ({ data: all[page - 1] ? [all[page - 1] as ChatListItem] : [], last_page: all.length }) });
    renderChat(api);
    await screen.findByRole('button', { name: 'Чат 10' });
    expect(api.list.mock.calls.map((c) => c[0]?.query.page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(screen.queryByRole('button', { name: 'Чат 11' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Показать ещё' }));
    await screen.findByRole('button', { name: 'Чат 20' });
    expect(api.list).toHaveBeenCalledTimes(20);
    await userEvent.click(screen.getByRole('button', { name: 'Показать ещё' }));
    await screen.findByRole('button', { name: 'Чат 25' });
    expect(screen.queryByRole('button', { name: 'Показать ещё' })).not.toBeInTheDocument();
  });

  it('opening the chat loads only its first ten pages; the next ten come when the list is scrolled to its end', async () => {
    const all = Array.from({ length: 12 }, (_, i): ChatListItem => ({ id: 100 - i, text: `Чат ${String(i + 1)}`, updated_at: '2025-05-20T12:00:00Z' }));
    const observers: { callback: IntersectionObserverCallback; root: Element | null; target: Element | null }[] = [];
    class FakeObserver {
      readonly entry: (typeof observers)[number];
      constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
        this.entry = { callback, root: (options?.root as Element | null | undefined) ?? null, target: null };
        observers.push(this.entry);
      }
      observe(target: Element) {
        this.entry.target = target;
      }
      disconnect() {
        observers.splice(observers.indexOf(this.entry), 1);
      }
    }
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    try {
      const { api } = fakeApi({ list: (page) => ({ data: all[page - 1] ? [all[page - 1] as ChatListItem] : [], last_page: all.length }) });
      renderChat(api);
      await screen.findByRole('button', { name: 'Чат 10' });
      await waitFor(() => expect(observers).toHaveLength(1));
      const [observer] = observers;
      const { root, target, callback } = observer ?? {};
      if (!root || !target || !callback) throw new Error('the «Показать ещё» button is not observed within the list');
      const seen = () =>
        act(async () => {
          callback([{ isIntersecting: true, target } as unknown as IntersectionObserverEntry], {} as IntersectionObserver);
          await Promise.resolve();
        });
      // The first ten do not fill the list: the button is in view unscrolled, and nothing more is read.
      await seen();
      expect(api.list.mock.calls.map((c) => c[0]?.query.page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(screen.queryByRole('button', { name: 'Чат 11' })).not.toBeInTheDocument();
      // Scrolled to its end: the next pages are read.
      root.scrollTop = 120;
      await seen();
      await screen.findByRole('button', { name: 'Чат 12' });
      expect(api.list.mock.calls.map((c) => c[0]?.query.page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      expect(screen.queryByRole('button', { name: 'Показать ещё' })).not.toBeInTheDocument();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('each chat’s rename and delete buttons are named by its whole title; chats of the same title are numbered', async () => {
    const chats: ChatListItem[] = [
      { id: 3, text: 'Объясни простыми словами, как работает нейросеть', updated_at: '2025-05-20T12:00:00Z' },
      { id: 2, text: 'Объясни простыми словами, что такое блокчейн', updated_at: '2025-05-20T11:00:00Z' },
      { id: 1, text: 'Привет', updated_at: '2025-05-20T10:00:00Z' },
      { id: 0, text: 'Привет', updated_at: '2025-05-20T09:00:00Z' },
    ];
    const { api } = fakeApi({ list: (page) => ({ data: chats[page - 1] ? [chats[page - 1] as ChatListItem] : [], last_page: chats.length }) });
    renderChat(api);
    await screen.findByRole('button', { name: 'Удалить чат «Привет» (2)' });
    const names = (prefix: string) => screen.getAllByRole('button', { name: new RegExp(`^${prefix} `) }).map((b) => b.getAttribute('aria-label'));
    expect(names('Удалить чат')).toEqual([
      'Удалить чат «Объясни простыми словами, как работает нейросеть»',
      'Удалить чат «Объясни простыми словами, что такое блокчейн»',
      'Удалить чат «Привет» (1)',
      'Удалить чат «Привет» (2)',
    ]);
    expect(new Set(names('Переименовать чат')).size).toBe(4);
    // The rows themselves show the titles cut once, at 20 characters.
    expect(screen.getAllByRole('button', { name: 'Объясни простыми сло…' })).toHaveLength(2);
  });

  it('a chat opened by its address that is not among the chats read yet is titled by its first message, not «Чат»', async () => {
    const { api } = fakeApi({ messages: () => HISTORY });
    window.history.replaceState(null, '', '/chat?id=7');
    renderChat(api);
    expect(await screen.findByRole('heading', { level: 1, name: 'Составь план статьи…' })).toHaveAttribute('title', 'Составь план статьи о здоровом сне и пример SQL-запроса для отчёта');
    expect(screen.queryByRole('heading', { level: 1, name: 'Чат' })).not.toBeInTheDocument();
  });

  it('renames a chat in a dialog checked by the contract’s schema', async () => {
    const { api } = fakeApi();
    renderChat(api);
    await userEvent.click(await screen.findByRole('button', { name: 'Переименовать чат «Письмо клиенту»' }));
    const dialog = await screen.findByRole('dialog', { name: 'Переименовать чат' });
    const field = within(dialog).getByLabelText('Название');
    await userEvent.clear(field);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    expect(await within(dialog).findByText('Введите название')).toBeInTheDocument();
    expect(api.rename).not.toHaveBeenCalled();
    await userEvent.type(field, 'Письмо партнёру о сроках поставки');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.rename).toHaveBeenCalledWith({ params: { id: 40 }, body: { title: 'Письмо партнёру о сроках поставки' } });
    expect(screen.getByRole('button', { name: 'Письмо партнёру о ср…' })).toBeInTheDocument();
  });

  it('a rename refused by the server shows its field message', async () => {
    const { api } = fakeApi();
    api.rename = fakeRoute(chatEndpoints.rename, () => {
      throw new ApiError(400, 'VALIDATION', { title: ['Не длиннее 100 символов'] });
    });
    renderChat(api);
    await userEvent.click(await screen.findByRole('button', { name: 'Переименовать чат «Письмо клиенту»' }));
    const dialog = await screen.findByRole('dialog', { name: 'Переименовать чат' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    expect(await within(dialog).findByText('Не длиннее 100 символов')).toBeInTheDocument();
  });

  it('deletes a chat after a confirmation; deleting the open chat starts a new one', async () => {
    let deleted = false;
    const { api } = fakeApi({ list: (page) => ({ data: (deleted ? CHATS.slice(1) : CHATS)[page - 1] ? [(deleted ? CHATS.slice(1) : CHATS)[page - 1] as ChatListItem] : [], last_page: deleted ? 4 : 5 }) });
    api.remove = fakeRoute(chatEndpoints.remove, () => {
      deleted = true;
      return { deleted: true as const };
    });
    window.history.replaceState(null, '', '/chat?id=41');
    renderChat(api);
    await userEvent.click(await screen.findByRole('button', { name: 'Удалить чат «План статьи о здоровом сне для блога клиники»' }));
    const dialog = await screen.findByRole('dialog', { name: 'Удалить чат?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Удалить' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.remove).toHaveBeenCalledWith({ params: { id: 41 } });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'План статьи о здоров…' })).not.toBeInTheDocument());
    expect(window.location.search).toBe('');
    expect(screen.getByRole('heading', { name: 'С чем помочь?' })).toBeInTheDocument();
  });

  it('after a chat is deleted with the keyboard, the focus goes to the message field, not to the page', async () => {
    let deleted = false;
    const { api } = fakeApi({ list: (page) => ({ data: (deleted ? CHATS.slice(1) : CHATS)[page - 1] ? [(deleted ? CHATS.slice(1) : CHATS)[page - 1] as ChatListItem] : [], last_page: deleted ? 4 : 5 }) });
    api.remove = fakeRoute(chatEndpoints.remove, () => {
      deleted = true;
      return { deleted: true as const };
    });
    renderChat(api);
    const remove = await screen.findByRole('button', { name: /^Удалить чат «План статьи о здоров/ });
    remove.focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Удалить чат?' });
    within(dialog).getByRole('button', { name: 'Удалить' }).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Сообщение' })).toHaveFocus());
  });

  it('a delete that fails keeps the dialog open with the message', async () => {
    const { api } = fakeApi();
    api.remove = fakeRoute(chatEndpoints.remove, () => {
      throw new ApiError(404, 'NOT_FOUND', 'Не найдено');
    });
    renderChat(api);
    await userEvent.click(await screen.findByRole('button', { name: 'Удалить чат «Письмо клиенту»' }));
    const dialog = await screen.findByRole('dialog', { name: 'Удалить чат?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Удалить' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Не найдено');
  });
});

describe('Chat: the real api object', () => {
  it('binds every call to the chat contract’s routes', async () => {
    const { chatApi } = await import('./api.ts');
    expect(chatApi.list.route).toBe(chatEndpoints.list);
    expect(chatApi.stop.route).toBe(chatEndpoints.stop);
    expect(routeCall(chatEndpoints.models).route.path).toBe('/api/new/chat_models');
  });
});
