import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@app/kit';
import { ResetRequest } from './ResetRequest.tsx';
import { accountEndpoints } from '@app/contracts/browser';
import { fakeRoute } from '@app/kit/test';

function fakeApi(overrides: { request?: () => Promise<{ ok: true }> } = {}) {
  return { request: fakeRoute(accountEndpoints.resetRequest, overrides.request ?? { ok: true as const }) };
}

const emailInput = () => screen.getByLabelText('Email');
const submit = () => userEvent.click(screen.getByRole('button', { name: 'Отправить ссылку' }));

describe('ResetRequest', () => {
  it('requires the email with the contract’s messages before calling the server', async () => {
    const api = fakeApi();
    render(<ResetRequest email="" api={api} />);
    await submit();
    expect(screen.getByText('Введите email')).toBeInTheDocument();
    expect(emailInput()).toHaveAttribute('aria-invalid', 'true');
    await userEvent.type(emailInput(), 'anna@example');
    await submit();
    expect(screen.getByText('Введите корректный email')).toBeInTheDocument();
    expect(api.request).not.toHaveBeenCalled();
  });

  it('sends the email and shows «Успех» with what happens next', async () => {
    const api = fakeApi();
    render(<ResetRequest email="" api={api} />);
    await userEvent.type(emailInput(), ' Anna@Example.ru ');
    await submit();
    expect(api.request).toHaveBeenCalledWith({ body: { email: 'anna@example.ru' } });
    const title = await screen.findByRole('heading', { name: 'Успех' });
    expect(title).toHaveFocus();
    expect(screen.getByText(/мы отправили на него письмо со ссылкой для смены пароля/)).toHaveTextContent('Если аккаунт с адресом Anna@Example.ru существует');
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Вернуться ко входу' })).toHaveAttribute('href', '/login');
  });

  it('prefills the email from the page and goes back to the form to send again', async () => {
    const api = fakeApi();
    render(<ResetRequest email="anna@example.ru" api={api} />);
    expect(emailInput()).toHaveValue('anna@example.ru');
    await submit();
    await userEvent.click(await screen.findByRole('button', { name: 'Отправить ещё раз' }));
    expect(emailInput()).toHaveValue('anna@example.ru');
    await submit();
    expect(api.request).toHaveBeenCalledTimes(2);
  });

  it('shows a failure whose text is JSON as a list', async () => {
    const api = fakeApi({ request: vi.fn().mockRejectedValue(new ApiError(503, undefined, '["Сервис временно недоступен","Попробуйте через несколько минут"]')) });
    render(<ResetRequest email="anna@example.ru" api={api} />);
    await submit();
    const alert = await screen.findByRole('alert');
    expect(Array.from(alert.querySelectorAll('li'), (li) => li.textContent)).toEqual(['Сервис временно недоступен', 'Попробуйте через несколько минут']);
    expect(screen.getByRole('button', { name: 'Отправить ссылку' })).toBeEnabled();
  });

  it('shows one message without quotes and field messages beside the field', async () => {
    const request = vi
      .fn()
      .mockRejectedValueOnce(new ApiError(429, 'RATE_LIMITED', '"Слишком много попыток. Попробуйте позже"'))
      .mockRejectedValueOnce(new ApiError(400, 'VALIDATION', { email: ['Слишком длинный email'] }));
    render(<ResetRequest email="anna@example.ru" api={fakeApi({ request })} />);
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Слишком много попыток. Попробуйте позже$/);
    await submit();
    expect(await screen.findByText('Слишком длинный email')).toBeInTheDocument();
    expect(emailInput()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('links back to sign-in', () => {
    render(<ResetRequest email="" api={fakeApi()} />);
    expect(screen.getByRole('link', { name: 'Войти' })).toHaveAttribute('href', '/login');
  });
});
