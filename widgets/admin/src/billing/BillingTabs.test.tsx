import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, QueryProvider, createQueryClient } from '@app/kit';
import { Admin } from '../Admin.tsx';
import { fakeAdminApi } from '../fake-api.ts';
import { fakeBillingApi, type FakeBillingAnswers } from './fake-api.ts';
import { PAYMENT, PAYMENTS, TARIFFS } from './fixtures.ts';
import { billingHref } from './list.ts';
import { RefundForm } from './PaymentsTab.tsx';
import { tariffBody } from './TariffsTab.tsx';
import { causeLabel } from './texts.ts';

function setup(path: string, answers: FakeBillingAnswers = {}) {
  window.history.replaceState(null, '', path);
  const api = { ...fakeAdminApi(), ...fakeBillingApi(answers) };
  const spied = {
    tariffs: vi.spyOn(api, 'tariffs'),
    updateTariff: vi.spyOn(api, 'updateTariff'),
    createTariff: vi.spyOn(api, 'createTariff'),
    subscriptions: vi.spyOn(api, 'subscriptions'),
    payments: vi.spyOn(api, 'payments'),
    refundPayment: vi.spyOn(api, 'refundPayment'),
    subscriptionLog: vi.spyOn(api, 'subscriptionLog'),
    updateDashboardCard: vi.spyOn(api, 'updateDashboardCard'),
    deleteDashboardCard: vi.spyOn(api, 'deleteDashboardCard'),
  };
  render(
    <QueryProvider client={createQueryClient()}>
      <Admin api={api} />
    </QueryProvider>,
  );
  return { api, spied, user: userEvent.setup() };
}

const rejectWith = (status: number, code: string, text: unknown) => () => Promise.reject(new ApiError(status, code, text));
/** Text with the non-breaking spaces of Russian number formatting read as spaces. */
const plain = (node: Element) => node.textContent.replace(/\s/g, ' ');

beforeEach(() => {
  window.history.replaceState(null, '', '/admin');
});

describe('the list addresses', () => {
  it('keep the filters and the open record after the search, sort and page', () => {
    expect(billingHref('/admin/payments', { q: 'anna', sort: 'id', dir: 'desc', page: 2 }, 'id', { status: 'paid', payment: 15, kind: null })).toBe('/admin/payments?q=anna&page=2&status=paid&payment=15');
    expect(billingHref('/admin/log', { q: '', sort: 'created_at', dir: 'desc', page: 1 }, 'created_at')).toBe('/admin/log');
  });
});

describe('«Тарифы»', () => {
  it('lists plans with type, price and trial, sorted on the server by the columns it names', async () => {
    const { spied, user } = setup('/admin/tariff');
    const table = await screen.findByRole('table');
    const pro = (await within(table).findByRole('link', { name: 'Про' })).closest('tr') as HTMLElement;
    expect(plain(pro)).toContain('Месячный + пробный');
    expect(plain(pro)).toContain('990 ₽/мес');
    expect(plain(pro)).toContain('149 ₽ за 3 дня');
    expect(within(pro).getByText('Популярный')).toBeTruthy();
    expect(spied.tariffs).toHaveBeenLastCalledWith({ query: { q: '', sort: 'sort', dir: 'desc', page: 1 } });
    await user.click(screen.getByRole('button', { name: /Цена/ }));
    await waitFor(() => expect(window.location.search).toBe('?sort=amount'));
    expect(spied.tariffs).toHaveBeenLastCalledWith({ query: { q: '', sort: 'amount', dir: 'desc', page: 1 } });
    expect(screen.queryByRole('button', { name: /Слова/ })).toBeNull();
  });

  it('a sort the server does not know falls back to the order', async () => {
    const { spied } = setup('/admin/tariff?sort=words');
    await screen.findByRole('link', { name: 'Про' });
    expect(spied.tariffs).toHaveBeenLastCalledWith({ query: { q: '', sort: 'sort', dir: 'desc', page: 1 } });
  });

  it('opens a plan with every field, and the card previews what is typed, markers as icons', async () => {
    const { user } = setup('/admin/tariff');
    await user.click(await screen.findByRole('link', { name: 'Про' }));
    expect(window.location.pathname).toBe('/admin/tariff/2');
    const form = await screen.findByRole('form', { name: 'Тариф «Про»' });
    expect(within(form).getByLabelText(/^Название/)).toHaveValue('Про');
    expect(within(form).getByLabelText(/^Тип/)).toHaveValue('1');
    expect(within(form).getByLabelText(/^Цена пробного периода/)).toHaveValue('149');
    expect(within(form).getByLabelText(/^Строки описания/)).toHaveValue(TARIFFS[1]?.description.join('\n'));
    expect(within(form).getByLabelText(/^Популярный/)).toBeChecked();
    expect(within(form).getByLabelText('В продаже')).toBeChecked();
    const preview = screen.getByRole('region', { name: 'Предпросмотр карточки' });
    expect(within(preview).getByRole('article', { name: 'Про' })).toBeTruthy();
    expect(plain(within(preview).getByRole('article'))).toContain('149 ₽ за 3 дня');
    expect(within(preview).getByText('Популярный')).toBeTruthy();

    await user.clear(within(form).getByLabelText(/^Название/));
    await user.type(within(form).getByLabelText(/^Название/), 'Про Плюс');
    const lines = within(form).getByLabelText(/^Строки описания/);
    await user.clear(lines);
    await user.type(lines, '[[[[media]] 120 медиа токенов в месяц');
    const card = within(preview).getByRole('article', { name: 'Про Плюс' });
    expect(within(card).getByRole('img', { name: 'медиа токены' })).toBeTruthy();
    expect(plain(card)).toContain('120 медиа токенов в месяц');
    await user.click(within(form).getByLabelText('В продаже'));
    expect(within(preview).getByText('Тариф снят с продажи: на странице тарифов его не видно.')).toBeTruthy();
  });

  it('saves every field and says the plans page already shows it', async () => {
    const { spied, user } = setup('/admin/tariff/3');
    const form = await screen.findByRole('form', { name: 'Тариф «Бизнес»' });
    const price = within(form).getByLabelText(/^Цена, ₽/);
    await user.clear(price);
    await user.type(price, '2990,5');
    await user.click(within(form).getByRole('button', { name: 'Сохранить' }));
    await within(form).findByText('Сохранено. Страница тарифов уже показывает изменения.');
    expect(spied.updateTariff).toHaveBeenCalledWith({
      params: { id: 3 },
      body: {
        name: 'Бизнес',
        amount: 2990.5,
        first_amount: null,
        description: TARIFFS[2]?.description,
        subscriptions_type: 2,
        popular: false,
        currency_provider: 'RUB',
        words: 1_000_000,
        media: 300,
        trial_days: 3,
        sort: 30,
        active: true,
      },
    });
  });

  it('shows the server’s messages by their fields (a description line counts for the lines)', async () => {
    const { user } = setup('/admin/tariff/4', {
      updateTariff: rejectWith(400, 'VALIDATION', { first_amount: ['У разового пакета нет первого платежа'], 'description.1': ['Значки в описании: [[words]] и [[media]]'] }),
    });
    const form = await screen.findByRole('form', { name: 'Тариф «Пакет медиа»' });
    await user.click(within(form).getByRole('button', { name: 'Сохранить' }));
    expect(await within(form).findByText('У разового пакета нет первого платежа')).toBeTruthy();
    expect(within(form).getByLabelText(/^Строки описания/)).toHaveAccessibleDescription('Значки в описании: [[words]] и [[media]]');
  });

  it('a required field left empty is not sent', async () => {
    const { spied, user } = setup('/admin/tariff/3');
    const form = await screen.findByRole('form', { name: 'Тариф «Бизнес»' });
    await user.clear(within(form).getByLabelText(/^Название/));
    await user.click(within(form).getByRole('button', { name: 'Сохранить' }));
    expect(within(form).getByLabelText(/^Название/)).toHaveAccessibleDescription('Укажите название');
    expect(spied.updateTariff).not.toHaveBeenCalled();
  });

  it('creates a plan and opens it', async () => {
    const { spied, user } = setup('/admin/tariff');
    await user.click(await screen.findByRole('link', { name: 'Новый тариф' }));
    const form = await screen.findByRole('form', { name: 'Новый тариф' });
    await user.type(within(form).getByLabelText(/^Название/), 'Студент');
    await user.type(within(form).getByLabelText(/^Цена, ₽/), '290');
    await user.click(within(form).getByRole('button', { name: 'Создать тариф' }));
    await waitFor(() => expect(window.location.pathname).toBe('/admin/tariff/9'));
    expect(await screen.findByText('Тариф создан. Он уже на странице тарифов, если в продаже.')).toBeTruthy();
    expect(spied.createTariff.mock.calls[0]?.[0]).toMatchObject({ body: { name: 'Студент', amount: 290, subscriptions_type: 2, currency_provider: 'RUB', trial_days: 3, sort: 0, active: true } });
  });

  it('an unknown plan says so, with the way back', async () => {
    setup('/admin/tariff/99');
    expect(await screen.findByText('Тариф не найден')).toBeTruthy();
    expect(screen.getByRole('link', { name: '← Все тарифы' })).toHaveAttribute('href', '/admin/tariff');
  });

  it('reads the editor’s values as the server takes them', () => {
    expect(tariffBody({ name: 'A', amount: 1, first_amount: null, description: ['x'], subscriptions_type: '3', popular: true, currency_provider: 'RUB', words: 5, media: 0.5, trial_days: 0, sort: -1, active: false })).toEqual({
      name: 'A',
      amount: 1,
      first_amount: null,
      description: ['x'],
      subscriptions_type: 3,
      popular: true,
      currency_provider: 'RUB',
      words: 5,
      media: 0.5,
      trial_days: 0,
      sort: -1,
      active: false,
    });
  });
});

describe('«Подписки»', () => {
  it('filters by status in the address and on the server', async () => {
    const { spied, user } = setup('/admin/subscriptions');
    await screen.findByRole('link', { name: 'anna@example.ru' });
    await user.selectOptions(screen.getByLabelText('Статус'), 'cancelled');
    await waitFor(() => expect(window.location.search).toBe('?status=cancelled'));
    expect(spied.subscriptions).toHaveBeenLastCalledWith({ query: { q: '', status: 'cancelled', sort: 'id', dir: 'desc', page: 1 } });
    await user.selectOptions(screen.getByLabelText('Статус'), '');
    await waitFor(() => expect(window.location.search).toBe(''));
  });

  it('opens a subscription in a window with its log and payments; closing keeps the list', async () => {
    const { user } = setup('/admin/subscriptions?status=active');
    await user.click(await screen.findByRole('link', { name: '7' }));
    expect(window.location.search).toBe('?status=active&subscription=7');
    const dialog = await screen.findByRole('dialog', { name: 'Подписка №7 · Про' });
    const log = within(dialog).getByRole('region', { name: 'Журнал' });
    expect(within(log).getByText('Продлена')).toBeTruthy();
    expect(within(log).getByText('Выставлен счёт')).toBeTruthy();
    expect(within(within(dialog).getByRole('region', { name: 'Платежи' })).getByRole('link', { name: '15' })).toHaveAttribute('href', '/admin/payments?payment=15');
    await user.click(within(dialog).getByRole('button', { name: 'Закрыть' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(window.location.search).toBe('?status=active');
  });
});

describe('«Платежи»', () => {
  it('filters by status; a payment shows what went back and what is on its way', async () => {
    const { spied, user } = setup('/admin/payments');
    const row = (await screen.findByRole('link', { name: '15' })).closest('tr') as HTMLElement;
    expect(plain(row)).toContain('200 ₽ + 100 ₽ в пути');
    await user.selectOptions(screen.getByLabelText('Статус'), 'refunded');
    await waitFor(() => expect(spied.payments).toHaveBeenLastCalledWith({ query: { q: '', status: 'refunded', sort: 'id', dir: 'desc', page: 1 } }));
  });

  it('refunds once per opening of the form, after a confirmation, and says money and tokens move when CloudPayments confirms', async () => {
    const { spied, user } = setup('/admin/payments?payment=15');
    const dialog = await screen.findByRole('dialog', { name: 'Платёж №15' });
    expect(within(await within(dialog).findByRole('region', { name: 'Возвраты' })).getByText('Ждёт подтверждения')).toBeTruthy();
    expect(within(within(dialog).getByRole('region', { name: 'Движение токенов' })).getAllByText('Возврат платежа')).toHaveLength(2);
    const form = within(dialog).getByRole('form', { name: 'Возврат' });
    expect(within(form).getByText(/когда CloudPayments подтвердит/)).toBeTruthy();

    await user.click(within(form).getByRole('button', { name: 'Вернуть деньги' }));
    expect(within(form).getByLabelText('Сумма, ₽')).toHaveAccessibleDescription('Укажите сумму числом');
    expect(within(form).getByLabelText('Причина')).toHaveAccessibleDescription('Опишите причину (от 3 символов)');
    await user.type(within(form).getByLabelText('Сумма, ₽'), '700');
    await user.type(within(form).getByLabelText('Причина'), 'Сбой генерации');
    await user.click(within(form).getByRole('button', { name: 'Вернуть деньги' }));
    expect(plain(within(form).getByLabelText('Сумма, ₽').closest('.field') as HTMLElement)).toContain('Можно вернуть не больше 690 ₽');

    await user.click(within(form).getByRole('button', { name: /Вся сумма/ }));
    expect(within(form).getByLabelText('Сумма, ₽')).toHaveValue('690');
    await user.click(within(form).getByRole('button', { name: 'Вернуть деньги' }));
    const confirm = within(form).getByRole('group', { name: 'Подтверждение возврата' });
    expect(plain(confirm)).toContain('Вернуть 690 ₽ пользователю anna@example.ru?');
    await user.dblClick(within(confirm).getByRole('button', { name: 'Да, вернуть' }));
    await within(form).findByText('Возврат 690 ₽ запрошен. Деньги и токены спишутся, когда CloudPayments подтвердит его.');
    expect(spied.refundPayment).toHaveBeenCalledTimes(1);
    const first = spied.refundPayment.mock.calls[0]?.[0] as { params: { id: number }; body: { amount: number; reason: string; request_id: string } };
    expect(first.params.id).toBe(15);
    expect(first.body).toMatchObject({ amount: 690, reason: 'Сбой генерации' });
    expect(first.body.request_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a second refund in the same window gets its own request id', async () => {
    const { spied, user } = setup('/admin/payments?payment=15', { refundPayment: () => Promise.resolve(PAYMENT) });
    const form = await screen.findByRole('form', { name: 'Возврат' });
    const refund = async (amount: string) => {
      await user.type(within(form).getByLabelText('Сумма, ₽'), amount);
      await user.type(within(form).getByLabelText('Причина'), 'Компенсация');
      await user.click(within(form).getByRole('button', { name: 'Вернуть деньги' }));
      await user.click(within(form).getByRole('button', { name: 'Да, вернуть' }));
      await within(form).findByText(new RegExp(`Возврат ${amount} ₽ запрошен`));
    };
    await refund('10');
    await refund('20');
    const ids = spied.refundPayment.mock.calls.map((c) => (c[0] as { body: { request_id: string } }).body.request_id);
    expect(new Set(ids).size).toBe(2);
  });

  it('the message of a refund follows its status: asked, then done — never «запрошен» beside «Проведён»; a change of the form takes it away', async () => {
    const asked = { ...PAYMENT, refunding: 150, refundable: 50, refunds: [{ id: 9, amount: 50, applied: null, status: 'requested' as const, reason: 'Сбой', cause: null, actor_id: 41, actor_email: 'boris@example.ru', refund_transaction_id: null, created_at: PAYMENT.created_at, applied_at: null }, ...PAYMENT.refunds] };
    const api = { ...fakeAdminApi(), ...fakeBillingApi({ refundPayment: () => Promise.resolve(asked) }) };
    const user = userEvent.setup();
    const { rerender } = render(<RefundForm api={api} payment={PAYMENT} onDone={() => undefined} />);
    const form = screen.getByRole('form', { name: 'Возврат' });
    await user.type(within(form).getByLabelText('Сумма, ₽'), '50');
    await user.type(within(form).getByLabelText('Причина'), 'Сбой');
    await user.click(within(form).getByRole('button', { name: 'Вернуть деньги' }));
    await user.click(within(form).getByRole('button', { name: 'Да, вернуть' }));
    expect(plain(await within(form).findByRole('status'))).toBe('Возврат 50 ₽ запрошен. Деньги и токены спишутся, когда CloudPayments подтвердит его.');

    // The window reads the payment again: CloudPayments confirmed the refund.
    const done = { ...asked, refunding: 100, refunded: 250, refunds: asked.refunds.map((r) => (r.id === 9 ? { ...r, status: 'done' as const, applied: 50, applied_at: PAYMENT.created_at } : r)) };
    rerender(<RefundForm api={api} payment={done} onDone={() => undefined} />);
    expect(plain(within(form).getByRole('status'))).toBe('Возврат 50 ₽ проведён: CloudPayments подтвердил его, токены в той же доле списаны.');
    expect(within(form).queryByText(/запрошен/)).toBeNull();

    // Refused instead: said as an error.
    rerender(<RefundForm api={api} payment={{ ...done, refunds: done.refunds.map((r) => (r.id === 9 ? { ...r, status: 'failed' as const, applied: null } : r)) }} onDone={() => undefined} />);
    expect(plain(within(form).getByRole('alert'))).toBe('CloudPayments отклонил возврат 50 ₽. Деньги и токены остались на месте.');

    await user.type(within(form).getByLabelText('Сумма, ₽'), '1');
    expect(within(form).queryByRole('alert')).toBeNull();
    expect(within(form).queryByRole('status')).toBeNull();
  });

  it.each([
    ['too large: by the amount', rejectWith(409, 'REFUND_TOO_LARGE', { amount: ['Можно вернуть не больше 50,00 ₽'] }), null],
    ['the sandbox switched off', rejectWith(422, 'SANDBOX_DISABLED', 'Тестовый режим отключён администратором'), 'Тестовый режим отключён администратором. Включите песочницу оплаты в разделе «Настройки» и повторите возврат.'],
    ['a payment not paid', rejectWith(409, 'REFUND_NOT_ALLOWED', 'Вернуть можно только оплаченный платёж'), 'Вернуть можно только оплаченный платёж: этот платёж не оплачен или ещё не подтверждён CloudPayments.'],
  ])('shows the server’s refusal of a refund: %s', async (_, refundPayment, message) => {
    const { user } = setup('/admin/payments?payment=15', { refundPayment });
    const form = await screen.findByRole('form', { name: 'Возврат' });
    await user.type(within(form).getByLabelText('Сумма, ₽'), '100');
    await user.type(within(form).getByLabelText('Причина'), 'Возврат');
    await user.click(within(form).getByRole('button', { name: 'Вернуть деньги' }));
    await user.click(within(form).getByRole('button', { name: 'Да, вернуть' }));
    if (message) expect((await within(form).findByRole('alert')).textContent).toBe(message);
    else await waitFor(() => expect(within(form).getByLabelText('Сумма, ₽')).toHaveAccessibleDescription('Можно вернуть не больше 50,00 ₽'));
    expect(within(form).getByRole('button', { name: 'Вернуть деньги' })).toBeTruthy();
  });

  it('a failed payment shows why and offers no refund', async () => {
    setup('/admin/payments?payment=13', { payment: () => Promise.resolve({ ...(PAYMENTS[3] as (typeof PAYMENTS)[number]), refunds: [], duplicates: [], ledger: [] }) });
    const dialog = await screen.findByRole('dialog', { name: 'Платёж №13' });
    expect(await within(dialog).findByText('Причина отказа: Недостаточно средств на карте')).toBeTruthy();
    expect(within(dialog).getByText('Вернуть можно только оплаченный платёж.')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Вернуть деньги' })).toBeNull();
  });
});

describe('abandoned and declined checkouts in the admin’s words', () => {
  it('an invoice nobody paid in time says so, not its code', async () => {
    setup('/admin/payments?payment=13', { payment: () => Promise.resolve({ ...(PAYMENTS[3] as (typeof PAYMENTS)[number]), failure_reason: 'checkout_expired', refunds: [], duplicates: [], ledger: [] }) });
    const dialog = await screen.findByRole('dialog', { name: 'Платёж №13' });
    expect(await within(dialog).findByText('Причина отказа: счёт не оплачен за сутки')).toBeTruthy();
  });

  it('the log names the causes of closing a checkout and of a late payment', () => {
    expect(causeLabel('checkout_expired')).toBe('Счёт не оплачен за сутки');
    expect(causeLabel('payment_declined')).toBe('Оплата отклонена');
    expect(causeLabel('paid_after_checkout_closed')).toBe('Оплата пришла после закрытия счёта');
  });
});

describe('«Лог подписок»', () => {
  it('shows status changes and renewal charges, filtered by kind in the address', async () => {
    const { spied, user } = setup('/admin/log');
    const table = await screen.findByRole('table');
    await within(table).findByText('Списание за продление не прошло');
    const charge = within(table).getAllByText('не прошло')[0]?.closest('tr') as HTMLElement;
    expect(plain(charge)).toContain('Списание 2 490 ₽');
    expect(plain(charge)).toContain('Недостаточно средств на карте');
    expect(within(table).getAllByRole('link', { name: '№7 · Про' })[0]).toHaveAttribute('href', '/admin/subscriptions?subscription=7');
    await user.selectOptions(screen.getByLabelText('Вид'), 'charge');
    await waitFor(() => expect(window.location.search).toBe('?kind=charge'));
    expect(spied.subscriptionLog).toHaveBeenLastCalledWith({ query: { q: '', kind: 'charge', sort: 'created_at', dir: 'desc', page: 1 } });
  });
});

describe('«Стартовая панель»', () => {
  it('edits a card with the dashboard’s own card as its preview', async () => {
    const { spied, user } = setup('/admin/dashboard');
    await user.click(await screen.findByRole('link', { name: 'Чат с нейросетями' }));
    const form = await screen.findByRole('form', { name: 'Карточка «Чат с нейросетями»' });
    const preview = screen.getByRole('region', { name: 'Предпросмотр карточки' });
    await user.clear(within(form).getByLabelText(/^Название/));
    await user.type(within(form).getByLabelText(/^Название/), 'Чат 2.0');
    expect(within(preview).getByText('Чат 2.0')).toBeTruthy();
    expect(preview.querySelector('a.news-card')).toHaveAttribute('href', '/chat');
    await user.click(within(form).getByRole('button', { name: 'Сохранить' }));
    await within(form).findByText('Сохранено. Стартовая панель уже показывает изменения.');
    expect(spied.updateDashboardCard).toHaveBeenCalledWith({
      params: { id: 1 },
      body: { name: 'Чат 2.0', description: 'Задавайте вопросы, пишите тексты и код вместе с лучшими моделями.', icon: '/assets/icons/chat.svg', link: '/chat', sort: 10, active: true },
    });
  });

  it('deleting asks first; «Нет» keeps the card, «Да» deletes it and returns to the list', async () => {
    const { spied, user } = setup('/admin/dashboard/5');
    await user.click(await screen.findByRole('button', { name: 'Удалить карточку' }));
    await user.click(within(screen.getByRole('group', { name: 'Подтверждение' })).getByRole('button', { name: 'Нет' }));
    expect(spied.deleteDashboardCard).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Удалить карточку' }));
    await user.click(within(screen.getByRole('group', { name: 'Подтверждение' })).getByRole('button', { name: 'Да' }));
    await waitFor(() => expect(window.location.pathname).toBe('/admin/dashboard'));
    expect(spied.deleteDashboardCard).toHaveBeenCalledWith({ params: { id: 5 } });
    expect(await screen.findByText('Карточка «Наш канал» удалена: на стартовой панели её больше нет.')).toBeTruthy();
  });
});
