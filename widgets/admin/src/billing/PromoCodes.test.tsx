import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, QueryProvider, createQueryClient } from '@app/kit';
import { Admin } from '../Admin.tsx';
import { fakeAdminApi } from '../fake-api.ts';
import { parseAdminRoute } from '../routes.ts';
import { fakeBillingApi, type FakeBillingAnswers } from './fake-api.ts';

function setup(path: string, answers: FakeBillingAnswers = {}) {
  window.history.replaceState(null, '', path);
  const api = { ...fakeAdminApi(), ...fakeBillingApi(answers) };
  const spied = { promoCodes: vi.spyOn(api, 'promoCodes'), createPromoCode: vi.spyOn(api, 'createPromoCode'), updatePromoCode: vi.spyOn(api, 'updatePromoCode') };
  render(
    <QueryProvider client={createQueryClient()}>
      <Admin api={api} />
    </QueryProvider>,
  );
  return { api, spied, user: userEvent.setup() };
}

const plain = (node: Element) => node.textContent.replace(/\s/g, ' ');

beforeEach(() => {
  window.history.replaceState(null, '', '/admin');
});

describe('«Тарифы» › «Промокоды»', () => {
  it('is a section of the fifth tab: its addresses keep «Тарифы» current, the sixteen tabs stay as they are', () => {
    expect(parseAdminRoute('/admin/promo-codes')).toMatchObject({ kind: 'tab', tab: { flag: 'tab5' }, id: null, section: 'promo' });
    expect(parseAdminRoute('/admin/promo-codes/12')).toMatchObject({ tab: { flag: 'tab5' }, id: 12, section: 'promo' });
    expect(parseAdminRoute('/admin/promo-codes/x')).toEqual({ kind: 'unknown' });
    setup('/admin/promo-codes');
    const tabs = screen.getByRole('navigation', { name: 'Разделы админки' });
    expect(within(tabs).getAllByRole('link')).toHaveLength(16);
    expect(within(tabs).getByRole('link', { name: 'Тарифы' }).getAttribute('aria-current')).toBe('page');
  });

  it('lists the codes with what each gives, its uses and state; the sections switch between plans and codes', async () => {
    const { spied, user } = setup('/admin/promo-codes');
    const table = await screen.findByRole('table');
    const welcome = (await within(table).findByText('WELCOME2026')).closest('tr') as HTMLElement;
    expect(plain(welcome)).toContain('5 000 слов + 1,5 медиа');
    expect(plain(welcome)).toContain('214 из 1000');
    expect(plain(welcome)).toContain('Действует');
    const start = within(table).getByText('START20').closest('tr') as HTMLElement;
    expect(plain(start)).toContain('Скидка 20 % на первую оплату тарифа «Про»');
    expect(plain(start)).toContain('Новые');
    expect(plain(start)).toContain('по 31.12.2026');
    expect(plain(within(table).getByText('BLACKFRIDAY').closest('tr') as HTMLElement)).toContain('Закончился');
    expect(plain(within(table).getByText('TESTONLY').closest('tr') as HTMLElement)).toContain('Отключён');
    expect(spied.promoCodes).toHaveBeenLastCalledWith({ query: { q: '', sort: 'id', dir: 'desc', page: 1 } });
    await user.click(screen.getByRole('link', { name: 'Тарифы и пакеты' }));
    expect(window.location.pathname).toBe('/admin/tariff');
    await user.click(await screen.findByRole('link', { name: 'Промокоды' }));
    expect(window.location.pathname).toBe('/admin/promo-codes');
  });

  it('a new code is checked before sending (Russian messages by field), then created and opened', async () => {
    const { spied, user } = setup('/admin/promo-codes?new=1');
    const form = await screen.findByRole('form', { name: 'Новый промокод' });
    await user.type(within(form).getByLabelText(/Код/), 'ab');
    await user.click(within(form).getByRole('button', { name: 'Создать промокод' }));
    expect(await within(form).findByText('Промокод — от 4 до 32 латинских букв и цифр')).toBeTruthy();
    expect(spied.createPromoCode).not.toHaveBeenCalled();
    await user.clear(within(form).getByLabelText(/Код/));
    await user.type(within(form).getByLabelText(/Код/), 'autumn25');
    await user.selectOptions(within(form).getByLabelText(/Что даёт/), 'discount');
    expect(within(form).queryByLabelText('Слов')).toBeNull();
    await user.type(within(form).getByLabelText('Скидка, %'), '25');
    await user.type(within(form).getByLabelText('Использований всего'), '50');
    await user.click(within(form).getByLabelText(/Только для новых/));
    await user.type(within(form).getByLabelText('Действует по'), '2026-12-31');
    await user.click(within(form).getByRole('button', { name: 'Создать промокод' }));
    await waitFor(() => expect(spied.createPromoCode).toHaveBeenCalled());
    expect(spied.createPromoCode.mock.calls[0]?.[0]).toEqual({
      body: { code: 'AUTUMN25', kind: 'discount', words: 1000, media: 0, discount_percent: 25, tariff_id: null, max_uses: 50, new_users_only: true, starts_on: null, ends_on: '2026-12-31', note: null, active: true },
    });
    await waitFor(() => expect(window.location.pathname).toBe('/admin/promo-codes/9'));
    expect(await screen.findByText('Промокод создан: пользователи уже могут его активировать.')).toBeTruthy();
  });

  it('one code: its redemptions with their payments; switching it off is saved and said', async () => {
    const { spied, user } = setup('/admin/promo-codes/4');
    const redemptions = await screen.findByRole('region', { name: 'Активации' });
    expect(plain(within(redemptions).getByText('anna@example.ru').closest('li') as HTMLElement)).toContain('−99,8 ₽ · платёж №118 оплачен');
    expect(plain(within(redemptions).getByText('boris@example.ru').closest('li') as HTMLElement)).toContain('ждёт оплаты');
    const form = screen.getByRole('form', { name: 'Промокод START20' });
    await user.click(within(form).getByLabelText(/Действует \(снимите/));
    await user.click(within(form).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(spied.updatePromoCode).toHaveBeenCalledWith({ params: { id: 4 }, body: { max_uses: null, new_users_only: true, starts_on: null, ends_on: '2026-12-31', note: null, active: false } }));
    expect(await within(form).findByText('Сохранено: промокод отключён, активировать его больше нельзя.')).toBeTruthy();
  });

  it('a code taken already is shown on its field', async () => {
    const { user } = setup('/admin/promo-codes?new=1', { createPromoCode: () => Promise.reject(new ApiError(400, 'VALIDATION', { code: ['Такой промокод уже есть'] })) });
    const form = await screen.findByRole('form', { name: 'Новый промокод' });
    await user.type(within(form).getByLabelText(/Код/), 'WELCOME2026');
    await user.click(within(form).getByRole('button', { name: 'Создать промокод' }));
    expect(await within(form).findByText('Такой промокод уже есть')).toBeTruthy();
  });
});
