import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { chatEndpoints, type ChatListItem } from '@app/contracts/browser';
import { ApiError, routeCall } from '@app/kit';
import { fakeRoute } from '@app/kit/test';
import { CHATS, HISTORY } from './fixtures.ts';
import { fakeApi, renderChat, resetBetweenTests } from './chat-test-kit.tsx';

resetBetweenTests();

describe('Chat: the list of chats', () => {
  it('cuts titles at 20 characters plus «…» and keeps the whole title as a tooltip', async () => {
    const { api } = fakeApi();
    renderChat(api);
    const item = await screen.findByRole('button', { name: 'План статьи о здоров…' });
    expect(item).toHaveAttribute('title', 'План статьи о здоровом сне для блога клиники');
    expect(screen.getByRole('button', { name: 'Письмо клиенту' })).toBeInTheDocument();
  });

  it('reads ten chats a page (`per_page`); «Показать ещё» reads the next page of ten', async () => {
    const all = Array.from({ length: 25 }, (_, i): ChatListItem => ({ id: 100 - i, text: `Чат ${String(i + 1)}`, updated_at: '2025-05-20T12:00:00Z' }));
    const { api } = fakeApi({ list: () => all });
    renderChat(api);
    await screen.findByRole('button', { name: 'Чат 10' });
    expect(api.list.mock.calls.map((c) => c[0]?.query)).toEqual([{ page: 1, per_page: 10 }]);
    expect(screen.queryByRole('button', { name: 'Чат 11' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Показать ещё' }));
    await screen.findByRole('button', { name: 'Чат 20' });
    expect(api.list.mock.calls.map((c) => c[0]?.query.page)).toEqual([1, 2]);
    await userEvent.click(screen.getByRole('button', { name: 'Показать ещё' }));
    await screen.findByRole('button', { name: 'Чат 25' });
    expect(screen.queryByRole('button', { name: 'Показать ещё' })).not.toBeInTheDocument();
  });

  it('opening the chat loads only its first ten chats; the next ten come when the list is scrolled to its end', async () => {
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
      const { api } = fakeApi({ list: () => all });
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
      expect(api.list.mock.calls.map((c) => c[0]?.query.page)).toEqual([1]);
      expect(screen.queryByRole('button', { name: 'Чат 11' })).not.toBeInTheDocument();
      // Scrolled to its end: the next pages are read.
      root.scrollTop = 120;
      await seen();
      await screen.findByRole('button', { name: 'Чат 12' });
      expect(api.list.mock.calls.map((c) => c[0]?.query)).toEqual([
        { page: 1, per_page: 10 },
        { page: 2, per_page: 10 },
      ]);
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
    const { api } = fakeApi({ list: () => chats });
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
    // The header shows the whole title (only the list cuts titles).
    expect(await screen.findByRole('heading', { level: 1, name: 'Составь план статьи о здоровом сне и пример SQL-запроса для отчёта' })).toBeInTheDocument();
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
    const { api } = fakeApi({ list: () => (deleted ? CHATS.slice(1) : CHATS) });
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
    const { api } = fakeApi({ list: () => (deleted ? CHATS.slice(1) : CHATS) });
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
