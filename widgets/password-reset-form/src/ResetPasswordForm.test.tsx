import type { ReactElement } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ERROR_CODES } from '@app/contracts';
import { ApiError, getToken, setToken } from '@app/kit';
import { ResetPasswordForm } from './ResetPasswordForm.tsx';
import { accountEndpoints } from '@app/contracts/browser';
import { fakeRoute } from '@app/kit/test';

const link = { token: 'reset-token', email: 'anna@example.ru' };

function fakeApi(overrides: { resetPassword?: () => Promise<{ ok: true }>; valid?: boolean } = {}) {
  return { check: fakeRoute(accountEndpoints.resetCheck, { valid: overrides.valid ?? true }), resetPassword: fakeRoute(accountEndpoints.resetPassword, overrides.resetPassword ?? { ok: true as const }) };
}

const password = () => screen.getByLabelText('Новый пароль');
const confirmation = () => screen.getByLabelText('Повторите пароль');
/** Renders the form once the link check has answered. */
async function renderForm(ui: ReactElement) {
  const result = render(ui);
  await screen.findByLabelText('Новый пароль');
  return result;
}
const submit = () => userEvent.click(screen.getByRole('button', { name: 'Сохранить пароль' }));
async function fill(value = 'new-secret-password', again = value) {
  await userEvent.type(password(), value);
  await userEvent.type(confirmation(), again);
}

describe('ResetPasswordForm', () => {
  it('names the account and requires both passwords with the contract’s messages', async () => {
    const api = fakeApi();
    await renderForm(<ResetPasswordForm {...link} api={api} />);
    expect(screen.getByText('anna@example.ru')).toBeInTheDocument();
    await submit();
    expect(screen.getByText('Введите пароль')).toBeInTheDocument();
    expect(screen.getByText('Повторите пароль', { selector: 'li' })).toBeInTheDocument();
    expect(password()).toHaveAttribute('aria-invalid', 'true');
    expect(confirmation()).toHaveAttribute('aria-invalid', 'true');
    expect(api.resetPassword).not.toHaveBeenCalled();
  });

  it('clears a field’s message when it is edited', async () => {
    await renderForm(<ResetPasswordForm {...link} api={fakeApi()} />);
    await submit();
    await userEvent.type(password(), 'x');
    expect(password()).not.toHaveAttribute('aria-invalid');
    expect(confirmation()).toHaveAttribute('aria-invalid', 'true');
  });

  it('sends the passwords with the link’s token and email, then shows «Пароль сохранен» and «Войти»', async () => {
    setToken('ns_old');
    const api = fakeApi();
    await renderForm(<ResetPasswordForm {...link} api={api} />);
    await fill();
    await submit();
    expect(api.resetPassword).toHaveBeenCalledWith({ body: { password: 'new-secret-password', password_confirmation: 'new-secret-password', token: 'reset-token', email: 'anna@example.ru' } });
    const title = await screen.findByRole('heading', { name: 'Пароль сохранен' });
    expect(title).toHaveFocus();
    expect(screen.getByRole('link', { name: 'Войти' })).toHaveAttribute('href', '/login');
    expect(screen.queryByLabelText('Новый пароль')).not.toBeInTheDocument();
    expect(getToken()).toBeNull();
  });

  it('shows an invalid or used link as a list with a way to ask for a new one', async () => {
    const api = fakeApi({ resetPassword: vi.fn().mockRejectedValue(new ApiError(422, 'RESET_TOKEN_INVALID', ERROR_CODES.RESET_TOKEN_INVALID.message)) });
    await renderForm(<ResetPasswordForm {...link} api={api} />);
    await fill();
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Ссылка для сброса пароля недействительна или устарела');
    expect(screen.getByRole('link', { name: 'Запросить новую' })).toHaveAttribute('href', '/password/reset?email=anna%40example.ru');
    expect(screen.getByRole('button', { name: 'Сохранить пароль' })).toBeEnabled();
  });

  it('shows field messages beside the fields and the others in the list', async () => {
    const error = new ApiError(400, 'VALIDATION', { password_confirmation: ['Пароли не совпадают'], email: ['Введите корректный email'] });
    await renderForm(<ResetPasswordForm {...link} api={fakeApi({ resetPassword: vi.fn().mockRejectedValue(error) })} />);
    await fill('new-secret-password', 'other-password');
    await submit();
    expect(await screen.findByText('Пароли не совпадают')).toBeInTheDocument();
    expect(confirmation()).toHaveAttribute('aria-invalid', 'true');
    expect(confirmation()).toHaveAccessibleDescription('Пароли не совпадают');
    expect(screen.getByRole('alert')).toHaveTextContent('Введите корректный email');
  });

  it('shows a failure whose text is JSON as a list', async () => {
    const error = new ApiError(422, undefined, '["Ссылка для сброса пароля недействительна или устарела","Запросите новую ссылку"]');
    await renderForm(<ResetPasswordForm {...link} api={fakeApi({ resetPassword: vi.fn().mockRejectedValue(error) })} />);
    await fill();
    await submit();
    const alert = await screen.findByRole('alert');
    expect(Array.from(alert.querySelectorAll('li'), (li) => li.textContent)).toEqual(['Ссылка для сброса пароля недействительна или устарела', 'Запросите новую ссылку']);
  });

  it('reads a link without a token as invalid without calling the server', async () => {
    const api = fakeApi();
    await renderForm(<ResetPasswordForm token="" email="" api={api} />);
    await fill();
    await submit();
    expect(screen.getByRole('alert')).toHaveTextContent(/^Ссылка для сброса пароля недействительна или устарела$/);
    expect(api.resetPassword).not.toHaveBeenCalled();
  });

  it('says at once that a used or expired link no longer works, with a way to ask for a new one', async () => {
    const api = fakeApi({ valid: false });
    render(<ResetPasswordForm {...link} api={api} />);
    expect(await screen.findByRole('heading', { name: 'Ссылка больше не действует' })).toBeInTheDocument();
    expect(api.check).toHaveBeenCalledWith({ query: { token: 'reset-token', email: 'anna@example.ru' } });
    expect(screen.getByRole('link', { name: 'Запросить новую ссылку' })).toHaveAttribute('href', '/password/reset?email=anna%40example.ru');
    expect(screen.queryByLabelText('Новый пароль')).not.toBeInTheDocument();
  });
});
