import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { WELCOME_GIFT, accountEndpoints, dashboardEndpoints, type User, type WelcomeState } from '@app/contracts/browser';
import { ApiError, pageQueryClient, routeKey } from '@app/kit';
import { fakeRoute } from '@app/kit/test';
import { WelcomeNotice } from './WelcomeNotice.tsx';

const base: WelcomeState = { visible: true, gift: { ...WELCOME_GIFT }, channel_url: 'https://t.me/neurostudio_news', bot_url: 'https://t.me/neurostudio_bot?start=abc', linked: false, claimed: false, sandbox: false };

type Answer = () => Promise<never>;

function fakeApi(state: Partial<WelcomeState> = {}, overrides: { check?: Answer; close?: Answer } = {}) {
  return {
    state: fakeRoute(dashboardEndpoints.welcome, { ...base, ...state }),
    check: fakeRoute(dashboardEndpoints.welcomeCheck, overrides.check ?? { claimed: true, balances: { words: 10000, media: 3 } }),
    close: fakeRoute(dashboardEndpoints.welcomeClose, overrides.close ?? { ok: true }),
  };
}

describe('WelcomeNotice', () => {
  it('step 1 promises the seed’s gift: 10000 words and 3 media tokens (media with one decimal)', async () => {
    render(<WelcomeNotice api={fakeApi()} />);
    const title = await screen.findByRole('heading', { level: 2 });
    expect(WELCOME_GIFT).toEqual({ words: 10000, media: 3 });
    expect(title.textContent.replace(/\s/g, ' ')).toBe('10 000 слов и 3,0 медиа токена за подписку на наш канал');
  });

  it('opens the bot in a new tab and links the channel', async () => {
    render(<WelcomeNotice api={fakeApi()} />);
    const bot = await screen.findByRole('link', { name: 'Открыть бота в Telegram' });
    expect(bot).toHaveAttribute('href', base.bot_url);
    expect(bot).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: 'наш канал' })).toHaveAttribute('href', base.channel_url);
  });

  it('«Я подписался» checks the membership and moves to step 2', async () => {
    const api = fakeApi();
    render(<WelcomeNotice api={api} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Я подписался' }));
    expect(api.check).toHaveBeenCalledTimes(1);
    expect(await screen.findByRole('heading', { name: 'Спасибо за подписку!' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Я подписался' })).not.toBeInTheDocument();
  });

  it('puts the new balances in the page’s user query once the gift is granted', async () => {
    const user: User = { id: 1, email: 'anna@example.ru', email_confirmed: true, role: 'user', balances: { words: 0, media: 0 }, resend_in: 0 };
    pageQueryClient.setQueryData(routeKey(accountEndpoints.user, {}), user);
    render(<WelcomeNotice api={fakeApi()} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Я подписался' }));
    await screen.findByRole('heading', { name: 'Спасибо за подписку!' });
    expect(pageQueryClient.getQueryData<User>(routeKey(accountEndpoints.user, {}))?.balances).toEqual({ words: 10000, media: 3 });
  });

  it.each([
    ['TELEGRAM_NOT_LINKED', 'Сначала откройте нашего бота в Telegram'],
    ['TELEGRAM_NOT_MEMBER', 'Вы ещё не подписаны на канал'],
    ['GIFT_ALREADY_CLAIMED', 'Подарок уже получен'],
  ])('shows the server’s message for %s and stays on step 1', async (code, message) => {
    const api = fakeApi({}, { check: () => Promise.reject(new ApiError(422, code, message)) });
    render(<WelcomeNotice api={api} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Я подписался' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('button', { name: 'Я подписался' })).toBeEnabled();
  });

  it('closing with × at step 1 notifies the server and hides the notice', async () => {
    const api = fakeApi();
    const { container } = render(<WelcomeNotice api={api} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Закрыть уведомление' }));
    expect(api.close).toHaveBeenCalledTimes(1);
    expect(container).toBeEmptyDOMElement();
  });

  it('closing at step 2 notifies the server and hides the notice', async () => {
    const api = fakeApi();
    const { container } = render(<WelcomeNotice api={api} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Я подписался' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Закрыть' }));
    expect(api.close).toHaveBeenCalledTimes(1);
    expect(container).toBeEmptyDOMElement();
  });

  it('hides even when the close call fails (logged only)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const api = fakeApi({}, { close: () => Promise.reject(new ApiError(500, 'INTERNAL', 'Произошла ошибка')) });
    const { container } = render(<WelcomeNotice api={api} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Закрыть уведомление' }));
    expect(container).toBeEmptyDOMElement();
    await vi.waitFor(() => expect(warn).toHaveBeenCalled());
    warn.mockRestore();
  });

  it('starts at step 2 when the gift is already claimed', async () => {
    render(<WelcomeNotice api={fakeApi({ claimed: true })} />);
    expect(await screen.findByRole('heading', { name: 'Спасибо за подписку!' })).toBeInTheDocument();
  });

  it('says when the check runs against the local sandbox', async () => {
    render(<WelcomeNotice api={fakeApi({ sandbox: true })} />);
    expect(await screen.findByText('Тестовый режим: подписка проверяется в локальной песочнице, а не в Telegram.')).toBeInTheDocument();
  });

  it('shows nothing when not visible', async () => {
    const api = fakeApi({ visible: false });
    const { container } = render(<WelcomeNotice api={api} />);
    // Once the state has come (and the notice rendered with it), there is still nothing.
    await waitFor(() => expect(pageQueryClient.getQueryState(routeKey(dashboardEndpoints.welcome, {}))?.status).toBe('success'));
    expect(api.state).toHaveBeenCalled();
    expect(container).toBeEmptyDOMElement();
  });
});
