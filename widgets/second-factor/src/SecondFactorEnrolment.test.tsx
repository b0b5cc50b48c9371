import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { accountEndpoints } from '@app/contracts/browser';
import * as session from '@app/kit';
import { ApiError, QueryProvider, createQueryClient } from '@app/kit';
import { fakeRoute } from '@app/kit/test';
import { SecondFactorEnrolment } from './SecondFactorEnrolment.tsx';
import { SETUP } from './fixtures.ts';

const CODES = ['abcde-fghjk', 'mnpqr-stuvw', 'xyz23-45678', 'aaaaa-bbbbb', 'ccccc-ddddd', 'eeeee-fffff', 'ggggg-hhhhh', 'jjjjj-kkkkk', 'mmmmm-nnnnn', 'ppppp-qqqqq'];

function fakeApi(enable: () => Promise<{ recovery_codes: string[] }> = () => Promise.resolve({ recovery_codes: CODES }), setup: () => Promise<typeof SETUP> = () => Promise.resolve(SETUP)) {
  return { setup: fakeRoute(accountEndpoints.secondFactorSetup, setup), enable: fakeRoute(accountEndpoints.secondFactorEnable, enable) };
}

const renderWith = (api: ReturnType<typeof fakeApi>) =>
  render(
    <QueryProvider client={createQueryClient()}>
      <SecondFactorEnrolment email="boris@example.ru" next="/admin/users" api={api} />
    </QueryProvider>,
  );

afterEach(() => vi.restoreAllMocks());

describe('SecondFactorEnrolment', () => {
  it('shows the QR code and the secret, sends the first code, shows the ten recovery codes once, then opens next', async () => {
    const navigate = vi.spyOn(session, 'navigate').mockImplementation(() => undefined);
    const api = fakeApi();
    renderWith(api);
    expect(screen.getByRole('heading', { name: 'Подключите вход с кодом из приложения' })).toBeInTheDocument();
    const qr = await screen.findByRole('img', { name: 'QR-код для приложения-аутентификатора' });
    expect(qr.querySelector('path')?.getAttribute('d')).toBe(SETUP.qr.path);
    expect(screen.getByLabelText('Ключ для ввода вручную')).toHaveTextContent('JBSW Y3DP EHPK 3PXP');
    // Only digits go in, six at most.
    await userEvent.type(screen.getByLabelText('Код из приложения'), '12a3 4567');
    expect(screen.getByLabelText('Код из приложения')).toHaveValue('123456');
    await userEvent.click(screen.getByRole('button', { name: 'Подключить' }));
    expect(api.enable).toHaveBeenCalledWith({ body: { code: '123456' } });
    await screen.findByRole('heading', { name: 'Сохраните резервные коды' });
    const list = screen.getByRole('list', { name: 'Резервные коды' });
    expect(Array.from(list.querySelectorAll('li'), (li) => li.textContent)).toEqual(CODES);
    expect(navigate).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Я сохранил коды, продолжить' }));
    expect(navigate).toHaveBeenCalledWith('/admin/users');
  });

  it('a short code is refused by the form; a wrong one by the server, beside the field', async () => {
    const api = fakeApi(() => Promise.reject(new ApiError(422, 'SECOND_FACTOR_INVALID', { code: ['Неверный код'] })));
    renderWith(api);
    await screen.findByRole('img', { name: 'QR-код для приложения-аутентификатора' });
    await userEvent.click(screen.getByRole('button', { name: 'Подключить' }));
    expect(screen.getByLabelText('Код из приложения')).toHaveAccessibleDescription(/Введите код из приложения/);
    await userEvent.type(screen.getByLabelText('Код из приложения'), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Подключить' }));
    expect(screen.getByLabelText('Код из приложения')).toHaveAccessibleDescription(/Код состоит из 6 цифр/);
    expect(api.enable).not.toHaveBeenCalled();
    await userEvent.type(screen.getByLabelText('Код из приложения'), '456');
    await userEvent.click(screen.getByRole('button', { name: 'Подключить' }));
    expect(await screen.findByText('Неверный код')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Сохраните резервные коды' })).toBeNull();
  });

  it('a failed load says why and tries again', async () => {
    let calls = 0;
    const api = fakeApi(undefined, () => (++calls === 1 ? Promise.reject(new ApiError(409, 'SECOND_FACTOR_ALREADY', 'Вход с кодом из приложения уже подключён')) : Promise.resolve(SETUP)));
    renderWith(api);
    expect(await screen.findByText('Вход с кодом из приложения уже подключён')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    await screen.findByRole('img', { name: 'QR-код для приложения-аутентификатора' });
  });
});
