import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { ApiError } from '@app/kit';
import * as session from '@app/kit';
import { AuthForm } from './AuthForm.tsx';
import { accountEndpoints } from '@app/contracts/browser';
import { fakeRoute } from '@app/kit/test';
import { solveSignInCheck } from './sign-in-check.ts';

vi.mock('./sign-in-check.ts', () => ({ solveSignInCheck: vi.fn() }));

const result = { token: 'ns_token', user: { id: 1, email: 'anna@example.ru', email_confirmed: false, role: 'user' as const, balances: { words: 0, media: 0 }, resend_in: 60 } };

type Answer = () => Promise<typeof result>;

const challenge = { parameters: { algorithm: 'PBKDF2/SHA-256', nonce: 'n', salt: 's', cost: 1000, keyLength: 32, keyPrefix: 'ab', expiresAt: 1, data: { email: 'anna@example.ru' } }, signature: 'sig' };

function fakeApi(overrides: { login?: Answer; register?: Answer } = {}) {
  return {
    login: fakeRoute(accountEndpoints.login, overrides.login ?? result),
    register: fakeRoute(accountEndpoints.register, overrides.register ?? result),
    signInCheck: fakeRoute(accountEndpoints.signInCheck, { challenge }),
  };
}

const checkRequired = () => new ApiError(429, 'SIGN_IN_CHECK_REQUIRED', 'В этот аккаунт много раз пытались войти');

describe('AuthForm', () => {
  it('signs in, stores the bearer token and goes to redirectTo', async () => {
    const navigate = vi.spyOn(session, 'navigate').mockImplementation(() => undefined);
    const api = fakeApi();
    render(<AuthForm mode="login" redirectTo="/dashboard" api={api} />);
    await userEvent.type(screen.getByLabelText('Email'), 'Anna@Example.ru');
    await userEvent.type(screen.getByLabelText('Пароль'), 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'Войти' }));
    expect(api.login).toHaveBeenCalledWith({ body: { email: 'anna@example.ru', password: 'secret-password' } });
    expect(window.localStorage.getItem('auth_token')).toBe('ns_token');
    expect(navigate).toHaveBeenCalledWith('/dashboard');
  });

  it('shows the contract’s Russian messages without calling the server', async () => {
    const api = fakeApi();
    render(<AuthForm mode="register" redirectTo="/dashboard" api={api} />);
    await userEvent.click(screen.getByRole('button', { name: 'Зарегистрироваться' }));
    expect(screen.getByText('Введите email')).toBeInTheDocument();
    expect(screen.getByText('Введите пароль')).toBeInTheDocument();
    expect(screen.getByLabelText('Повторите пароль')).toHaveAttribute('aria-invalid', 'true');
    expect(api.register).not.toHaveBeenCalled();
  });

  it('shows a server failure and stays on the form', async () => {
    const api = fakeApi({ login: () => Promise.reject(new ApiError(422, 'INVALID_CREDENTIALS', 'Неверный email или пароль')) });
    render(<AuthForm mode="login" redirectTo="/dashboard" api={api} />);
    await userEvent.type(screen.getByLabelText('Email'), 'anna@example.ru');
    await userEvent.type(screen.getByLabelText('Пароль'), 'wrong-password');
    await userEvent.click(screen.getByRole('button', { name: 'Войти' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Неверный email или пароль');
    expect(screen.getByRole('button', { name: 'Войти' })).toBeEnabled();
  });

  it('says how long to wait when sign-in attempts are used up', async () => {
    const api = fakeApi({ login: () => Promise.reject(new ApiError(429, 'RATE_LIMITED', 'Слишком много попыток. Попробуйте через 14 минут')) });
    render(<AuthForm mode="login" redirectTo="/dashboard" api={api} />);
    await userEvent.type(screen.getByLabelText('Email'), 'anna@example.ru');
    await userEvent.type(screen.getByLabelText('Пароль'), 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'Войти' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Слишком много попыток. Попробуйте через 14 минут');
  });

  it('an account under attack: says the sign-in is slowed down, solves the check, then signs in with it', async () => {
    const navigate = vi.spyOn(session, 'navigate').mockImplementation(() => undefined);
    navigate.mockClear();
    let solve: (check: string) => void = () => undefined;
    vi.mocked(solveSignInCheck).mockImplementation(() => new Promise((resolve) => (solve = resolve)));
    let calls = 0;
    const api = fakeApi({ login: () => (++calls === 1 ? Promise.reject(checkRequired()) : Promise.resolve(result)) });
    render(<AuthForm mode="login" redirectTo="/dashboard" api={api} />);
    await userEvent.type(screen.getByLabelText('Email'), 'anna@example.ru');
    await userEvent.type(screen.getByLabelText('Пароль'), 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'Войти' }));
    expect(await screen.findByText(/вход замедлен: браузер решает проверочную задачу, это займёт несколько секунд/)).toHaveAttribute('role', 'status');
    expect(api.signInCheck).toHaveBeenCalledWith({ body: { email: 'anna@example.ru' } });
    expect(solveSignInCheck).toHaveBeenCalledWith(challenge);
    expect(navigate).not.toHaveBeenCalled();
    solve('solved-check');
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/dashboard'));
    expect(api.login).toHaveBeenLastCalledWith({ body: { email: 'anna@example.ru', password: 'secret-password', check: 'solved-check' } });
    expect(screen.queryByText(/вход замедлен/)).toBeNull();
  });

  it('a check that does not pass: says so and stays on the form', async () => {
    vi.mocked(solveSignInCheck).mockResolvedValue('stale-check');
    const api = fakeApi({ login: () => Promise.reject(checkRequired()) });
    render(<AuthForm mode="login" redirectTo="/dashboard" api={api} />);
    await userEvent.type(screen.getByLabelText('Email'), 'anna@example.ru');
    await userEvent.type(screen.getByLabelText('Пароль'), 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'Войти' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Не удалось пройти проверку. Попробуйте войти ещё раз');
    expect(api.login).toHaveBeenCalledTimes(2);
    expect(screen.queryByText(/вход замедлен/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Войти' })).toBeEnabled();
  });

  it('registration needs the consent box ticked; the box links the policy and the consent is sent', async () => {
    const navigate = vi.spyOn(session, 'navigate').mockImplementation(() => undefined);
    const api = fakeApi();
    render(<AuthForm mode="register" redirectTo="/dashboard" api={api} />);
    const box = screen.getByRole('checkbox', { name: /согласен на обработку персональных данных/ });
    expect(box).not.toBeChecked();
    expect(screen.getByRole('link', { name: 'политикой обработки персональных данных' })).toHaveAttribute('href', '/privacy');
    await userEvent.type(screen.getByLabelText('Email'), 'anna@example.ru');
    await userEvent.type(screen.getByLabelText('Пароль'), 'secret-password');
    await userEvent.type(screen.getByLabelText('Повторите пароль'), 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'Зарегистрироваться' }));
    expect(await screen.findByText('Подтвердите согласие на обработку персональных данных')).toBeInTheDocument();
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(api.register).not.toHaveBeenCalled();

    await userEvent.click(box);
    expect(screen.queryByText('Подтвердите согласие на обработку персональных данных')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Зарегистрироваться' }));
    await waitFor(() => expect(api.register).toHaveBeenCalledWith({ body: { email: 'anna@example.ru', password: 'secret-password', password_confirmation: 'secret-password', consent: true } }));
    expect(navigate).toHaveBeenCalledWith('/dashboard');
  });

  it('shows per-field server errors beside the fields', async () => {
    const api = fakeApi({ register: () => Promise.reject(new ApiError(422, 'EMAIL_TAKEN', { email: ['Этот email уже зарегистрирован'] })) });
    render(<AuthForm mode="register" redirectTo="/dashboard" api={api} />);
    await userEvent.type(screen.getByLabelText('Email'), 'anna@example.ru');
    await userEvent.type(screen.getByLabelText('Пароль'), 'secret-password');
    await userEvent.type(screen.getByLabelText('Повторите пароль'), 'secret-password');
    await userEvent.click(screen.getByRole('checkbox', { name: /согласен на обработку персональных данных/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Зарегистрироваться' }));
    expect(await screen.findByText('Этот email уже зарегистрирован')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
  });

  it('a registration through a referral link sends its code', async () => {
    vi.spyOn(session, 'navigate').mockImplementation(() => undefined);
    window.history.replaceState(null, '', '/register?ref=k7m2q9xa4b');
    onTestFinished(() => window.history.replaceState(null, '', '/'));
    const api = fakeApi();
    render(<AuthForm mode="register" redirectTo="/dashboard" api={api} />);
    await userEvent.type(screen.getByLabelText('Email'), 'anna@example.ru');
    await userEvent.type(screen.getByLabelText('Пароль'), 'secret-password');
    await userEvent.type(screen.getByLabelText('Повторите пароль'), 'secret-password');
    await userEvent.click(screen.getByRole('checkbox', { name: /согласен на обработку персональных данных/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Зарегистрироваться' }));
    await waitFor(() => expect(api.register).toHaveBeenCalledWith({ body: { email: 'anna@example.ru', password: 'secret-password', password_confirmation: 'secret-password', consent: true, ref: 'k7m2q9xa4b' } }));
  });
});
