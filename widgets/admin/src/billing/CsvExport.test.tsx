import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, QueryProvider, createQueryClient } from '@app/kit';
import { Admin } from '../Admin.tsx';
import { addDays, analyticsToday } from '../activity/days.ts';
import { fakeAdminApi } from '../fake-api.ts';

/* The CSV exports as staff start them: a period of Moscow days checked before asking, the file saved under its name, a refusal said in Russian. */

function setup(path: string) {
  window.history.replaceState(null, '', path);
  const api = fakeAdminApi();
  const spied = { exportPayments: vi.spyOn(api, 'exportPayments'), exportLedger: vi.spyOn(api, 'exportLedger') };
  render(
    <QueryProvider client={createQueryClient()}>
      <Admin api={api} />
    </QueryProvider>,
  );
  return { api, spied, user: userEvent.setup() };
}

/** What the page saved: the file's name and its text. */
const saved: { name: string; file: Blob }[] = [];

beforeEach(() => {
  saved.length = 0;
  let lastFile: Blob | null = null;
  Object.assign(URL, {
    createObjectURL: vi.fn((file: Blob) => {
      lastFile = file;
      return 'blob:export';
    }),
    revokeObjectURL: vi.fn(),
  });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    if (lastFile) saved.push({ name: this.download, file: lastFile });
  });
});
afterEach(() => vi.restoreAllMocks());

describe('«Платежи»: Выгрузка в CSV', () => {
  it('offers the last 30 Moscow days and saves the payments of the period chosen', async () => {
    const { spied, user } = setup('/admin/payments');
    const form = await screen.findByRole('form', { name: 'Выгрузка в CSV' });
    const today = analyticsToday();
    expect(within(form).getByLabelText<HTMLInputElement>('С').value).toBe(addDays(today, -29));
    expect(within(form).getByLabelText<HTMLInputElement>('По').value).toBe(today);
    fireEvent.change(within(form).getByLabelText('С'), { target: { value: '2026-01-01' } });
    fireEvent.change(within(form).getByLabelText('По'), { target: { value: '2026-01-31' } });
    await user.click(within(form).getByRole('button', { name: 'Платежи и возвраты, CSV' }));
    await waitFor(() => expect(saved.map((s) => s.name)).toEqual(['payments_2026-01-01_2026-01-31.csv']));
    expect(spied.exportPayments).toHaveBeenCalledWith({ query: { from: '2026-01-01', to: '2026-01-31' } });
    expect(await saved[0]?.file.text()).toContain('2026-01-01;Оплата');
    await user.click(within(form).getByRole('button', { name: 'Движение токенов, CSV' }));
    await waitFor(() => expect(saved.map((s) => s.name)).toEqual(['payments_2026-01-01_2026-01-31.csv', 'ledger_2026-01-01_2026-01-31.csv']));
  });

  it('checks the period with the API’s rules first: nothing is asked for a wrong one', async () => {
    const { spied, user } = setup('/admin/payments');
    const form = await screen.findByRole('form', { name: 'Выгрузка в CSV' });
    fireEvent.change(within(form).getByLabelText('С'), { target: { value: '2026-02-10' } });
    fireEvent.change(within(form).getByLabelText('По'), { target: { value: '2026-02-01' } });
    await user.click(within(form).getByRole('button', { name: 'Платежи и возвраты, CSV' }));
    expect(within(form).getByText('Начало периода позже его конца')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('С'), { target: { value: '2024-01-01' } });
    await user.click(within(form).getByRole('button', { name: 'Платежи и возвраты, CSV' }));
    expect(within(form).getByText('Период не длиннее 366 дней')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('С'), { target: { value: '' } });
    await user.click(within(form).getByRole('button', { name: 'Движение токенов, CSV' }));
    expect(within(form).getByText('Укажите дату')).toBeTruthy();
    expect(spied.exportPayments).not.toHaveBeenCalled();
    expect(spied.exportLedger).not.toHaveBeenCalled();
    expect(saved).toEqual([]);
  });

  it('shows the server’s refusal and saves nothing', async () => {
    const { api, user } = setup('/admin/payments');
    vi.spyOn(api, 'exportPayments').mockRejectedValue(new ApiError(401, 'UNAUTHENTICATED', 'Войдите в аккаунт'));
    const form = await screen.findByRole('form', { name: 'Выгрузка в CSV' });
    await user.click(within(form).getByRole('button', { name: 'Платежи и возвраты, CSV' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('Войдите в аккаунт');
    expect(saved).toEqual([]);
  });
});

describe('«Аналитика»: the period shown, as CSV', () => {
  it('downloads the payments and the ledger of the period the analytics show', async () => {
    const { spied, user } = setup('/admin/analytics?from=2026-01-01&to=2026-01-31');
    const exports = await screen.findByRole('group', { name: 'Выгрузка периода в CSV' });
    await user.click(within(exports).getByRole('button', { name: 'Движение токенов, CSV' }));
    await waitFor(() => expect(saved.map((s) => s.name)).toEqual(['ledger_2026-01-01_2026-01-31.csv']));
    expect(spied.exportLedger).toHaveBeenCalledWith({ query: { from: '2026-01-01', to: '2026-01-31' } });
    await user.click(within(exports).getByRole('button', { name: 'Платежи и возвраты, CSV' }));
    await waitFor(() => expect(spied.exportPayments).toHaveBeenCalledWith({ query: { from: '2026-01-01', to: '2026-01-31' } }));
  });
});
