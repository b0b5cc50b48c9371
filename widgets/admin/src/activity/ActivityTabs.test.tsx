import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminChatDetail } from '@app/contracts/admin';
import { ApiError, QueryProvider, createQueryClient } from '@app/kit';
import { Admin } from '../Admin.tsx';
import type { AdminApi } from '../api.ts';
import { fakeAdminApi } from '../fake-api.ts';
import { withParams } from './address.ts';
import { addDays, analyticsToday } from './AnalyticsTab.tsx';
import { BarChart, dayLabel, niceCeil, tickIndices } from './BarChart.tsx';
import { fakeActivityApi, type FakeActivityOptions } from './fake-api.ts';
import { CHAT_DETAIL, SETTINGS_CHANGED } from './fixtures.ts';
import { duration } from './texts.ts';

function setup(path: string, options: FakeActivityOptions = {}) {
  window.history.replaceState(null, '', path);
  const api: AdminApi = { ...fakeAdminApi(), ...fakeActivityApi(options) };
  const spied = {
    generations: vi.spyOn(api, 'generations'),
    chats: vi.spyOn(api, 'chats'),
    chat: vi.spyOn(api, 'chat'),
    analytics: vi.spyOn(api, 'analytics'),
    updateSettings: vi.spyOn(api, 'updateSettings'),
  };
  render(
    <QueryProvider client={createQueryClient()}>
      <Admin api={api} />
    </QueryProvider>,
  );
  return { api, spied, user: userEvent.setup() };
}

beforeEach(() => {
  window.history.replaceState(null, '', '/admin');
});

describe('helpers', () => {
  it('set and drop address parameters, keeping the others', () => {
    expect(withParams('/admin/history?q=anna&page=2', { status: 'failed' })).toBe('/admin/history?q=anna&page=2&status=failed');
    expect(withParams('/admin/history?status=failed', { status: null })).toBe('/admin/history');
  });

  it('round axis tops, spread day ticks, Moscow days as written, durations', () => {
    expect([niceCeil(0), niceCeil(3), niceCeil(7), niceCeil(12), niceCeil(1490), niceCeil(0.4)]).toEqual([0, 5, 10, 20, 2000, 0.5]);
    expect(tickIndices(3)).toEqual([0, 1, 2]);
    expect(tickIndices(7)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(tickIndices(30)).toEqual([4, 9, 14, 19, 24, 29]);
    expect(tickIndices(90)).toEqual([14, 29, 44, 59, 74, 89]);
    expect(dayLabel('2026-11-20')).toBe('20.11');
    expect(dayLabel('2026-11-20', true)).toBe('20.11.2026, пт');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(duration('2026-11-20T12:00:00Z', '2026-11-20T12:04:05Z')).toBe('4 мин 5 с');
  });
});

describe('История генераций', () => {
  it('lists every user’s runs with their user, product, model, status, cost and the failure: what its user read and what the provider said', async () => {
    setup('/admin/history');
    const table = await screen.findByRole('table');
    await within(table).findByText('Рыжий кот в космическом шлеме, акварель');
    const row = (text: string) => within(table).getByText(text).closest('tr') as HTMLElement;
    const failed = row('Волны разбиваются о скалы на закате');
    expect(within(failed).getByRole('link', { name: 'boris@example.ru' }).getAttribute('href')).toBe('/admin/users/40');
    expect(within(failed).getByText('Ошибка')).toBeTruthy();
    expect(within(failed).getByText('Kling 2.1 · Видео')).toBeTruthy();
    expect(within(failed).getByText(/^Сервис генерации отклонил запрос по своим правилам о содержании/).textContent).toBe('Сервис генерации отклонил запрос по своим правилам о содержании. Измените описание или изображение и попробуйте снова');
    expect(within(failed).getByText(/NSFW content detected/).textContent).toBe('Причина: prediction 8m4kq2 failed: NSFW content detected. Try running it again, or try a different prompt.');
    // A failed or cancelled run charged nothing: no price in its cost.
    expect(within(failed).getByText('не списано')).toBeTruthy();
    expect(within(failed).queryByText('5,0 медиа')).toBeNull();
    expect(within(row('Маяк в тумане')).getByText('не списано')).toBeTruthy();
    // A run being retried after a failed attempt shows that attempt's error.
    expect(within(row('Тема: открытие кофейни; тон: дружелюбный')).getByText(/Rate limit reached/).textContent).toBe('Повтор после ошибки: chat.completions gpt-4o-mini: HTTP 429 — Rate limit reached for requests');
    expect(within(table).getByText(/^1\s500 сл\.$/)).toBeTruthy();
    expect(within(table).getByText('12,5 медиа')).toBeTruthy();
  });

  it('filters by status on the server, keeping the filter in the address with the search', async () => {
    const { spied, user } = setup('/admin/history?q=anna');
    await screen.findByText('Рыжий кот в космическом шлеме, акварель');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Статус' }), 'failed');
    await waitFor(() => expect(window.location.search).toBe('?q=anna&status=failed'));
    await waitFor(() => expect(spied.generations).toHaveBeenLastCalledWith({ query: { q: 'anna', sort: 'id', dir: 'desc', page: 1, status: 'failed' } }));
    await user.click(await screen.findByRole('button', { name: /Стоимость/ }));
    await waitFor(() => expect(window.location.search).toBe('?q=anna&sort=cost&status=failed'));
  });

  it('an unknown status in the address is ignored', async () => {
    const { spied } = setup('/admin/history?status=lost');
    await waitFor(() => expect(spied.generations).toHaveBeenCalledWith({ query: { q: '', sort: 'id', dir: 'desc', page: 1 } }));
  });

  it('an empty filtered list names the filter', async () => {
    setup('/admin/history?status=cancelled', { generations: () => Promise.resolve({ data: [], last_page: 1 }) });
    expect(await screen.findByText('Генераций со статусом «Отменена» нет')).toBeTruthy();
  });

  it('opens a run’s outputs one at a time from the file route', async () => {
    const { user } = setup('/admin/history');
    await user.click(await screen.findByRole('button', { name: 'Смотреть (2)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Генерация №305 · 1 из 2' });
    expect(within(dialog).getByRole('img').getAttribute('src')).toBe('/api/new/files/901');
    await user.click(within(dialog).getByRole('button', { name: 'Следующий' }));
    expect(within(dialog).getByRole('img').getAttribute('src')).toBe('/api/new/files/902');
    expect(within(dialog).getByRole('link', { name: 'Скачать' }).getAttribute('href')).toBe('/api/new/files/902?download=1');
    await user.click(within(dialog).getByRole('button', { name: 'Закрыть' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('a video run plays in the window', async () => {
    const { user } = setup('/admin/history');
    await user.click(await screen.findByRole('button', { name: 'Смотреть' }));
    const dialog = await screen.findByRole('dialog', { name: 'Генерация №302' });
    expect(dialog.querySelector('video')?.getAttribute('src')).toBe('/api/new/files/903');
  });
});

describe('Чат', () => {
  it('lists every user’s chats; one opens read-only with its messages — the user’s line breaks kept, the model’s Markdown drawn — and closes', async () => {
    const { spied, user } = setup('/admin/chat_model');
    await user.click(await screen.findByRole('link', { name: 'План статьи о кофе' }));
    expect(window.location.search).toBe('?chat=12');
    const dialog = await screen.findByRole('dialog', { name: 'План статьи о кофе' });
    const messages = await within(dialog).findByRole('list', { name: 'Сообщения' });
    expect(messages.querySelectorAll('.admin-chat__message')).toHaveLength(5);
    expect(within(messages).getByText(/^Составь план/).textContent).toBe('Составь план статьи о кофе.\nТри раздела, коротко.');
    // The model's answer as the chat draws it: bold, italics and a numbered list, no raw marks (its renderer is fetched on demand).
    const answer = (await within(messages).findByText('План статьи')).closest('.admin-chat__answer') as HTMLElement;
    expect(answer.querySelector('strong')?.textContent).toBe('План статьи');
    expect(answer.querySelector('em')?.textContent).toBe('коротко');
    expect([...answer.querySelectorAll('ol > li')].map((li) => li.textContent)).toEqual(['История кофе', 'Сорта и обжарка', 'Как заваривать дома']);
    expect(answer.textContent).not.toMatch(/\*\*|_коротко_/);
    // The answer the user asked again is marked replaced; the one that replaced it, and the rest, are not.
    const replaced = messages.querySelectorAll('.admin-chat__message--replaced');
    expect(replaced).toHaveLength(1);
    expect(replaced[0]?.contains(answer)).toBe(true);
    expect(within(replaced[0] as HTMLElement).getByText('Заменено')).toBeTruthy();
    expect(within(messages).getAllByText('Заменено')).toHaveLength(1);
    expect(within(messages).getByText('Провайдер не ответил за 60 с')).toBeTruthy();
    expect(within(messages).getByRole('img', { name: 'Вложение 904' }).getAttribute('src')).toBe('/api/new/files/904');
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    expect(spied.chat).toHaveBeenCalledWith({ params: { id: 12 }, query: {} });
    await user.click(within(dialog).getByRole('button', { name: 'Закрыть' }));
    await waitFor(() => expect(window.location.search).toBe(''));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('a long chat shows its latest messages; «Показать более ранние сообщения» reads the ones before, until the first', async () => {
    const msg = (id: number) => ({ ...(CHAT_DETAIL.messages[0] as AdminChatDetail['messages'][number]), id, text: `Сообщение ${String(id)}`, files: [] });
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => msg(from + i));
    const pages = [
      { ...CHAT_DETAIL, message_count: 60, truncated: true, messages: range(11, 60) },
      { ...CHAT_DETAIL, message_count: 60, truncated: false, messages: range(1, 10) },
    ];
    let read = 0;
    const { spied, user } = setup('/admin/chat_model?chat=12', { chat: () => Promise.resolve(pages[read++] as AdminChatDetail) });
    const dialog = await screen.findByRole('dialog', { name: 'План статьи о кофе' });
    await within(dialog).findByText('Сообщение 60');
    expect(within(dialog).getByText('Показаны последние 50 сообщений из 60.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Показать более ранние сообщения' }));
    await within(dialog).findByText('Сообщение 1');
    expect(spied.chat).toHaveBeenLastCalledWith({ params: { id: 12 }, query: { before: 11 } });
    expect(dialog.querySelectorAll('.admin-chat__message')).toHaveLength(60);
    expect(within(dialog).queryByRole('button', { name: 'Показать более ранние сообщения' })).toBeNull();
  });

  it('a chat opened by address that is gone says so', async () => {
    setup('/admin/chat_model?chat=99', { chat: () => Promise.reject(new ApiError(404, 'NOT_FOUND', 'Чат не найден')) });
    const dialog = await screen.findByRole('dialog', { name: 'Чат №99' });
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Чат не найден');
  });

  it('sorts by the last activity by default and by id on request', async () => {
    const { spied, user } = setup('/admin/chat_model');
    await screen.findByRole('link', { name: 'План статьи о кофе' });
    expect(spied.chats).toHaveBeenCalledWith({ query: { q: '', sort: 'updated_at', dir: 'desc', page: 1 } });
    await user.click(screen.getByRole('button', { name: /№/ }));
    await waitFor(() => expect(window.location.search).toBe('?sort=id'));
  });
});

describe('Аналитика', () => {
  it('shows the server’s default period with totals and a chart per figure, «30 дней» pressed', async () => {
    const { spied } = setup('/admin/analytics');
    const totals = await screen.findByRole('region', { name: 'Итоги за период' });
    expect(within(totals).getByText('Выручка за вычетом возвратов')).toBeTruthy();
    expect(spied.analytics).toHaveBeenCalledWith({ query: {} });
    expect(screen.getAllByRole('figure')).toHaveLength(7);
    expect(screen.getByRole('img', { name: 'Активные подписки на конец дня по дням; значения — в таблице ниже' })).toBeTruthy();
    // The hidden table of a chart has every day.
    const table = screen.getByRole('table', { name: 'Платежи' });
    expect(within(table).getAllByRole('row')).toHaveLength(31);
  });

  it('«7 дней» puts the period in the address and asks for it', async () => {
    const { spied, user } = setup('/admin/analytics');
    await screen.findByRole('region', { name: 'Итоги за период' });
    await user.click(screen.getByRole('button', { name: '7 дней' }));
    const today = analyticsToday();
    const from = addDays(today, -6);
    await waitFor(() => expect(window.location.search).toBe(`?from=${from}&to=${today}`));
    await waitFor(() => expect(spied.analytics).toHaveBeenLastCalledWith({ query: { from, to: today } }));
    await waitFor(() => expect(screen.getByRole('button', { name: '7 дней' }).getAttribute('aria-pressed')).toBe('true'));
    expect(within(screen.getByRole('table', { name: 'Платежи' })).getAllByRole('row')).toHaveLength(8);
  });

  it('checks the dates with the API’s rules before asking', async () => {
    const { spied, user } = setup('/admin/analytics?from=2026-01-01&to=2026-01-31');
    const form = await screen.findByRole('form', { name: 'Период' });
    await screen.findByRole('region', { name: 'Итоги за период' });
    const calls = spied.analytics.mock.calls.length;
    fireEvent.change(within(form).getByLabelText('С'), { target: { value: '2026-02-10' } });
    await user.click(within(form).getByRole('button', { name: 'Показать' }));
    expect(within(form).getByText('Начало периода позже его конца')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('С'), { target: { value: '2024-01-01' } });
    await user.click(within(form).getByRole('button', { name: 'Показать' }));
    expect(within(form).getByText('Период не длиннее 366 дней')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('С'), { target: { value: '2026-01-10' } });
    await user.click(within(form).getByRole('button', { name: 'Показать' }));
    await waitFor(() => expect(window.location.search).toBe('?from=2026-01-10&to=2026-01-31'));
    expect(spied.analytics.mock.calls.length).toBe(calls + 1);
  });

  it('a wrong period in the address is explained and not asked', async () => {
    const { spied } = setup('/admin/analytics?from=2026-02-10&to=2026-02-01');
    expect(await screen.findByText('Начало периода позже его конца')).toBeTruthy();
    expect(spied.analytics).not.toHaveBeenCalled();
  });

  it('the server’s refusal of a date shows by its field, without a retry', async () => {
    setup('/admin/analytics?from=1999-01-01&to=1999-01-02', { analytics: () => Promise.reject(new ApiError(400, 'VALIDATION', { from: ['Такой даты нет'] })) });
    expect(await screen.findByText('Такой даты нет')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Повторить' })).toBeNull();
  });

  it('a refusal without fields offers a retry', async () => {
    setup('/admin/analytics', { analytics: () => Promise.reject(new ApiError(403, 'FORBIDDEN', 'Нет доступа')) });
    expect(await screen.findByRole('button', { name: 'Повторить' })).toBeTruthy();
  });
});

describe('the chart', () => {
  it('draws negative days below zero, names each day, and reads days out with the keyboard', async () => {
    const user = userEvent.setup();
    const points = [
      { date: '2026-11-18', value: 990 },
      { date: '2026-11-19', value: -290 },
      { date: '2026-11-20', value: 1980 },
    ];
    render(<BarChart title="Выручка" points={points} format={(n) => `${String(n)} ₽`} summary="за период: 2680 ₽" />);
    const svg = screen.getByRole('img', { name: 'Выручка по дням; значения — в таблице ниже' });
    expect(svg.querySelectorAll('title')[1]?.textContent).toBe('19.11.2026, чт: -290 ₽');
    expect(svg.querySelectorAll('.admin-chart__bar.is-negative')).toHaveLength(1);
    const readout = () => document.querySelector('.admin-chart__readout')?.textContent;
    expect(readout()).toBe('за период: 2680 ₽');
    await user.tab();
    expect(readout()).toBe('20.11.2026, пт: 1980 ₽');
    await user.keyboard('{ArrowLeft}');
    expect(readout()).toBe('19.11.2026, чт: -290 ₽');
    await user.keyboard('{Home}');
    expect(readout()).toBe('18.11.2026, ср: 990 ₽');
    await user.tab();
    expect(readout()).toBe('за период: 2680 ₽');
  });
});

describe('Настройки', () => {
  it('shows every setting with its default and whether it is overridden', async () => {
    setup('/admin/settings', { settings: () => Promise.resolve(SETTINGS_CHANGED) });
    const form = await screen.findByRole('form', { name: 'Настройки' });
    expect(within(form).getByLabelText(/Подарок за подписку на канал: слова/)).toHaveValue('5000');
    expect(within(form).getByText(/По умолчанию \(из конфигурации\): 10.000 · сейчас изменено/)).toBeTruthy();
    expect(within(form).getByText('Не действует: ключи настроены, песочница не запущена.')).toBeTruthy();
    const summary = screen.getByRole('region', { name: 'Действующие значения' });
    expect(within(summary).getAllByText('Изменено')).toHaveLength(2);
    expect(screen.getByText(/Изменения применяются сразу, без перезапуска/)).toBeTruthy();
  });

  it('saves every field and says it is in force; the summary follows', async () => {
    const { spied, user } = setup('/admin/settings');
    const form = await screen.findByRole('form', { name: 'Настройки' });
    const link = within(form).getByLabelText(/Ссылка поддержки/);
    await user.clear(link);
    await user.type(link, 'https://t.me/help_desk');
    expect(within(screen.getByRole('region', { name: 'Действующие значения' })).getByText('Не сохранено')).toBeTruthy();
    await user.click(within(form).getByLabelText(/Песочница Telegram/));
    await user.click(within(form).getByRole('button', { name: 'Сохранить' }));
    expect(await within(form).findByText('Настройки сохранены и уже действуют')).toBeTruthy();
    expect(spied.updateSettings).toHaveBeenCalledWith({
      body: { welcome_words: 10_000, welcome_media: 3, referral_words: 5000, telegram_channel: '@neurostudio_news', support_url: 'https://t.me/help_desk', sandbox_payments: true, sandbox_telegram: false },
    });
    const summary = screen.getByRole('region', { name: 'Действующие значения' });
    await waitFor(() => expect(within(summary).getByText('https://t.me/help_desk')).toBeTruthy());
    expect(within(summary).queryByText('Не сохранено')).toBeNull();
  });

  it('values are checked with the contract’s schema before sending; the server’s field errors show by their fields', async () => {
    const { spied, user } = setup('/admin/settings', { updateSettings: () => Promise.reject(new ApiError(400, 'VALIDATION', { telegram_channel: ['Канал: @имя или ссылка https://t.me/имя'] })) });
    const form = await screen.findByRole('form', { name: 'Настройки' });
    await user.clear(within(form).getByLabelText(/канал: слова/));
    await user.click(within(form).getByRole('button', { name: 'Сохранить' }));
    expect(within(form).getByText('Укажите число слов')).toBeTruthy();
    const link = within(form).getByLabelText(/Ссылка поддержки/);
    await user.clear(link);
    await user.type(link, 'javascript:alert(1)');
    await user.click(within(form).getByRole('button', { name: 'Сохранить' }));
    expect(within(form).getByText('Ссылка поддержки: https://…, mailto:… или tg://…')).toBeTruthy();
    expect(spied.updateSettings).not.toHaveBeenCalled();
    await user.clear(link);
    await user.type(link, 'https://t.me/help_desk');
    await user.type(within(form).getByLabelText(/канал: слова/), '20000');
    await user.click(within(form).getByRole('button', { name: 'Сохранить' }));
    const channel = within(form).getByLabelText('Новостной канал Telegram *');
    await waitFor(() => expect(channel.getAttribute('aria-invalid')).toBe('true'));
    expect(within(form).getByText('Канал: @имя или ссылка https://t.me/имя')).toBeTruthy();
  });

  it('a failed load offers a retry', async () => {
    setup('/admin/settings', { settings: () => Promise.reject(new ApiError(403, 'FORBIDDEN', 'Нет доступа')) });
    expect(await screen.findByRole('button', { name: 'Повторить' })).toBeTruthy();
  });
});
