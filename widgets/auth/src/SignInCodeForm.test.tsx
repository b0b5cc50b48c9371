import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { accountEndpoints } from '@app/contracts/browser';
import * as session from '@app/kit';
import { ApiError } from '@app/kit';
import { fakeRoute } from '@app/kit/test';
import { AuthForm } from './AuthForm.tsx';

/*
 * An account with a second factor: the password is right, the server asks for the code
 * (SECOND_FACTOR_REQUIRED), the form asks for it and signs in with email, password and code; a
 * recovery code can be typed instead; wrong codes are shown by the field.
 */

const result = { token: 'ns_staff', user: { id: 7, email: 'boris@example.ru', email_confirmed: true, role: 'admin' as const, balances: { words: 0, media: 0 }, resend_in: 0 } };
const codeRequired = () => new ApiError(401, 'SECOND_FACTOR_REQUIRED', 'Введите код из приложения-аутентификатора');

function fakeApi(login: (request: { body: { code?: string } }) => Promise<typeof result>) {
  return {
    login: fakeRoute(accountEndpoints.login, login as never),
    register: fakeRoute(accountEndpoints.register, result),
    signInCheck: fakeRoute(accountEndpoints.signInCheck, () => Promise.reject(new Error('not asked'))),
  };
}

async function passwordStep() {
  await userEvent.type(screen.getByLabelText('Email'), 'boris@example.ru');
  await userEvent.type(screen.getByLabelText('Пароль'), 'staff-password');
  await userEvent.click(screen.getByRole('button', { name: 'Войти' }));
  await screen.findByRole('heading', { name: 'Код из приложения' });
}

afterEach(() => vi.restoreAllMocks());

describe('the sign-in code', () => {
  it('asks for the app’s code after the password and signs in with all three', async () => {
    const navigate = vi.spyOn(session, 'navigate').mockImplementation(() => undefined);
    const api = fakeApi(({ body }) => (body.code ? Promise.resolve(result) : Promise.reject(codeRequired())));
    render(<AuthForm mode="login" redirectTo="/admin/users" api={api} />);
    await passwordStep();
    expect(screen.getByText('boris@example.ru')).toBeInTheDocument();
    const field = screen.getByLabelText('Код');
    expect(field).toHaveAttribute('autocomplete', 'one-time-code');
    expect(field).toHaveAttribute('inputmode', 'numeric');
    await userEvent.type(field, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Войти' }));
    expect(api.login).toHaveBeenLastCalledWith({ body: { email: 'boris@example.ru', password: 'staff-password', code: '123456' } });
    expect(window.localStorage.getItem('auth_token')).toBe('ns_staff');
    expect(navigate).toHaveBeenCalledWith('/admin/users');
  });

  it('a missing code is asked for without calling the server; a wrong one is shown by the field, and the form stays', async () => {
    const api = fakeApi(({ body }) => Promise.reject(body.code ? new ApiError(422, 'SECOND_FACTOR_INVALID', { code: ['Неверный код'] }) : codeRequired()));
    render(<AuthForm mode="login" redirectTo="/admin" api={api} />);
    await passwordStep();
    await userEvent.click(screen.getByRole('button', { name: 'Войти' }));
    expect(screen.getByLabelText('Код')).toHaveAccessibleDescription('Введите код');
    expect(api.login).toHaveBeenCalledTimes(1);
    await userEvent.type(screen.getByLabelText('Код'), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Войти' }));
    expect(await screen.findByText('Неверный код')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Войти' })).toBeEnabled();
  });

  it('takes a recovery code instead, and goes back to the password on request', async () => {
    const api = fakeApi(({ body }) => (body.code ? Promise.resolve(result) : Promise.reject(codeRequired())));
    vi.spyOn(session, 'navigate').mockImplementation(() => undefined);
    render(<AuthForm mode="login" redirectTo="/admin" api={api} />);
    await passwordStep();
    await userEvent.click(screen.getByRole('button', { name: 'Нет телефона? Войти с резервным кодом' }));
    expect(screen.getByRole('heading', { name: 'Резервный код' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Резервный код'), 'abcde-fghjk');
    await userEvent.click(screen.getByRole('button', { name: 'Войти' }));
    expect(api.login).toHaveBeenLastCalledWith({ body: { email: 'boris@example.ru', password: 'staff-password', code: 'abcde-fghjk' } });
  });

  it('back to the password: the email kept, the password asked again', async () => {
    const api = fakeApi(() => Promise.reject(codeRequired()));
    render(<AuthForm mode="login" redirectTo="/admin" api={api} />);
    await passwordStep();
    await userEvent.click(screen.getByRole('button', { name: 'Назад ко входу' }));
    expect(screen.getByLabelText('Email')).toHaveValue('boris@example.ru');
    expect(screen.getByLabelText('Пароль')).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Войти' })).toBeEnabled();
  });
});
