import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ERROR_CODES, type ErrorCode } from '@app/contracts';
import * as kit from '@app/kit';
import { ApiError } from '@app/kit';
import { CONFIRMED_PAUSE_MS, EmailConfirm } from './EmailConfirm.tsx';
import { accountEndpoints } from '@app/contracts/browser';
import { fakeRoute } from '@app/kit/test';

const props = { email: 'anna@example.ru', supportUrl: 'mailto:support@neurostudio.local' };

type Answer = () => Promise<never>;

const user = { id: 1, email: 'anna@example.ru', email_confirmed: false, role: 'user' as const, balances: { words: 0, media: 0 }, resend_in: 0 };

function fakeApi(overrides: { confirm?: Answer; resend?: Answer; logout?: Answer; resendIn?: number } = {}) {
  return {
    user: fakeRoute(accountEndpoints.user, { ...user, resend_in: overrides.resendIn ?? 0 }),
    confirm: fakeRoute(accountEndpoints.confirmEmail, overrides.confirm ?? { email_confirmed: true as const }),
    resend: fakeRoute(accountEndpoints.resendConfirmation, overrides.resend ?? { resend_in: 60 }),
    logout: fakeRoute(accountEndpoints.logout, overrides.logout ?? { ok: true as const }),
  };
}

const codeInput = () => screen.getByLabelText('Код из письма');
const submit = () => userEvent.click(screen.getByRole('button', { name: 'Подтвердить' }));
const fieldError = (code: ErrorCode & `CODE_${string}`) => new ApiError(ERROR_CODES[code].status, code, { code: [ERROR_CODES[code].message] });

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('EmailConfirm', () => {
  it('covers the page with a dialog naming the email, a support link and a logout link', () => {
    render(<EmailConfirm {...props} api={fakeApi()} />);
    const dialog = screen.getByRole('dialog', { name: 'Подтвердите почту' });
    expect(dialog.closest('.overlay-screen')).not.toBeNull();
    expect(dialog).toHaveTextContent('Мы отправили код на anna@example.ru');
    expect(screen.getByRole('link', { name: 'Написать в поддержку' })).toHaveAttribute('href', 'mailto:support@neurostudio.local');
    expect(screen.getByRole('link', { name: 'Выйти' })).toHaveAttribute('href', '/logout');
    expect(codeInput()).toHaveFocus();
  });

  it('opens a web support link in a new tab', () => {
    render(<EmailConfirm email="anna@example.ru" supportUrl="https://t.me/neurostudio_support" api={fakeApi()} />);
    expect(screen.getByRole('link', { name: 'Написать в поддержку' })).toHaveAttribute('target', '_blank');
  });

  it('requires the code and six digits, with the contract’s messages, before calling the server', async () => {
    const api = fakeApi();
    render(<EmailConfirm {...props} api={api} />);
    await submit();
    expect(screen.getByText('Введите код из письма')).toBeInTheDocument();
    expect(codeInput()).toHaveAttribute('aria-invalid', 'true');
    await userEvent.type(codeInput(), '123');
    expect(codeInput()).not.toHaveAttribute('aria-invalid');
    await submit();
    expect(screen.getByText('Код состоит из 6 цифр')).toBeInTheDocument();
    expect(api.confirm).not.toHaveBeenCalled();
  });

  it('keeps only the digits of a typed or pasted code', async () => {
    render(<EmailConfirm {...props} api={fakeApi()} />);
    await userEvent.click(codeInput());
    await userEvent.paste('12 34-56 789');
    expect(codeInput()).toHaveValue('123456');
  });

  it('confirms the code, shows «Почта подтверждена» and reloads the page without the overlay', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const navigate = vi.spyOn(kit, 'navigate').mockImplementation(() => undefined);
    const api = fakeApi();
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    render(<EmailConfirm {...props} api={api} />);
    await user.type(codeInput(), '482913');
    await user.click(screen.getByRole('button', { name: 'Подтвердить' }));
    expect(api.confirm).toHaveBeenCalledWith({ body: { code: '482913' } });
    expect(await screen.findByRole('heading', { name: 'Почта подтверждена' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Почта подтверждена');
    expect(navigate).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(CONFIRMED_PAUSE_MS));
    expect(navigate).toHaveBeenCalledWith(window.location.pathname + window.location.search);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('goes on at once with «Продолжить»', async () => {
    const navigate = vi.spyOn(kit, 'navigate').mockImplementation(() => undefined);
    render(<EmailConfirm {...props} api={fakeApi()} />);
    await userEvent.type(codeInput(), '482913{Enter}');
    await userEvent.click(await screen.findByRole('button', { name: 'Продолжить' }));
    expect(navigate).toHaveBeenCalledTimes(1);
  });

  it.each(['CODE_INVALID', 'CODE_EXPIRED', 'CODE_ATTEMPTS_EXCEEDED'] as const)('shows the server’s %s message beside the field', async (code) => {
    const api = fakeApi({ confirm: () => Promise.reject(fieldError(code)) });
    render(<EmailConfirm {...props} api={api} />);
    await userEvent.type(codeInput(), '000000');
    await submit();
    expect(await screen.findByText(ERROR_CODES[code].message)).toBeInTheDocument();
    expect(codeInput()).toHaveAttribute('aria-invalid', 'true');
    expect(codeInput()).toHaveAccessibleDescription(ERROR_CODES[code].message);
    expect(screen.getByRole('button', { name: 'Подтвердить' })).toBeEnabled();
  });

  it('shows a failure that is not about the code above the form', async () => {
    const api = fakeApi({ confirm: () => Promise.reject(new ApiError(429, 'RATE_LIMITED', ERROR_CODES.RATE_LIMITED.message)) });
    render(<EmailConfirm {...props} api={api} />);
    await userEvent.type(codeInput(), '482913');
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Слишком много попыток. Попробуйте позже');
  });

  it('treats an email confirmed meanwhile as confirmed', async () => {
    const api = fakeApi({ confirm: () => Promise.reject(new ApiError(422, 'EMAIL_ALREADY_CONFIRMED', ERROR_CODES.EMAIL_ALREADY_CONFIRMED.message)) });
    vi.spyOn(kit, 'navigate').mockImplementation(() => undefined);
    render(<EmailConfirm {...props} api={api} />);
    await userEvent.type(codeInput(), '482913');
    await submit();
    expect(await screen.findByRole('heading', { name: 'Почта подтверждена' })).toBeInTheDocument();
  });

  it('resends the code and counts 60 seconds down before the next one', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = fakeApi();
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    render(<EmailConfirm {...props} api={api} />);
    await user.type(codeInput(), '111');
    await user.click(screen.getByRole('button', { name: 'Отправить код ещё раз' }));
    expect(api.resend).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('Новый код отправлен на anna@example.ru')).toBeInTheDocument();
    expect(codeInput()).toHaveValue('');
    const waiting = screen.getByRole('button', { name: /^Отправить код ещё раз через/ });
    expect(waiting).toHaveTextContent('Отправить код ещё раз через 60 с');
    expect(waiting).toBeDisabled();
    await act(async () => vi.advanceTimersByTime(1000));
    expect(waiting).toHaveTextContent('Отправить код ещё раз через 59 с');
    await act(async () => vi.advanceTimersByTime(59_000));
    expect(screen.getByRole('button', { name: 'Отправить код ещё раз' })).toBeEnabled();
  });

  it('shows the server’s message when a new code is asked for too soon', async () => {
    const api = fakeApi({ resend: () => Promise.reject(new ApiError(429, 'RESEND_TOO_SOON', ERROR_CODES.RESEND_TOO_SOON.message)) });
    render(<EmailConfirm {...props} api={api} />);
    await userEvent.click(screen.getByRole('button', { name: 'Отправить код ещё раз' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Новый код можно запросить через минуту');
    expect(screen.getByRole('button', { name: 'Отправить код ещё раз' })).toBeEnabled();
  });

  it('signs out: ends the session, forgets the token and goes to /login', async () => {
    const navigate = vi.spyOn(kit, 'navigate').mockImplementation(() => undefined);
    kit.setToken('ns_token');
    const api = fakeApi();
    render(<EmailConfirm {...props} api={api} />);
    await userEvent.click(screen.getByRole('link', { name: 'Выйти' }));
    expect(api.logout).toHaveBeenCalledTimes(1);
    expect(kit.getToken()).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login');
  });

  it('falls back to the /logout page when the sign-out call fails', async () => {
    const navigate = vi.spyOn(kit, 'navigate').mockImplementation(() => undefined);
    kit.setToken('ns_token');
    const api = fakeApi({ logout: () => Promise.reject(new ApiError(0, 'NETWORK', 'Нет соединения')) });
    render(<EmailConfirm {...props} api={api} />);
    await userEvent.click(screen.getByRole('link', { name: 'Выйти' }));
    expect(kit.getToken()).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/logout');
  });

  it('counts down to the next resend from the start when the server says a code was just sent', async () => {
    render(<EmailConfirm {...props} api={fakeApi({ resendIn: 42 })} />);
    const resend = await screen.findByRole('button', { name: /Отправить код ещё раз через (41|42) с/ });
    expect(resend).toBeDisabled();
  });

  it('offers the resend at once when the server allows it', async () => {
    const api = fakeApi();
    render(<EmailConfirm {...props} api={api} />);
    await vi.waitFor(() => expect(api.user).toHaveBeenCalled());
    expect(screen.getByRole('button', { name: 'Отправить код ещё раз' })).toBeEnabled();
  });

  it('is a modal dialog: the page behind it is hidden from assistive technology, does not scroll and keeps no focus', async () => {
    const page = document.createElement('main');
    const pageButton = document.createElement('button');
    page.append(pageButton);
    const slot = document.createElement('div');
    document.body.append(page, slot);
    const { unmount } = render(<EmailConfirm {...props} api={fakeApi()} />, { container: slot });
    const dialog = screen.getByRole('dialog', { name: 'Подтвердите почту' });
    expect(page).toHaveAttribute('aria-hidden', 'true');
    expect(document.body).toHaveAttribute('data-scroll-locked');
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    unmount();
    expect(page).not.toHaveAttribute('aria-hidden');
    expect(document.body).not.toHaveAttribute('data-scroll-locked');
    page.remove();
    slot.remove();
  });
});
