import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GENERATION_FAILURES, GENERATION_TEXTS, generationEndpoints, type Generation } from '@app/contracts/generation';
import { ApiError, formatDate } from '@app/kit';
import { fakeRoute } from '@app/kit/test';
import { AiHistory } from './AiHistory.tsx';
import type { AiHistoryApi } from './api.ts';
import { CANCELLED, FAILED, IMAGE_RUNS, QUEUED, REFUSED, SUCCEEDED, TEXT_RUNS, VIDEO_RUNS, manyRuns, run } from './fixtures.ts';

type Page = { data: Generation[]; last_page: number };
type HistoryRequest = { query: { type?: unknown; page?: unknown } };

function fakeApi(history: (request: HistoryRequest) => Page | Promise<Page> = () => ({ data: IMAGE_RUNS, last_page: 1 }), cancel: (id: number) => Generation | Promise<Generation> = (id) => ({ ...QUEUED, id, status: 'cancelled', refunded: true })) {
  return {
    history: fakeRoute(generationEndpoints.history, (r) => history(r)),
    cancel: fakeRoute(generationEndpoints.cancel, (r) => cancel(Number(r.params.id))),
  } satisfies AiHistoryApi;
}

function renderHistory(api: AiHistoryApi, type: 'image' | 'video' = 'image') {
  return render(<AiHistory type={type} productsUrl="/ai-products" api={api} pollMs={20} />);
}

const card = (name: string) => screen.getAllByRole('article', { name }).at(0) as HTMLElement;

beforeEach(() => {
  window.history.replaceState(null, '', '/ai-history');
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('AiHistory: the list', () => {
  it('reads the page’s kind, newest first; each card has its preview, product, prompt, date, cost and status', async () => {
    const api = fakeApi(() => ({ data: [SUCCEEDED, { ...FAILED, product: 'Заменить часть картинки' }], last_page: 1 }));
    renderHistory(api);
    const done = await screen.findByRole('article', { name: SUCCEEDED.product });
    expect(screen.getAllByRole('article').map((a) => within(a).getByRole('heading').textContent)).toEqual([SUCCEEDED.product, 'Заменить часть картинки']);
    expect(api.history).toHaveBeenCalledWith({ query: { type: 'image', page: 1 } });
    const preview = within(done).getByRole('button', { name: `Открыть изображение: ${SUCCEEDED.prompt}` });
    const img = within(preview).getByRole('presentation');
    expect(img).toHaveAttribute('src', SUCCEEDED.outputs[0]?.url);
    expect(img).toHaveAttribute('loading', 'lazy');
    expect(within(done).getByText(SUCCEEDED.prompt)).toBeInTheDocument();
    expect(within(done).getByText(formatDate(SUCCEEDED.created_at))).toHaveAttribute('datetime', SUCCEEDED.created_at);
    expect(within(done).getByText('1,0 медиа токена')).toBeInTheDocument();
    expect(within(done).getByText('Готово')).toBeInTheDocument();
    const download = within(done).getByRole('link', { name: 'Скачать' });
    expect(download).toHaveAttribute('href', SUCCEEDED.outputs[0]?.download_url);
    expect(download).toHaveAttribute('download');
  });

  it('the header links the three kinds (this one current) and «Создать» leads to the catalogue', async () => {
    renderHistory(fakeApi());
    await screen.findAllByRole('article');
    expect(screen.getByRole('heading', { level: 1, name: 'История генераций' })).toBeInTheDocument();
    const tabs = within(screen.getByRole('navigation', { name: 'Тип генераций' })).getAllByRole('link');
    expect(tabs.map((t) => [t.textContent, t.getAttribute('href'), t.getAttribute('aria-current')])).toEqual([
      ['Изображения', '/ai-history', 'page'],
      ['Видео', '/ai-history-video', null],
      ['Тексты', '/ai-history?type=text', null],
    ]);
    expect(screen.getByRole('link', { name: /Создать изображение/ })).toHaveAttribute('href', '/ai-products');
  });

  it('a run shows its state: «В очереди», «Выполняется 40%» with progress, «Ошибка», «Отменено»', async () => {
    renderHistory(fakeApi());
    await screen.findAllByRole('article');
    expect(within(card(QUEUED.product)).getByText('В очереди')).toBeInTheDocument();
    const running = screen.getAllByRole('article').find((a) => within(a).queryByText('Выполняется 40%'));
    expect(running).toBeDefined();
    expect(within(running as HTMLElement).getByRole('progressbar', { name: 'Готовность' })).toHaveAttribute('aria-valuenow', '40');
    expect(screen.getByText('Ошибка')).toBeInTheDocument();
    expect(screen.getByText('Отменено')).toBeInTheDocument();
    expect(screen.getByText('2,5 медиа токена')).toBeInTheDocument();
  });

  it('a failed run says why and that its tokens came back; a failed or cancelled run shows no price: nothing was charged', async () => {
    renderHistory(fakeApi(() => ({ data: [FAILED, REFUSED, { ...FAILED, id: 99, error: null }, CANCELLED], last_page: 1 })));
    const [first, second, third, fourth] = (await screen.findAllByRole('article')) as [HTMLElement, HTMLElement, HTMLElement, HTMLElement];
    expect(within(first).getByText(GENERATION_FAILURES.notConfigured)).toBeInTheDocument();
    expect(within(second).getByText(GENERATION_FAILURES.contentPolicy)).toBeInTheDocument();
    expect(within(third).getByText(GENERATION_FAILURES.failed)).toBeInTheDocument();
    for (const card of [first, second, third, fourth]) {
      expect(within(card).getByText(GENERATION_TEXTS.refunded)).toBeInTheDocument();
      expect(within(card).getByText('Не списано')).toBeInTheDocument();
      expect(within(card).queryByText(/медиа токена/)).toBeNull();
    }
    expect(within(first).queryByRole('link', { name: 'Скачать' })).toBeNull();
  });

  it('a run still queued or running updates by itself until it is done', async () => {
    let calls = 0;
    const api = fakeApi(() => {
      calls += 1;
      const status = calls === 1 ? { status: 'queued' as const, progress: 0 } : calls === 2 ? { status: 'running' as const, progress: 60 } : { status: 'succeeded' as const, progress: 100 };
      return { data: [{ ...SUCCEEDED, ...status, outputs: status.status === 'succeeded' ? SUCCEEDED.outputs : [] }], last_page: 1 };
    });
    renderHistory(api);
    expect(await screen.findByText('В очереди')).toBeInTheDocument();
    expect(await screen.findByText('Выполняется 60%')).toBeInTheDocument();
    expect(await screen.findByText('Готово')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Скачать' })).toBeInTheDocument();
  });

  it('nothing yet: says where results will appear and leads to the catalogue', async () => {
    renderHistory(fakeApi(() => ({ data: [], last_page: 1 })));
    expect(await screen.findByText('Здесь появятся ваши изображения')).toBeInTheDocument();
    const links = screen.getAllByRole('link', { name: /Создать изображение/ });
    expect(links.map((l) => l.getAttribute('href'))).toEqual(['/ai-products', '/ai-products']);
    expect(screen.queryByRole('navigation', { name: 'Страницы' })).toBeNull();
  });

  it('shows a skeleton while loading, then a load failure with «Повторить», which reads again', async () => {
    let fail = true;
    let release: () => void = () => undefined;
    const api = fakeApi(
      () =>
        new Promise<Page>((resolve, reject) => {
          release = () => (fail ? reject(new ApiError(0, 'NETWORK', 'Нет соединения с сервером. Проверьте интернет и попробуйте снова')) : resolve({ data: [SUCCEEDED], last_page: 1 }));
        }),
    );
    renderHistory(api);
    expect(screen.getByRole('list', { name: 'Загрузка' })).toHaveAttribute('aria-busy', 'true');
    release();
    expect(await screen.findByText('Нет соединения с сервером. Проверьте интернет и попробуйте снова')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    release();
    expect(await screen.findByRole('article', { name: SUCCEEDED.product })).toBeInTheDocument();
  });
});

describe('AiHistory: actions', () => {
  it('«Отменить» cancels a queued run: the card says its tokens came back and the list is read again', async () => {
    let cancelled = false;
    const api = fakeApi(() => ({ data: [cancelled ? { ...QUEUED, status: 'cancelled', refunded: true } : QUEUED], last_page: 1 }));
    api.cancel.mockImplementation(() => {
      cancelled = true;
      return Promise.resolve({ ...QUEUED, status: 'cancelled', refunded: true });
    });
    renderHistory(api);
    const queued = await screen.findByRole('article', { name: QUEUED.product });
    await userEvent.click(within(queued).getByRole('button', { name: 'Отменить' }));
    expect(api.cancel).toHaveBeenCalledWith({ params: { id: QUEUED.id } });
    expect(await within(queued).findByText('Отменено')).toBeInTheDocument();
    expect(within(queued).getByText(GENERATION_TEXTS.refunded)).toBeInTheDocument();
    expect(within(queued).queryByRole('button', { name: 'Отменить' })).toBeNull();
    await waitFor(() => expect(api.history.mock.calls.length).toBeGreaterThan(1));
  });

  it('a cancel refused because the run started shows why on its card', async () => {
    let started = false;
    const api = fakeApi(
      () => ({ data: [started ? { ...QUEUED, status: 'running', progress: 10 } : QUEUED], last_page: 1 }),
      () => {
        started = true;
        return Promise.reject(new ApiError(409, 'GENERATION_NOT_CANCELLABLE', GENERATION_TEXTS.notCancellable));
      },
    );
    renderHistory(api);
    const queued = await screen.findByRole('article', { name: QUEUED.product });
    await userEvent.click(within(queued).getByRole('button', { name: 'Отменить' }));
    expect(await within(queued).findByText(GENERATION_TEXTS.notCancellable)).toBeInTheDocument();
    expect(await within(queued).findByText('Выполняется 10%')).toBeInTheDocument();
  });

  it('a result opens full size with its prompt and download; Escape and «Закрыть» close it', async () => {
    renderHistory(fakeApi(() => ({ data: [SUCCEEDED], last_page: 1 })));
    const done = await screen.findByRole('article', { name: SUCCEEDED.product });
    await userEvent.click(within(done).getByRole('button', { name: /^Открыть изображение/ }));
    const dialog = await screen.findByRole('dialog', { name: SUCCEEDED.product });
    expect(within(dialog).getByRole('img', { name: SUCCEEDED.prompt })).toHaveAttribute('src', SUCCEEDED.outputs[0]?.url);
    expect(within(dialog).getByText(SUCCEEDED.prompt)).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Скачать' })).toHaveAttribute('href', SUCCEEDED.outputs[0]?.download_url);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await userEvent.click(within(done).getByRole('button', { name: /^Открыть изображение/ }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Закрыть' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('several results of one run are stepped through in the full view', async () => {
    const several = run({ id: 50, outputs: ['a', 'b'].map((n, i) => ({ id: 500 + i, url: `/api/new/files/${n}`, download_url: `/api/new/files/${n}?download=1`, kind: 'image' as const, mime: 'image/png' })) });
    renderHistory(fakeApi(() => ({ data: [several], last_page: 1 })));
    const item = await screen.findByRole('article', { name: several.product });
    expect(within(item).getByText('+1')).toBeInTheDocument();
    await userEvent.click(within(item).getByRole('button', { name: /^Открыть изображение/ }));
    const dialog = await screen.findByRole('dialog', { name: `${several.product} · 1 из 2` });
    expect(within(dialog).getByRole('button', { name: 'Предыдущий результат' })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Следующий результат' }));
    const second = await screen.findByRole('dialog', { name: `${several.product} · 2 из 2` });
    expect(within(second).getByRole('link', { name: 'Скачать' })).toHaveAttribute('href', '/api/new/files/b?download=1');
  });

  it('pages of 24: another page is read and kept in the address', async () => {
    const api = fakeApi((r) => ({ data: manyRuns(24, 1000 - (Number(r.query.page) - 1) * 24), last_page: 3 }));
    renderHistory(api);
    await screen.findByRole('button', { name: 'Открыть изображение: Картинка номер 1' });
    const nav = screen.getByRole('navigation', { name: 'Страницы' });
    expect(within(nav).getByRole('button', { name: '1' })).toHaveAttribute('aria-current', 'page');
    await userEvent.click(within(nav).getByRole('button', { name: '2' }));
    await waitFor(() => expect(api.history).toHaveBeenLastCalledWith({ query: { type: 'image', page: 2 } }));
    expect(await screen.findAllByRole('article')).toHaveLength(24);
    expect(within(screen.getByRole('navigation', { name: 'Страницы' })).getByRole('button', { name: '2' })).toHaveAttribute('aria-current', 'page');
    expect(window.location.search).toBe('?page=2');
  });

  it('opens on the page of the address', async () => {
    window.history.replaceState(null, '', '/ai-history?page=3');
    const api = fakeApi(() => ({ data: [SUCCEEDED], last_page: 3 }));
    renderHistory(api);
    await screen.findByRole('article');
    expect(api.history).toHaveBeenCalledWith({ query: { type: 'image', page: 3 } });
  });
});

describe('AiHistory: kinds', () => {
  it('«Тексты» (?type=text) lists text runs: the text’s beginning on the card, all of it in the dialog — Markdown drawn as the chat draws it — and «Копировать»', async () => {
    window.history.replaceState(null, '', '/ai-history?type=text');
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const api = fakeApi(() => ({ data: TEXT_RUNS, last_page: 1 }));
    renderHistory(api);
    const post = await screen.findByRole('article', { name: 'Пост для соцсетей' });
    await waitFor(() => expect(api.history).toHaveBeenCalledWith({ query: { type: 'text', page: 1 } }));
    expect(within(screen.getByRole('navigation', { name: 'Тип генераций' })).getByRole('link', { name: 'Тексты' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: /Создать текст/ })).toHaveAttribute('href', '/ai-products?type=text');
    expect(within(post).getByText('120 слов')).toBeInTheDocument();
    // The card's text is Markdown drawn (its renderer fetched when a text shows), no raw marks.
    expect((await within(post).findByText('Мы открылись!')).tagName).toBe('STRONG');
    expect(within(post).getByText('каждый день').tagName).toBe('EM');
    expect(within(post).getByText('свежая обжарка;').tagName).toBe('LI');
    expect(post.textContent).not.toMatch(/\*\*|_каждый день_/);
    // Held by the running run; the failed one gave it back.
    expect(screen.getAllByText(/^1\s201 слово$/)).toHaveLength(1);
    await userEvent.click(within(post).getByRole('button', { name: 'Копировать' }));
    expect(writeText).toHaveBeenCalledWith(TEXT_RUNS[0]?.text);
    expect(await within(post).findByRole('button', { name: 'Скопировано' })).toBeInTheDocument();

    await userEvent.click(within(post).getByRole('button', { name: 'Открыть' }));
    const dialog = await screen.findByRole('dialog', { name: 'Пост для соцсетей' });
    expect(dialog.textContent).toContain('Первым ста гостям — капучино в подарок.');
    expect(within(dialog).getByText('Мы открылись!').tagName).toBe('STRONG');
    expect(within(dialog).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['свежая обжарка;', 'десерты собственного приготовления;', 'уютные места у окна.']);
    expect(within(dialog).getByRole('button', { name: 'Скопировано' })).toBeInTheDocument();
  });

  it('a copy the browser refuses says so', async () => {
    window.history.replaceState(null, '', '/ai-history?type=text');
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) }, configurable: true });
    renderHistory(fakeApi(() => ({ data: TEXT_RUNS, last_page: 1 })));
    const post = await screen.findByRole('article', { name: 'Пост для соцсетей' });
    await userEvent.click(within(post).getByRole('button', { name: 'Копировать' }));
    expect(await within(post).findByRole('button', { name: 'Не удалось скопировать' })).toBeInTheDocument();
  });

  it('/ai-history-video lists video runs with a muted preview; the full view plays it with controls', async () => {
    window.history.replaceState(null, '', '/ai-history-video');
    const api = fakeApi(() => ({ data: VIDEO_RUNS, last_page: 1 }));
    renderHistory(api, 'video');
    const preview = await screen.findByRole('button', { name: /^Открыть видео/ });
    expect(api.history).toHaveBeenCalledWith({ query: { type: 'video', page: 1 } });
    expect(screen.getByRole('link', { name: /Создать видео/ })).toHaveAttribute('href', '/ai-products?type=video');
    const video = preview.querySelector('video');
    expect(video?.muted).toBe(true);
    expect(video?.controls).toBe(false);
    await userEvent.click(preview);
    const played = (await screen.findByRole('dialog')).querySelector('video');
    expect(played?.controls).toBe(true);
    expect(played?.getAttribute('src')).toBe(VIDEO_RUNS[1]?.outputs[0]?.url);
  });
});
