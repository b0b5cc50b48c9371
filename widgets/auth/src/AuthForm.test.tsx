import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@app/kit';
import * as session from '@app/kit';
import { AuthForm } from './AuthForm.tsx';
import { accountEndpoints } from '@app/contracts/browser';
import { fakeRoute } from '@app/kit/test';

const result = { token: 'ns_token', user: { id: 1, email: 'anna@example.ru', email_confirmed: false, role: 'user' as const, balances: { words: 0, media: 0 }, resend_in: 60 } };

type Answer = () => Promise<typeof result>;

function fakeApi(overrides: { login?: Answer; register?: Answer } = {}) {
  return { login: fakeRoute(accountEndpoints.login, overrides.login ?? result), register: fakeRoute(accountEndpoints.register, overrides.register ?? result) };
}

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

  it('shows per-field server errors beside the fields', async () => {
    const api = fakeApi({ register: () => Promise.reject(new ApiError(422, 'EMAIL_TAKEN', { email: ['Этот email уже зарегистрирован'] })) });
    render(<AuthForm mode="register" redirectTo="/dashboard" api={api} />);
    await userEvent.type(screen.getByLabelText('Email'), 'anna@example.ru');
    await userEvent.type(screen.getByLabelText('Пароль'), 'secret-password');
    await userEvent.type(screen.getByLabelText('Повторите пароль'), 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'Зарегистрироваться' }));
    expect(await screen.findByText('Этот email уже зарегистрирован')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
  });
});
