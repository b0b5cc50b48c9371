import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { accountEndpoints } from '@app/contracts/browser';
import * as session from '@app/kit';
import { ApiError } from '@app/kit';
import { fakeRoute } from '@app/kit/test';
import { ChangePasswordForm } from './ChangePasswordForm.tsx';

const fakeApi = (answer?: () => Promise<{ ok: true }>) => ({ changePassword: fakeRoute(accountEndpoints.changePassword, answer ?? { ok: true as const }) });
const field = (label: string) => screen.getByLabelText(label);
const save = () => userEvent.click(screen.getByRole('button', { name: 'Сохранить пароль' }));

afterEach(() => vi.restoreAllMocks());

describe('ChangePasswordForm', () => {
  it('a temporary password: says so, sends the current and the new password, then opens where the person was going', async () => {
    const navigate = vi.spyOn(session, 'navigate').mockImplementation(() => undefined);
    const api = fakeApi();
    render(<ChangePasswordForm email="admin@example.ru" temporary next="/admin" api={api} />);
    expect(screen.getByRole('heading', { name: 'Смените временный пароль' })).toBeTruthy();
    // A long address wraps before its «@», not at any letter.
    expect(document.querySelector('.reset-request__email')?.innerHTML).toBe('<span class="email-text">admin<wbr>@example.ru</span>');
    expect(document.querySelector('.card__subtitle')?.textContent).toMatch(/^Вы вошли как admin@example\.ru с временным паролем\./);
    expect(screen.getByRole('link', { name: 'Выйти' })).toHaveAttribute('href', '/logout');
    await userEvent.type(field('Временный пароль'), 'tmp-password-1');
    await userEvent.type(field('Новый пароль'), 'my-own-password');
    await userEvent.type(field('Повторите пароль'), 'my-own-password');
    await save();
    expect(api.changePassword).toHaveBeenCalledWith({ body: { current_password: 'tmp-password-1', password: 'my-own-password', password_confirmation: 'my-own-password' } });
    expect(navigate).toHaveBeenCalledWith('/admin');
  });

  it('checks with the contract first: all three required, the new one twice, not the same as the current one', async () => {
    const api = fakeApi();
    render(<ChangePasswordForm email="admin@example.ru" temporary next="/admin" api={api} />);
    await save();
    expect(screen.getByText('Введите текущий пароль')).toBeTruthy();
    expect(screen.getByText('Введите пароль')).toBeTruthy();
    await userEvent.type(field('Временный пароль'), 'same-password');
    await userEvent.type(field('Новый пароль'), 'same-password');
    await userEvent.type(field('Повторите пароль'), 'other-password');
    await save();
    expect(field('Новый пароль')).toHaveAccessibleDescription('Новый пароль должен отличаться от текущего');
    expect(field('Повторите пароль')).toHaveAccessibleDescription('Пароли не совпадают');
    expect(api.changePassword).not.toHaveBeenCalled();
  });

  it('shows the server’s refusal of the current password by its field, and stays', async () => {
    const navigate = vi.spyOn(session, 'navigate').mockImplementation(() => undefined);
    const api = fakeApi(() => Promise.reject(new ApiError(422, 'WRONG_PASSWORD', { current_password: ['Неверный текущий пароль'] })));
    render(<ChangePasswordForm email="admin@example.ru" temporary next="/admin" api={api} />);
    await userEvent.type(field('Временный пароль'), 'not-it');
    await userEvent.type(field('Новый пароль'), 'my-own-password');
    await userEvent.type(field('Повторите пароль'), 'my-own-password');
    await save();
    expect(await screen.findByText('Неверный текущий пароль')).toBeTruthy();
    expect(field('Временный пароль')).toHaveAttribute('aria-invalid', 'true');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('an account just made staff is told why it must set a new password, naming the current one as its own', () => {
    render(<ChangePasswordForm email="staff@example.ru" temporary={false} staff next="/admin" api={fakeApi()} />);
    expect(screen.getByRole('heading', { name: 'Задайте новый пароль' })).toBeTruthy();
    expect(screen.getByText(/назначен администратором/)).toBeTruthy();
    expect(field('Текущий пароль')).toBeTruthy();
  });

  it('a change by choice names the current password as such', () => {
    render(<ChangePasswordForm email="anna@example.ru" temporary={false} next="/dashboard" api={fakeApi()} />);
    expect(screen.getByRole('heading', { name: 'Смена пароля' })).toBeTruthy();
    expect(field('Текущий пароль')).toBeTruthy();
  });
});
