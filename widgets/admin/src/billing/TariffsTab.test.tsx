import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryProvider, createQueryClient } from '@app/kit';
import { Admin } from '../Admin.tsx';
import { fakeAdminApi } from '../fake-api.ts';
import { fakeBillingApi } from './fake-api.ts';

/* A plan's trial in «Тарифы»: its fields only for a plan that has one, nowhere else. */

function setup(path: string) {
  window.history.replaceState(null, '', path);
  const api = { ...fakeAdminApi(), ...fakeBillingApi() };
  const updateTariff = vi.spyOn(api, 'updateTariff');
  render(
    <QueryProvider client={createQueryClient()}>
      <Admin api={api} />
    </QueryProvider>,
  );
  return { updateTariff, user: userEvent.setup() };
}
const plain = (node: Element) => node.textContent.replace(/\s/g, ' ');

beforeEach(() => {
  window.history.replaceState(null, '', '/admin');
});

describe('a plan’s trial in «Тарифы»', () => {
  it('a monthly plan without a trial has no trial fields, and its card no trial line', async () => {
    setup('/admin/tariff/3');
    const form = await screen.findByRole('form', { name: 'Тариф «Бизнес»' });
    expect(within(form).queryByLabelText(/^Дней пробного периода/)).toBeNull();
    expect(within(form).queryByLabelText(/^Цена пробного периода/)).toBeNull();
    const card = within(screen.getByRole('region', { name: 'Предпросмотр карточки' })).getByRole('article');
    expect(plain(card)).not.toMatch(/за \d/);
    expect(plain(card)).toContain('2 490 ₽ в месяц');
  });

  it('a plan with a trial shows them; made monthly, they go, and the trial price is sent empty', async () => {
    const { updateTariff, user } = setup('/admin/tariff/2');
    const form = await screen.findByRole('form', { name: 'Тариф «Про»' });
    expect(within(form).getByLabelText(/^Дней пробного периода/)).toHaveValue('3');
    expect(within(form).getByLabelText(/^Цена пробного периода/)).toHaveValue('149');
    await user.selectOptions(within(form).getByLabelText(/^Тип/), '2');
    expect(within(form).queryByLabelText(/^Дней пробного периода/)).toBeNull();
    expect(within(form).queryByLabelText(/^Цена пробного периода/)).toBeNull();
    expect(plain(within(screen.getByRole('region', { name: 'Предпросмотр карточки' })).getByRole('article'))).toContain('990 ₽ в месяц');
    await user.click(within(form).getByRole('button', { name: 'Сохранить' }));
    await within(form).findByText('Сохранено. Страница тарифов уже показывает изменения.');
    expect(updateTariff.mock.calls[0]?.[0]).toMatchObject({ params: { id: 2 }, body: { subscriptions_type: 2, first_amount: null } });
    // Back to a plan with a trial: the fields are there again, the price to be typed anew.
    await user.selectOptions(within(form).getByLabelText(/^Тип/), '1');
    expect(within(form).getByLabelText(/^Цена пробного периода/)).toHaveValue('');
    expect(within(form).getByLabelText(/^Дней пробного периода/)).toHaveValue('3');
  });

  it('the list says «—» for a plan without a trial and the price with its days for one with', async () => {
    setup('/admin/tariff');
    const table = await screen.findByRole('table');
    const business = (await within(table).findByRole('link', { name: 'Бизнес' })).closest('tr') as HTMLElement;
    const pro = within(table).getByRole('link', { name: 'Про' }).closest('tr') as HTMLElement;
    expect(plain(pro)).toContain('149 ₽ за 3 дня');
    expect(plain(business)).not.toContain('за 3 дня');
  });
});
