import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { billingEndpoints, type AutoCharge, type PackagePurchase, type SubscriptionRecord } from '@app/contracts/browser';
import { ApiError, formatDate } from '@app/kit';
import { OrderHistory } from './OrderHistory.tsx';
import { fakeRoute } from '@app/kit/test';

const sub = (over: Partial<SubscriptionRecord> = {}): SubscriptionRecord => ({ id: 1, name: 'Стандарт', status: true, closed: false, amount: 990, currency_provider: 'RUB', created_at: '2025-03-01T12:00:00Z', updated_at: '2025-03-02T12:30:00Z', trial_days: null, refunded: 0, duplicates: [], ...over });
const charge = (over: Partial<AutoCharge> = {}): AutoCharge => ({ id: 9, name: 'Продление Стандарт', status: true, amount: 1490, currency_provider: 'RUB', created_at: '2025-04-01T09:15:00Z', updated_at: '2025-04-01T09:15:30Z', refunded: 0, ...over });

type Page<T> = { data: T[]; last_page: number };
type Answer<T> = (request: { query: { page?: unknown } }) => Promise<Page<T>>;

const purchase = (over: Partial<PackagePurchase> = {}): PackagePurchase => ({ id: 5, name: 'Пакет слов', status: 'paid', amount: 290, currency_provider: 'RUB', created_at: '2025-04-10T10:00:00Z', updated_at: '2025-04-10T10:00:20Z', refunded: 0, duplicates: [], ...over });

function fakeApi(overrides: { subscriptions?: Answer<SubscriptionRecord>; autoCharges?: Answer<AutoCharge>; packages?: Answer<PackagePurchase> } = {}) {
  return {
    subscriptions: fakeRoute(billingEndpoints.subscriptionHistory, overrides.subscriptions ?? ((r) => { const page = Number(r.query.page); return { data: [sub({ id: page, name: `Тариф ${String(page)}` })], last_page: 25 }; })),
    autoCharges: fakeRoute(billingEndpoints.autoCharges, overrides.autoCharges ?? (() => ({ data: [charge()], last_page: 1 }))),
    packages: fakeRoute(billingEndpoints.packagePurchases, overrides.packages ?? (() => ({ data: [purchase()], last_page: 1 }))),
  };
}

const panel = () => screen.getByRole('tabpanel');
/** Text with the non-breaking spaces of Russian number formatting read as spaces. */
const plain = (node: Element) => node.textContent.replace(/\s/g, ' ');

describe('OrderHistory', () => {
  it('has the seed’s tabs «Подписки» and «Авто списания» and then «Пакеты», subscriptions first', async () => {
    render(<OrderHistory api={fakeApi()} />);
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Подписки', 'Авто списания', 'Пакеты']);
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('heading', { name: 'Тариф 1' })).toBeInTheDocument();
  });

  it('shows one record per page with amount, status and ru-RU dates', async () => {
    const api = fakeApi();
    render(<OrderHistory api={api} />);
    await screen.findByRole('heading', { name: 'Тариф 1' });
    expect(api.subscriptions).toHaveBeenCalledWith({ query: { page: 1 } });
    expect(panel()).toHaveTextContent('990 ₽');
    expect(within(panel()).getByText('Оплачено')).toBeInTheDocument();
    const created = formatDate('2025-03-01T12:00:00Z');
    expect(created).toMatch(/^01\.03\.2025/);
    expect(within(panel()).getByText(created)).toHaveAttribute('datetime', '2025-03-01T12:00:00Z');
    expect(within(panel()).getByText(formatDate('2025-03-02T12:30:00Z'))).toBeInTheDocument();
  });

  it('shows page buttons in chunks of 10 and moves between chunks', async () => {
    const api = fakeApi();
    render(<OrderHistory api={api} />);
    await screen.findByRole('heading', { name: 'Тариф 1' });
    const nav = screen.getByRole('navigation', { name: 'Страницы' });
    const numbers = () => within(nav).getAllByRole('button').map((b) => b.textContent);
    expect(numbers()).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '»']);
    await userEvent.click(within(nav).getByRole('button', { name: 'Следующие страницы' }));
    expect(await screen.findByRole('heading', { name: 'Тариф 11' })).toBeInTheDocument();
    expect(api.subscriptions).toHaveBeenLastCalledWith({ query: { page: 11 } });
    expect(numbers()).toEqual(['«', '11', '12', '13', '14', '15', '16', '17', '18', '19', '20', '»']);
    expect(within(nav).getByRole('button', { name: '11' })).toHaveAttribute('aria-current', 'page');
    await userEvent.click(within(nav).getByRole('button', { name: '14' }));
    expect(await screen.findByRole('heading', { name: 'Тариф 14' })).toBeInTheDocument();
  });

  it.each([
    [{ status: true, closed: false }, ['Оплачено']],
    [{ status: false, closed: true }, ['Отменено']],
    [{ status: false, closed: false }, ['Не оплачено']],
    [{ status: true, closed: true }, ['Оплачено', 'Отменено']],
  ])('subscription %o shows %o', async (flags, labels) => {
    render(<OrderHistory api={fakeApi({ subscriptions: vi.fn().mockResolvedValue({ data: [sub(flags)], last_page: 1 }) })} />);
    const list = await screen.findByRole('list', { name: 'Статус' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(labels);
  });

  it('loads the auto-charges tab and shows «Списано» / «Не удалось списать»', async () => {
    const autoCharges = vi.fn().mockResolvedValueOnce({ data: [charge()], last_page: 2 }).mockResolvedValueOnce({ data: [charge({ id: 10, status: false })], last_page: 2 });
    render(<OrderHistory api={fakeApi({ autoCharges })} />);
    await screen.findByRole('heading', { name: 'Тариф 1' });
    await userEvent.click(screen.getByRole('tab', { name: 'Авто списания' }));
    expect(await within(panel()).findByText('Списано')).toBeInTheDocument();
    expect(autoCharges).toHaveBeenCalledWith({ query: { page: 1 } });
    expect(panel()).toHaveTextContent('1 490 ₽');
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    expect(await within(panel()).findByText('Не удалось списать')).toBeInTheDocument();
    expect(autoCharges).toHaveBeenLastCalledWith({ query: { page: 2 } });
  });

  it('lists package purchases in «Пакеты», one per page, with amount, date and status', async () => {
    const packages = vi
      .fn()
      .mockResolvedValueOnce({ data: [purchase()], last_page: 3 })
      .mockResolvedValueOnce({ data: [purchase({ id: 6, name: 'Пакет медиа', status: 'refunded', amount: 390, refunded: 390 })], last_page: 3 })
      .mockResolvedValueOnce({ data: [purchase({ id: 7, status: 'partially_refunded', refunded: 145 })], last_page: 3 });
    render(<OrderHistory api={fakeApi({ packages })} />);
    await screen.findByRole('heading', { name: 'Тариф 1' });
    await userEvent.click(screen.getByRole('tab', { name: 'Пакеты' }));
    expect(await within(panel()).findByRole('heading', { name: 'Пакет слов' })).toBeInTheDocument();
    expect(packages).toHaveBeenCalledWith({ query: { page: 1 } });
    expect(panel()).toHaveTextContent('290 ₽');
    expect(within(panel()).getByText('Оплачено')).toBeInTheDocument();
    expect(within(panel()).getAllByText(formatDate('2025-04-10T10:00:00Z'))[0]).toHaveAttribute('datetime', '2025-04-10T10:00:00Z');
    expect(panel()).toHaveTextContent('Запись 1 из 3');
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    expect(await within(panel()).findByText('Возвращено')).toBeInTheDocument();
    expect(panel()).toHaveTextContent('390 ₽');
    await userEvent.click(screen.getByRole('button', { name: '3' }));
    // How much came back, not only that some did.
    expect(plain(await within(panel()).findByText(/^Частично возвращено/))).toBe('Частично возвращено: 145 ₽');
    expect(within(panel()).getByText('Оплачено')).toBeInTheDocument();
  });

  it('a plan bought with the trial says so, and what of its payment came back', async () => {
    const subscriptions = vi
      .fn()
      .mockResolvedValueOnce({ data: [sub({ name: 'Старт', amount: 99, trial_days: 3 })], last_page: 2 })
      .mockResolvedValueOnce({ data: [sub({ id: 2, refunded: 400.5 })], last_page: 2 });
    render(<OrderHistory api={fakeApi({ subscriptions })} />);
    await screen.findByRole('heading', { name: 'Старт' });
    const statuses = () => within(within(panel()).getByRole('list', { name: 'Статус' })).getAllByRole('listitem').map(plain);
    expect(statuses()).toEqual(['Оплачено', 'Пробный период 3 дня']);
    expect(panel()).toHaveTextContent('99 ₽');
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    await screen.findByRole('heading', { name: 'Стандарт' });
    expect(statuses()).toEqual(['Оплачено', 'Частично возвращено: 400,5 ₽']);
  });

  it('an order paid twice says so: the second charge on its way back, then back on the card; a refunded renewal says how much', async () => {
    const packages = vi
      .fn()
      .mockResolvedValueOnce({ data: [purchase({ duplicates: [{ amount: 290, refunded: false, created_at: '2025-04-10T10:00:40Z' }] })], last_page: 2 })
      .mockResolvedValueOnce({ data: [purchase({ id: 8, duplicates: [{ amount: 290, refunded: true, created_at: '2025-04-10T10:00:40Z' }] })], last_page: 2 });
    const autoCharges = vi.fn().mockResolvedValue({ data: [charge({ refunded: 745 })], last_page: 1 });
    render(<OrderHistory api={fakeApi({ packages, autoCharges })} />);
    await screen.findByRole('heading', { name: 'Тариф 1' });
    await userEvent.click(screen.getByRole('tab', { name: 'Пакеты' }));
    expect(plain(await within(panel()).findByText(/^Оплата прошла дважды/))).toBe('Оплата прошла дважды: второе списание 290 ₽ возвращаем на карту, токены за него не начислялись');
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    expect(plain(await within(panel()).findByText(/вернули на карту$/))).toBe('Оплата прошла дважды: второе списание 290 ₽ вернули на карту');
    await userEvent.click(screen.getByRole('tab', { name: 'Авто списания' }));
    expect(plain(await within(panel()).findByText(/^Частично возвращено/))).toBe('Частично возвращено: 745 ₽');
  });

  it('keeps each tab on its own page', async () => {
    const api = fakeApi();
    render(<OrderHistory api={api} />);
    await screen.findByRole('heading', { name: 'Тариф 1' });
    await userEvent.click(screen.getByRole('button', { name: '3' }));
    await screen.findByRole('heading', { name: 'Тариф 3' });
    await userEvent.click(screen.getByRole('tab', { name: 'Авто списания' }));
    await within(panel()).findByText('Списано');
    await userEvent.click(screen.getByRole('tab', { name: 'Подписки' }));
    expect(await screen.findByRole('heading', { name: 'Тариф 3' })).toBeInTheDocument();
  });

  it('shows empty states', async () => {
    render(<OrderHistory api={fakeApi({ subscriptions: vi.fn().mockResolvedValue({ data: [], last_page: 1 }), autoCharges: vi.fn().mockResolvedValue({ data: [], last_page: 1 }), packages: vi.fn().mockResolvedValue({ data: [], last_page: 1 }) })} />);
    expect(await screen.findByText('У вас пока нет подписок')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Выбрать тариф' })).toHaveAttribute('href', '/dashboard/user/payment');
    await userEvent.click(screen.getByRole('tab', { name: 'Авто списания' }));
    expect(await screen.findByText('Автосписаний пока не было')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Пакеты' }));
    expect(await screen.findByText('Пакетов пока не было')).toBeInTheDocument();
  });

  it('shows a load error with the server message and retries', async () => {
    const subscriptions = vi.fn().mockRejectedValueOnce(new ApiError(503, 'SERVICE_UNAVAILABLE', 'Сервис временно недоступен')).mockResolvedValueOnce({ data: [sub()], last_page: 1 });
    render(<OrderHistory api={fakeApi({ subscriptions })} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Сервис временно недоступен');
    await userEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(await screen.findByRole('heading', { name: 'Стандарт' })).toBeInTheDocument();
    expect(subscriptions).toHaveBeenCalledTimes(2);
  });
});
