import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, QueryProvider, createQueryClient } from '@app/kit';
import { Admin } from './Admin.tsx';
import type { AdminApi } from './api.ts';
import { fakeAdminApi } from './fake-api.ts';
import { DETAIL } from './fixtures.ts';
import { parseAdminRoute, readListQuery, tabFlags } from './routes.ts';

function setup(path: string, api: AdminApi = fakeAdminApi()) {
  window.history.replaceState(null, '', path);
  const spied = {
    users: vi.spyOn(api, 'users'),
    adjustBalance: vi.spyOn(api, 'adjustBalance'),
    updateUser: vi.spyOn(api, 'updateUser'),
  };
  render(
    <QueryProvider client={createQueryClient()}>
      <Admin api={api} />
    </QueryProvider>,
  );
  return { api, spied, user: userEvent.setup() };
}

const nav = () => screen.getByRole('navigation', { name: 'Разделы админки' });

beforeEach(() => {
  window.history.replaceState(null, '', '/admin');
});

describe('routes', () => {
  it('read every tab’s list route, the single routes the seed gives, and /admin as tab1', () => {
    expect(parseAdminRoute('/admin')).toMatchObject({ kind: 'tab', tab: { flag: 'tab1' }, id: null });
    expect(parseAdminRoute('/dashboard/admin_vue')).toMatchObject({ tab: { flag: 'tab1' } });
    expect(parseAdminRoute('/admin/users/42')).toMatchObject({ tab: { flag: 'tab6' }, id: 42 });
    expect(parseAdminRoute('/admin/tariff/3')).toMatchObject({ tab: { flag: 'tab5' }, id: 3 });
    expect(parseAdminRoute('/admin/chat_model')).toMatchObject({ tab: { flag: 'tab12' } });
    expect(parseAdminRoute('/admin/log/3')).toEqual({ kind: 'unknown' });
    expect(parseAdminRoute('/admin/users/abc')).toEqual({ kind: 'unknown' });
    expect(parseAdminRoute('/admin/users/0')).toEqual({ kind: 'unknown' });
  });

  it('one flag of sixteen is on', () => {
    const flags = tabFlags('tab6');
    expect(Object.keys(flags)).toHaveLength(16);
    expect(Object.entries(flags).filter(([, on]) => on)).toEqual([['tab6', true]]);
  });

  it('read a list’s query from the address, with defaults and bounds', () => {
    expect(readListQuery('', 'id')).toEqual({ q: '', sort: 'id', dir: 'desc', page: 1 });
    expect(readListQuery('?q=anna&sort=email&dir=asc&page=3', 'id')).toEqual({ q: 'anna', sort: 'email', dir: 'asc', page: 3 });
    expect(readListQuery('?page=-2&dir=up', 'id')).toMatchObject({ dir: 'desc', page: 1 });
  });
});

describe('the shell', () => {
  it('shows sixteen tabs with «Главная» selected at first', async () => {
    setup('/admin');
    expect(within(nav()).getAllByRole('link')).toHaveLength(16);
    expect(within(nav()).getByRole('link', { name: 'Главная' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav()).getByRole('link', { name: 'Главная' }).getAttribute('href')).toBe('/dashboard/admin_vue');
    expect(await screen.findByText('mail.send')).toBeTruthy();
  });

  it('moves between tabs without reloading; back returns', async () => {
    const { user } = setup('/admin');
    await user.click(within(nav()).getByRole('link', { name: 'Пользователи' }));
    expect(window.location.pathname).toBe('/admin/users');
    await screen.findByRole('link', { name: 'anna@example.ru' });
    await act(async () => {
      window.history.back();
      await new Promise((r) => setTimeout(r, 30));
    });
    await waitFor(() => expect(within(nav()).getByRole('link', { name: 'Главная' }).getAttribute('aria-current')).toBe('page'));
  });

  it('an unknown address says there is no such section, with the way back', () => {
    setup('/admin/nope');
    expect(screen.getByText('Такого раздела нет')).toBeTruthy();
    expect(within(nav()).queryAllByRole('link', { current: 'page' })).toEqual([]);
  });
});

describe('users', () => {
  it('searches on the server after typing stops, keeping the search in the address', async () => {
    const { spied, user } = setup('/admin/users');
    await screen.findByRole('link', { name: 'anna@example.ru' });
    await user.type(screen.getByRole('searchbox', { name: 'Поиск по email' }), 'anna');
    await waitFor(() => expect(window.location.search).toBe('?q=anna'));
    await waitFor(() => expect(spied.users).toHaveBeenLastCalledWith({ query: { q: 'anna', sort: 'id', dir: 'desc', page: 1 } }));
  });

  it('sorts by a column on the server; a second click turns the direction', async () => {
    const { spied, user } = setup('/admin/users');
    await screen.findByRole('link', { name: 'anna@example.ru' });
    await user.click(screen.getByRole('button', { name: /Email/ }));
    await waitFor(() => expect(spied.users).toHaveBeenLastCalledWith({ query: { q: '', sort: 'email', dir: 'desc', page: 1 } }));
    await user.click(screen.getByRole('button', { name: /Email/ }));
    await waitFor(() => expect(window.location.search).toBe('?sort=email&dir=asc'));
    expect(screen.getByRole('columnheader', { name: /Email/ }).getAttribute('aria-sort')).toBe('ascending');
  });

  it('opens a user by link and shows their balances and activity', async () => {
    const { user } = setup('/admin/users');
    await user.click(await screen.findByRole('link', { name: 'anna@example.ru' }));
    expect(window.location.pathname).toBe('/admin/users/42');
    await screen.findByRole('heading', { name: 'anna@example.ru' });
    expect(within(screen.getByRole('region', { name: 'Движение токенов' })).getByText('Корректировка администратором: Компенсация за сбой')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Платежи' })).getByText('Возвращён')).toBeTruthy();
  });

  it('a balance adjustment needs a sum and a reason, sends one request id, and shows what was done', async () => {
    const { spied, user } = setup('/admin/users/42');
    const form = await screen.findByRole('form', { name: 'Корректировка баланса' });
    await user.click(within(form).getByRole('button', { name: 'Применить' }));
    expect(within(form).getByText(/Введите сумму/)).toBeTruthy();
    expect(within(form).getByText('Опишите причину (от 3 символов)')).toBeTruthy();
    expect(spied.adjustBalance).not.toHaveBeenCalled();
    await user.selectOptions(within(form).getByLabelText(/^Кошелёк/), 'media');
    await user.type(within(form).getByLabelText(/^Сумма \(минус — списать\)/), '-2,5');
    await user.type(within(form).getByLabelText(/^Причина/), 'Ошибочное начисление');
    await user.click(within(form).getByRole('button', { name: 'Применить' }));
    await within(form).findByText(/Списано: 2,5 медиа/);
    const request = spied.adjustBalance.mock.calls[0]?.[0] as { params: { id: number }; body: { wallet: string; amount: number; reason: string; request_id: string } };
    expect(request.params.id).toBe(42);
    expect(request.body).toMatchObject({ wallet: 'media', amount: -2.5, reason: 'Ошибочное начисление' });
    expect(request.body.request_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('the server’s refusal shows by the field or above the form', async () => {
    const api = fakeAdminApi();
    api.adjustBalance = Object.assign(() => Promise.reject(new ApiError(409, 'BALANCE_TOO_LOW', 'Нельзя списать больше, чем есть на балансе')), { route: api.adjustBalance.route });
    const { user } = setup('/admin/users/42', api);
    const form = await screen.findByRole('form', { name: 'Корректировка баланса' });
    await user.type(within(form).getByLabelText(/^Сумма \(минус — списать\)/), '-999999');
    await user.type(within(form).getByLabelText(/^Причина/), 'Списание');
    await user.click(within(form).getByRole('button', { name: 'Применить' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('Нельзя списать больше, чем есть на балансе');
  });

  it('blocking asks first; «Нет» changes nothing, «Да» blocks', async () => {
    const { spied, user } = setup('/admin/users/42');
    await user.click(await screen.findByRole('button', { name: 'Заблокировать' }));
    await user.click(within(screen.getByRole('group', { name: 'Подтверждение' })).getByRole('button', { name: 'Нет' }));
    expect(spied.updateUser).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Заблокировать' }));
    await user.click(within(screen.getByRole('group', { name: 'Подтверждение' })).getByRole('button', { name: 'Да' }));
    await waitFor(() => expect(spied.updateUser).toHaveBeenCalledWith({ params: { id: 42 }, body: { blocked: true } }));
    expect(await screen.findByRole('button', { name: 'Разблокировать' })).toBeTruthy();
  });

  it('the last admin’s refusal is shown', async () => {
    const api = fakeAdminApi({ user: () => Promise.resolve({ ...DETAIL, role: 'admin' }) });
    api.updateUser = Object.assign(() => Promise.reject(new ApiError(409, 'LAST_ADMIN', 'Нельзя снять права с последнего администратора')), { route: api.updateUser.route });
    const { user } = setup('/admin/users/42', api);
    await user.click(await screen.findByRole('button', { name: 'Снять права администратора' }));
    await user.click(within(screen.getByRole('group', { name: 'Подтверждение' })).getByRole('button', { name: 'Да' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Нельзя снять права с последнего администратора');
  });
});

describe('the audit log', () => {
  it('shows who changed what, and each changed field as before → after', async () => {
    setup('/admin/audit');
    const table = await screen.findByRole('table');
    expect(await within(table).findAllByText('Корректировка баланса')).toHaveLength(2);
    expect(within(table).getAllByText('boris@example.ru').length).toBeGreaterThan(1);
    expect(within(table).getByText('удалённый аккаунт')).toBeTruthy();
  });
});
