import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { accountEndpoints, billingEndpoints, dashboardEndpoints, widgetProps, type DashboardCard, type User, type UserSubscriptionStatus } from '@app/contracts/browser';
import { ApiError, pageQueryClient, routeKey } from '@app/kit';
import { fakeRoute } from '@app/kit/test';
import { Dashboard } from './Dashboard.tsx';
import { iconImage, safeHref } from './news-card-links.ts';

const props = widgetProps.dashboard.parse({});
const user = { id: 1, email: 'anna@example.ru', email_confirmed: true, role: 'user' as const, balances: { words: 10000, media: 3 }, resend_in: 0 };
const card: DashboardCard = { id: 1, link: '/ai-products', icon: '🎨', name: 'Картинки', description: 'Рисуйте словами' };

type Answer = () => Promise<unknown>;

function fakeApi(status: UserSubscriptionStatus, overrides: { subscriptionStatus?: Answer; user?: Answer; cards?: Answer } = {}) {
  return {
    subscriptionStatus: fakeRoute(billingEndpoints.subscriptionStatus, (overrides.subscriptionStatus ?? (() => Promise.resolve(status))) as () => Promise<UserSubscriptionStatus>),
    user: fakeRoute(accountEndpoints.user, (overrides.user ?? (() => Promise.resolve(user))) as () => Promise<User>),
    cards: fakeRoute(dashboardEndpoints.cards, (overrides.cards ?? (() => Promise.resolve([card]))) as () => Promise<DashboardCard[]>),
  };
}

const loaded = () => waitFor(() => expect(document.querySelector('[aria-busy="true"]')).toBeNull());
const section = async (title: string) => {
  await loaded();
  return within(screen.getByRole('heading', { name: title }).closest('section') as HTMLElement);
};
const subscriptionCard = () => section('Подписка');

describe('Dashboard', () => {
  it('with an active subscription shows the plan name and days until auto-renewal', async () => {
    render(<Dashboard {...props} api={fakeApi({ status: true, subscription: { name: 'Стандарт' }, days_left: 12, past_due: false })} />);
    const block = await subscriptionCard();
    expect(block.getByText('Стандарт')).toBeInTheDocument();
    expect(block.getByText('Автопродление через 12 дней')).toBeInTheDocument();
    expect(block.getByRole('link', { name: 'Сменить тариф' })).toHaveAttribute('href', '/dashboard/user/payment');
  });

  it.each([
    [1, 'Автопродление через 1 день'],
    [3, 'Автопродление через 3 дня'],
    [21, 'Автопродление через 21 день'],
  ])('uses the Russian plural for %i days', async (daysLeft, text) => {
    render(<Dashboard {...props} api={fakeApi({ status: true, subscription: { name: 'Стандарт' }, days_left: daysLeft, past_due: false })} />);
    expect((await subscriptionCard()).getByText(text)).toBeInTheDocument();
  });

  it('says the renewal charge failed instead of when it renews', async () => {
    render(<Dashboard {...props} api={fakeApi({ status: true, subscription: { name: 'Стандарт' }, days_left: 0, past_due: true })} />);
    const block = await subscriptionCard();
    expect(block.getByText('Стандарт')).toBeInTheDocument();
    expect(block.getByText('Не удалось списать оплату за продление. Мы повторим попытку — проверьте карту.')).toBeInTheDocument();
    expect(block.queryByText(/Автопродление/)).not.toBeInTheDocument();
  });

  it('without a subscription and days_left 0 says to buy one', async () => {
    render(<Dashboard {...props} api={fakeApi({ status: false, subscription: null, days_left: 0, past_due: false })} />);
    const block = await subscriptionCard();
    expect(block.getByText('Нет активной подписки')).toBeInTheDocument();
    expect(block.getByText('Купите подписку, чтобы каждый месяц получать слова и медиа токены.')).toBeInTheDocument();
    expect(block.getByRole('link', { name: 'Выбрать тариф' })).toHaveAttribute('href', '/dashboard/user/payment');
    expect(block.queryByText(/действует/)).not.toBeInTheDocument();
  });

  it('without a subscription and days_left above 0 shows the days until the end', async () => {
    render(<Dashboard {...props} api={fakeApi({ status: false, subscription: { name: 'Стандарт' }, days_left: 5, past_due: false })} />);
    const block = await subscriptionCard();
    expect(block.getByText('Подписка отменена')).toBeInTheDocument();
    expect(block.getByText('Стандарт')).toBeInTheDocument();
    expect(block.getByText('Автопродление отключено. Действует ещё 5 дней.')).toBeInTheDocument();
    expect(block.queryByText('Нет активной подписки')).not.toBeInTheDocument();
    expect(block.queryByText(/Купите подписку/)).not.toBeInTheDocument();
  });

  it('shows words as whole numbers and media tokens with one decimal, with icons', async () => {
    render(<Dashboard {...props} api={fakeApi({ status: false, subscription: null, days_left: 0, past_due: false }, { user: vi.fn().mockResolvedValue({ ...user, balances: { words: 48250, media: 12.5 } }) })} />);
    const balance = await section('Баланс');
    expect(balance.getByText('48 250')).toBeInTheDocument();
    expect(balance.getByText('12,5')).toBeInTheDocument();
    expect(balance.getByRole('img', { name: 'слова' })).toBeInTheDocument();
    expect(balance.getByRole('img', { name: 'медиа токены' })).toBeInTheDocument();
    expect(balance.getByRole('link', { name: 'История баланса' })).toHaveAttribute('href', '/dashboard/balance');
  });

  it.each([
    ['an active plan', { status: true, subscription: { name: 'Стандарт' }, days_left: 12, past_due: false }, '/dashboard/user/payment#packages'],
    ['a plan whose renewal failed', { status: true, subscription: { name: 'Стандарт' }, days_left: 0, past_due: true }, '/dashboard/user/payment#packages'],
    ['no plan', { status: false, subscription: null, days_left: 0, past_due: false }, '/dashboard/user/payment'],
    ['a cancelled plan', { status: false, subscription: { name: 'Стандарт' }, days_left: 5, past_due: false }, '/dashboard/user/payment'],
  ])('«Купить токены» with %s leads where tokens can be bought: the packages, or else the plans', async (_, status, href) => {
    render(<Dashboard {...props} api={fakeApi(status)} />);
    expect((await section('Баланс')).getByRole('link', { name: 'Купить токены' })).toHaveAttribute('href', href);
  });

  it('takes the balances another widget of the page puts in the shared user query (the welcome gift)', async () => {
    render(<Dashboard {...props} api={fakeApi({ status: false, subscription: null, days_left: 0, past_due: false }, { user: vi.fn().mockResolvedValue({ ...user, balances: { words: 0, media: 0 } }) })} />);
    const balance = await section('Баланс');
    expect(balance.getByText('0,0')).toBeInTheDocument();
    act(() => {
      pageQueryClient.setQueryData<User>(routeKey(accountEndpoints.user, {}), (u) => u && { ...u, balances: { words: 10000, media: 3 } });
    });
    expect(await balance.findByText('10 000')).toBeInTheDocument();
    expect(balance.getByText('3,0')).toBeInTheDocument();
  });

  it('shows whole media token amounts with one decimal too', async () => {
    render(<Dashboard {...props} api={fakeApi({ status: false, subscription: null, days_left: 0, past_due: false })} />);
    expect(await screen.findByText('3,0')).toBeInTheDocument();
    expect(screen.getByText('10 000')).toBeInTheDocument();
  });

  it('renders news cards safely: emoji as text, image URLs as images, unsafe links dropped', async () => {
    const cards: DashboardCard[] = [
      card,
      { id: 2, link: 'https://t.me/channel', icon: '/img/tg.png', name: 'Канал', description: 'Новости' },
      { id: 3, link: 'javascript:alert(1)', icon: '<img src=x onerror=alert(1)>', name: 'Странная', description: 'Ссылка' },
    ];
    const { container } = render(<Dashboard {...props} api={fakeApi({ status: true, subscription: { name: 'Стандарт' }, days_left: 1, past_due: false }, { cards: vi.fn().mockResolvedValue(cards) })} />);
    expect(await screen.findByRole('link', { name: /Картинки/ })).toHaveAttribute('href', '/ai-products');
    const external = screen.getByRole('link', { name: /Канал/ });
    expect(external).toHaveAttribute('target', '_blank');
    expect(external).toHaveAttribute('rel', 'noopener noreferrer');
    expect(container.querySelector('img[src="/img/tg.png"]')).not.toBeNull();
    expect(screen.queryByRole('link', { name: /Странная/ })).not.toBeInTheDocument();
    expect(screen.getByText('<img src=x onerror=alert(1)>')).toBeInTheDocument();
    expect(container.querySelector('img[src="x"]')).toBeNull();
  });

  it('shows an empty state without news', async () => {
    render(<Dashboard {...props} api={fakeApi({ status: true, subscription: { name: 'Стандарт' }, days_left: 1, past_due: false }, { cards: vi.fn().mockResolvedValue([]) })} />);
    expect(await screen.findByText('Новостей пока нет')).toBeInTheDocument();
  });

  it('shows a loading skeleton, then a load error with retry', async () => {
    const subscriptionStatus = vi.fn().mockRejectedValueOnce(new ApiError(401, 'UNAUTHENTICATED', 'Войдите в аккаунт, чтобы продолжить')).mockResolvedValueOnce({ status: true, subscription: { name: 'Стандарт' }, days_left: 2, past_due: false });
    render(<Dashboard {...props} api={fakeApi({ status: true, subscription: null, days_left: 0, past_due: false }, { subscriptionStatus })} />);
    expect(screen.getAllByLabelText('Загрузка').length).toBeGreaterThan(0);
    expect(await screen.findByRole('alert')).toHaveTextContent('Войдите в аккаунт, чтобы продолжить');
    await userEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(await screen.findByText('Автопродление через 2 дня')).toBeInTheDocument();
  });
});

describe('links and icons', () => {
  it.each([
    ['/dashboard/user/payment', '/dashboard/user/payment'],
    ['https://example.ru/a', 'https://example.ru/a'],
    ['//evil.example', null],
    ['javascript:alert(1)', null],
    ['data:text/html,hi', null],
  ])('safeHref(%s) = %s', (link, expected) => expect(safeHref(link)).toBe(expected));

  it('reads emoji and short text as text, not images', () => {
    expect(iconImage('🎨')).toBeNull();
    expect(iconImage('TG')).toBeNull();
    expect(iconImage('/icons/a.svg')).toBe('/icons/a.svg');
  });
});
