import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, QueryProvider, createQueryClient } from '@app/kit';
import { AiProducts } from './AiProducts.tsx';
import type { ProductsApi, RunEvent, RunEventsFn } from './api.ts';
import { fakeProductsApi, type FakeApiOptions } from './fake-api.ts';
import { CANCELLED_CHECK, NO_PLAN_CHECK, REFUSED, SUCCEEDED, TEXT_DONE, USER, run } from './fixtures.ts';

const PROPS = { plansUrl: '/dashboard/user/payment', packagesUrl: '/dashboard/user/payment#packages', historyUrl: '/ai-history', videoHistoryUrl: '/ai-history-video' };

/** The events of runs, driven by the test. */
function fakeEvents() {
  const calls: { id: number; emit: (e: RunEvent) => void; end: () => void; fail: (err: unknown) => void }[] = [];
  const fn = vi.fn<RunEventsFn>(
    (request, { onEvent, signal }) =>
      new Promise<void>((resolve, reject) => {
        signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        calls.push({ id: Number(request.params.id), emit: onEvent, end: resolve, fail: reject });
      }),
  );
  const last = () => {
    const call = calls.at(-1);
    if (!call) throw new Error('no run is followed');
    return call;
  };
  return {
    fn,
    calls,
    emit: (...events: RunEvent[]) =>
      act(async () => {
        for (const e of events) last().emit(e);
        await Promise.resolve();
      }),
    fail: (err: unknown) =>
      act(async () => {
        last().fail(err);
        await Promise.resolve();
      }),
  };
}

function setup(path: string, options: FakeApiOptions = {}) {
  window.history.replaceState(null, '', path);
  const events = fakeEvents();
  const base = fakeProductsApi({ events: events.fn, ...options });
  const api = {
    ...base,
    products: Object.assign(vi.fn(base.products), { route: base.products.route }),
    start: Object.assign(vi.fn(options.start ?? (() => Promise.resolve(run()))), { route: base.start.route }),
    cancel: Object.assign(vi.fn(options.cancel ?? (() => Promise.resolve(run({ status: 'cancelled', refunded: true })))), { route: base.cancel.route }),
    status: Object.assign(vi.fn(options.status ?? (() => Promise.resolve(SUCCEEDED))), { route: base.status.route }),
  } as ProductsApi & { start: ReturnType<typeof vi.fn>; products: ReturnType<typeof vi.fn>; cancel: ReturnType<typeof vi.fn>; status: ReturnType<typeof vi.fn> };
  const user = userEvent.setup();
  render(
    <QueryProvider client={createQueryClient()}>
      <AiProducts {...PROPS} api={api} pollMs={10} />
    </QueryProvider>,
  );
  return { api, events, user };
}

/** The multipart request of the n-th start. */
const startRequest = (api: { start: ReturnType<typeof vi.fn> }, n = 0) => api.start.mock.calls[n]?.[0] as { body: Record<string, unknown>; files: Record<string, Blob | undefined> };

beforeEach(() => {
  window.history.replaceState(null, '', '/ai-products');
  // The tests' DOM loads no images: a picked file gets no preview address, so its size is not awaited.
  if (typeof URL.createObjectURL === 'function') vi.spyOn(URL, 'createObjectURL').mockReturnValue('');
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the list', () => {
  it('shows the categories with their products, prices and links to each screen', async () => {
    setup('/ai-products');
    const images = await screen.findByRole('region', { name: 'Изображения' });
    expect(within(images).getAllByRole('link')).toHaveLength(5);
    const card = screen.getByRole('link', { name: /Картинка по описанию/ });
    expect(card.getAttribute('href')).toBe('/ai-products/img/1');
    expect(card.textContent).toContain('от 1,0 медиа токена');
    // A text product's price is its most, rounded up (the bound is 844 words): «до» takes the genitive.
    expect(screen.getByRole('link', { name: /Пост для соцсетей/ }).textContent).toContain('до 850 слов');
    expect(screen.getByRole('link', { name: 'История генераций' }).getAttribute('href')).toBe('/ai-history');
  });

  it('the video filter changes the address to ?type=video and asks for video products; back returns to all', async () => {
    const { api, user } = setup('/ai-products');
    await screen.findByRole('region', { name: 'Изображения' });
    await user.click(screen.getByRole('link', { name: 'Видео' }));
    expect(window.location.search).toBe('?type=video');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Изображения' })).toBeNull());
    expect(api.products).toHaveBeenLastCalledWith({ query: { type: 'video' } });
    expect(screen.getByRole('link', { name: 'Видео' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'История генераций' }).getAttribute('href')).toBe('/ai-history-video');
    await act(async () => {
      window.history.back();
      await new Promise((r) => setTimeout(r, 30));
    });
    await screen.findByRole('region', { name: 'Изображения' });
  });

  it('a card opens its screen without reloading the page', async () => {
    const { user } = setup('/ai-products');
    await user.click(await screen.findByRole('link', { name: /Картинка по описанию/ }));
    expect(window.location.pathname).toBe('/ai-products/img/1');
    await screen.findByRole('heading', { name: 'Картинка по описанию', level: 1 });
  });

  it('a failed load offers to try again', async () => {
    let fail = true;
    setup('/ai-products', { categories: () => (fail ? Promise.reject(new ApiError(500, 'INTERNAL', 'Произошла ошибка')) : Promise.resolve({ categories: [] })) });
    await screen.findByText('Произошла ошибка', {}, { timeout: 5000 });
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    await screen.findByText('В этом разделе пока нет продуктов');
  });
});

describe('a product’s screen', () => {
  it('shows the price and the balance before running; checks the prompt before sending anything', async () => {
    const { api, user } = setup('/ai-products/img/1');
    await screen.findByRole('heading', { name: 'Картинка по описанию', level: 1 });
    expect(await screen.findByText('24,5 медиа токена')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Создать · 1,0 медиа токена' })).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Параметры'), 'landscape');
    expect(screen.getByRole('button', { name: 'Создать · 1,5 медиа токена' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /^Создать/ }));
    expect(screen.getByText('Опишите, что нужно сделать')).toBeTruthy();
    expect(api.start).not.toHaveBeenCalled();
  });

  it('runs: progress while it goes, then the result with download; «Ещё раз» sends the same again', async () => {
    const { api, events, user } = setup('/ai-products/img/1');
    await user.type(await screen.findByRole('textbox', { name: 'Описание' }), 'Рыжий кот');
    await user.click(screen.getByRole('button', { name: /^Создать/ }));
    expect(startRequest(api).body).toEqual({ product_id: 1, param: 'square', prompt: 'Рыжий кот' });
    await screen.findByRole('heading', { name: 'В очереди' });
    expect(events.fn).toHaveBeenCalledWith({ params: { id: 101 } }, expect.anything());
    await events.emit({ event: 'progress', data: { status: 'running', progress: 40 } });
    expect(screen.getByRole('progressbar', { name: 'Ход генерации' }).getAttribute('aria-valuenow')).toBe('40');
    expect(screen.getByRole('heading', { name: 'Выполняется · 40%' })).toBeTruthy();
    // The final status comes with the run itself.
    await events.emit({ event: 'progress', data: { status: 'succeeded', progress: 100 } }, { event: 'done', data: SUCCEEDED });
    await screen.findByRole('heading', { name: 'Готово' });
    expect(screen.getByRole('link', { name: 'Скачать' }).hasAttribute('download')).toBe(true);
    expect(screen.getByRole('img', { name: /^Результат 1/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'История генераций' }).getAttribute('href')).toBe('/ai-history');

    await user.click(screen.getByRole('button', { name: 'Ещё раз' }));
    await waitFor(() => expect(api.start).toHaveBeenCalledTimes(2));
    expect(startRequest(api, 1)).toEqual(startRequest(api, 0));
  });

  it('«Изменить запрос» puts the cursor at the end of the prompt', async () => {
    const { events, user } = setup('/ai-products/img/1');
    const prompt = await screen.findByRole('textbox', { name: 'Описание' });
    await user.type(prompt, 'Рыжий кот');
    await user.click(screen.getByRole('button', { name: /^Создать/ }));
    await screen.findByRole('heading', { name: 'В очереди' });
    await events.emit({ event: 'done', data: SUCCEEDED });
    await user.click(await screen.findByRole('button', { name: 'Изменить запрос' }));
    expect(document.activeElement).toBe(prompt);
    expect((prompt as HTMLTextAreaElement).selectionStart).toBe('Рыжий кот'.length);
  });

  it('follows the run by its status when its events cannot be read', async () => {
    const { api, events, user } = setup('/ai-products/img/1');
    await user.type(await screen.findByRole('textbox', { name: 'Описание' }), 'Маяк');
    await user.click(screen.getByRole('button', { name: /^Создать/ }));
    await screen.findByRole('heading', { name: 'В очереди' });
    await events.fail(new ApiError(0, 'NETWORK', 'Соединение прервалось'));
    await screen.findByRole('heading', { name: 'Готово' });
    expect(api.status).toHaveBeenCalledWith({ params: { id: 101 } });
  });

  it('a queued run can be cancelled: its tokens come back', async () => {
    const { api, user } = setup('/ai-products/img/1');
    await user.type(await screen.findByRole('textbox', { name: 'Описание' }), 'Маяк');
    await user.click(screen.getByRole('button', { name: /^Создать/ }));
    await user.click(await screen.findByRole('button', { name: 'Отменить' }));
    expect(api.cancel).toHaveBeenCalledWith({ params: { id: 101 } });
    await screen.findByRole('heading', { name: 'Отменено' });
    expect(screen.getByText('Токены возвращены на баланс')).toBeTruthy();
  });

  it('a failed run says why and that its tokens came back, and shows no price: nothing was charged', async () => {
    const { events, user } = setup('/ai-products/img/1');
    await user.type(await screen.findByRole('textbox', { name: 'Описание' }), 'Маяк');
    await user.click(screen.getByRole('button', { name: /^Создать/ }));
    await screen.findByRole('heading', { name: 'В очереди' });
    expect(screen.getByText('Резерв: 1,0 медиа токена')).toBeTruthy();
    await events.emit({ event: 'done', data: REFUSED });
    expect((await screen.findByRole('alert')).textContent).toContain('Сервис генерации отклонил запрос по своим правилам о содержании');
    // Once: the reason is shown without the server's sentence about the tokens, which has its own line.
    expect(screen.getByText('Токены возвращены на баланс')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).not.toMatch(/баланс.*баланс/);
    const panel = document.querySelector('.gen-run') as HTMLElement;
    expect(within(panel).getByText('Не списано')).toBeTruthy();
    expect(within(panel).queryByText(/1,0 медиа/)).toBeNull();
  });

  it('too few tokens on a plan: the screen leads to the packages (and to another plan)', async () => {
    const { user } = setup('/ai-products/img/1', { start: () => Promise.reject(new ApiError(402, 'INSUFFICIENT_TOKENS', 'Недостаточно токенов')), user: { ...USER, balances: { words: 0, media: 0.5 } } });
    await user.type(await screen.findByRole('textbox', { name: 'Описание' }), 'Маяк');
    await user.click(screen.getByRole('button', { name: /^Создать/ }));
    const panel = await screen.findByRole('alert');
    expect(within(panel).getByRole('heading', { name: 'Недостаточно медиа токенов' })).toBeTruthy();
    // The heading says it; the text does not repeat the server's «Недостаточно токенов».
    expect(panel.textContent).not.toContain('Недостаточно токенов');
    expect(panel.textContent).toContain('Запуск стоит 1,0 медиа токена, на балансе 0,5 медиа токена.');
    expect((await within(panel).findByRole('link', { name: 'Купить пакет медиа токенов' })).getAttribute('href')).toBe('/dashboard/user/payment#packages');
    expect(within(panel).getByRole('link', { name: 'Сменить тариф' }).getAttribute('href')).toBe('/dashboard/user/payment');
    await user.click(within(panel).getByRole('button', { name: 'Закрыть' }));
    expect(screen.queryByRole('heading', { name: 'Недостаточно медиа токенов' })).toBeNull();
  });

  it('too few words for a text product: the heading names the words, the text gives the most it may cost', async () => {
    const { user } = setup('/ai-products/text_1/7', { start: () => Promise.reject(new ApiError(402, 'INSUFFICIENT_TOKENS', 'Недостаточно токенов')), user: { ...USER, balances: { words: 120, media: 0 } } });
    await user.type(await screen.findByRole('textbox', { name: 'Тема' }), 'Кофейня');
    await user.click(screen.getByRole('button', { name: /^Создать/ }));
    const panel = await screen.findByRole('alert');
    expect(within(panel).getByRole('heading', { name: 'Недостаточно слов' })).toBeTruthy();
    expect(panel.textContent).toContain('Запуск стоит до 850 слов, на балансе 120 слов.');
  });

  it.each([
    ['no plan', NO_PLAN_CHECK, 'Подключите тариф'],
    ['a cancelled plan', CANCELLED_CHECK, 'Подписка отменена, поэтому пакеты к ней купить нельзя'],
  ])('too few tokens with %s: the screen leads to the plans only, not to packages that could not be bought', async (_, check, advice) => {
    const { user } = setup('/ai-products/text_1/7', { check, start: () => Promise.reject(new ApiError(402, 'INSUFFICIENT_TOKENS', 'Недостаточно токенов')), user: { ...USER, balances: { words: 10, media: 0 } } });
    await user.type(await screen.findByRole('textbox', { name: 'Тема' }), 'Маяк');
    await user.click(screen.getByRole('button', { name: /^Создать/ }));
    const panel = await screen.findByRole('alert');
    expect(within(panel).getByRole('heading', { name: 'Недостаточно слов' })).toBeTruthy();
    await waitFor(() => expect(panel.textContent).toContain(advice));
    expect(within(panel).getByRole('link', { name: 'Выбрать тариф' }).getAttribute('href')).toBe('/dashboard/user/payment');
    expect(within(panel).getAllByRole('link')).toHaveLength(1);
  });

  it('the server’s limit of runs at once is shown as it says', async () => {
    const { user } = setup('/ai-products/img/1', { start: () => Promise.reject(new ApiError(429, 'GENERATIONS_BUSY', 'Дождитесь окончания текущих генераций: одновременно можно запустить не больше 10')) });
    await user.type(await screen.findByRole('textbox', { name: 'Описание' }), 'Маяк');
    await user.click(screen.getByRole('button', { name: /^Создать/ }));
    expect((await screen.findByRole('alert')).textContent).toContain('одновременно можно запустить не больше 10');
  });

  it('a template’s fields: required ones are checked, values go as a JSON object, server field errors show by their field', async () => {
    const { api, user } = setup('/ai-products/text_1/7', {
      start: () => Promise.reject(new ApiError(422, 'VALIDATION', { 'fields.topic': ['Не длиннее 200 символов'] })),
    });
    await screen.findByRole('heading', { name: 'Пост для соцсетей', level: 1 });
    expect(screen.getByRole('button', { name: 'Создать · до 850 слов' })).toBeTruthy();
    expect(screen.getByText(/^Это максимум: спишем по факту/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /^Создать/ }));
    expect(screen.getByText('Заполните поле «Тема»')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Тема' }), 'Кофейня');
    await user.type(screen.getByRole('textbox', { name: 'Тон' }), 'тёплый');
    await user.click(screen.getByRole('button', { name: /^Создать/ }));
    expect(startRequest(api).body).toEqual({ product_id: 7, param: 'balanced', fields: JSON.stringify({ topic: 'Кофейня', tone: 'тёплый' }) });
    await screen.findByText('Не длиннее 200 символов');
  });

  it('a text result can be copied', async () => {
    const { events, user } = setup('/ai-products/text_1/7', { start: () => Promise.resolve(run({ variant: 'text_1', cost: { wallet: 'words', amount: 844 } })) });
    await user.type(await screen.findByRole('textbox', { name: 'Тема' }), 'Кофейня');
    await user.click(screen.getByRole('button', { name: /^Создать/ }));
    await screen.findByRole('heading', { name: 'В очереди' });
    await events.emit({ event: 'done', data: TEXT_DONE });
    // The model's Markdown drawn as the chat draws it (its renderer is fetched when the text shows), no raw marks.
    expect((await screen.findByText('Мы открываемся!')).tagName).toBe('STRONG');
    expect(screen.getByText('с понедельника').tagName).toBe('EM');
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['свежая обжарка;', 'домашняя выпечка;', 'уютные столики у окна.']);
    expect(document.querySelector('.gen-text__body')?.textContent).not.toMatch(/\*\*|_с понедельника_/);
    expect(screen.getByText('Списано: 212 слов')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Копировать' }));
    expect(await navigator.clipboard.readText()).toBe(TEXT_DONE.text);
    await screen.findByRole('button', { name: 'Скопировано' });
  });

  it('an image product: the image is required, a wrong type is refused, the picked one goes with the run', async () => {
    const { api, user } = setup('/ai-products/img_2/2');
    await user.type(await screen.findByRole('textbox', { name: 'Что изменить' }), 'Летний фон');
    await user.click(screen.getByRole('button', { name: /^Создать/ }));
    expect(screen.getByText('Загрузите изображение')).toBeTruthy();
    const input = screen.getByLabelText(/Ваш образец/);
    fireEvent.change(input, { target: { files: [new File(['%PDF'], 'doc.pdf', { type: 'application/pdf' })] } });
    expect(await screen.findByText('Подходят только изображения PNG, JPEG или WebP')).toBeTruthy();
    const photo = new File(['png'], 'photo.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [photo] } });
    await screen.findByText('photo.png');
    await user.click(screen.getByRole('button', { name: /^Создать/ }));
    await waitFor(() => expect(api.start).toHaveBeenCalled());
    expect(startRequest(api).files.image).toBe(photo);
    expect(startRequest(api).body).toEqual({ product_id: 2, param: 'square', prompt: 'Летний фон' });
  });

  it('the mask product asks for the painted area before sending', async () => {
    const { api, user } = setup('/ai-products/mask/5');
    await user.type(await screen.findByRole('textbox', { name: 'Что нарисовать в закрашенной области' }), 'Шляпа');
    await user.upload(screen.getByLabelText(/Изображение/), new File(['png'], 'room.png', { type: 'image/png' }));
    expect(await screen.findByRole('toolbar', { name: 'Маска' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '↶ Отменить' }).hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Ластик' }));
    expect(screen.getByRole('button', { name: 'Ластик' }).getAttribute('aria-pressed')).toBe('true');
    await user.click(screen.getByRole('button', { name: /^Создать/ }));
    expect(screen.getAllByText('Закрасьте область, которую нужно изменить').length).toBeGreaterThan(0);
    expect(api.start).not.toHaveBeenCalled();
  });

  it('a product under another variant’s address moves to its own', async () => {
    setup('/ai-products/video/1');
    await screen.findByRole('heading', { name: 'Картинка по описанию', level: 1 });
    await waitFor(() => expect(window.location.pathname).toBe('/ai-products/img/1'));
  });

  it('an unknown product is not found, with a way back', async () => {
    const { user } = setup('/ai-products/img/999');
    await screen.findByText('Продукт не найден');
    await user.click(screen.getByRole('link', { name: '← Все продукты' }));
    expect(window.location.pathname).toBe('/ai-products');
    await screen.findByRole('region', { name: 'Изображения' });
  });
});

describe('runs keep the balance true', () => {
  it('the balance is read again when a run starts and when it ends (a failure gives the tokens back)', async () => {
    const { api, events, user } = setup('/ai-products/img/1');
    const userCalls = vi.spyOn(api, 'user');
    await user.type(await screen.findByRole('textbox', { name: 'Описание' }), 'Маяк');
    await screen.findByText('24,5 медиа токена');
    const before = userCalls.mock.calls.length;
    await user.click(screen.getByRole('button', { name: /^Создать/ }));
    await screen.findByRole('heading', { name: 'В очереди' });
    await waitFor(() => expect(userCalls.mock.calls.length).toBe(before + 1));
    await events.emit({ event: 'done', data: run({ status: 'failed', refunded: true, error: 'Ошибка модели' }) });
    await waitFor(() => expect(userCalls.mock.calls.length).toBe(before + 2));
  });
});
