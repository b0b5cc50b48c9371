import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { privacyEndpoints, type NoticeSettings } from '@app/contracts/privacy';
import { ApiError, QueryProvider, createQueryClient } from '@app/kit';
import * as session from '@app/kit';
import { fakeRoute } from '@app/kit/test';
import { AccountSettings } from './AccountSettings.tsx';
import { noticesFixture } from './fixtures.ts';

function setup(opts: { notices?: () => Promise<NoticeSettings>; save?: (body: { renewal_failed: boolean; plan_ended: boolean }) => Promise<NoticeSettings>; remove?: () => Promise<{ deleted: true }> } = {}) {
  const api = {
    notices: fakeRoute(privacyEndpoints.noticeSettings, opts.notices ?? (() => Promise.resolve(noticesFixture()))),
    saveNotices: fakeRoute(privacyEndpoints.updateNoticeSettings, (r) => {
      const body = r.body as { renewal_failed: boolean; plan_ended: boolean };
      return opts.save ? opts.save(body) : Promise.resolve(noticesFixture(Object.entries(body).filter(([, on]) => !on).map(([k]) => k)));
    }),
    deleteAccount: fakeRoute(privacyEndpoints.deleteAccount, opts.remove ?? (() => Promise.resolve({ deleted: true as const }))),
  };
  render(
    <QueryProvider client={createQueryClient()}>
      <AccountSettings email="anna@example.ru" plansUrl="/dashboard/user/payment" api={api} />
    </QueryProvider>,
  );
  return api;
}

afterEach(() => {
  vi.restoreAllMocks();
});

const box = (name: RegExp) => screen.getByRole('checkbox', { name });

describe('AccountSettings: notices', () => {
  it('shows the charge notices ticked and locked, the others as loaded; saves the choice', async () => {
    const api = setup();
    expect(await screen.findByRole('checkbox', { name: /За три дня до продления/ })).toBeChecked();
    expect(box(/За три дня до продления/)).toBeDisabled();
    expect(box(/За сутки до окончания пробного периода/)).toBeDisabled();
    expect(screen.getAllByText('Нельзя отключить: письмо перед списанием денег')).toHaveLength(2);
    expect(box(/Когда подписка закончилась/)).toBeEnabled();

    await userEvent.click(box(/Когда подписка закончилась/));
    expect(box(/Когда подписка закончилась/)).not.toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(api.saveNotices).toHaveBeenCalledWith({ body: { renewal_failed: true, plan_ended: false } }));
    expect(await screen.findByText('Настройки сохранены')).toBeInTheDocument();
  });

  it('shows a failed save and keeps the choice', async () => {
    setup({ save: () => Promise.reject(new ApiError(500, 'INTERNAL', 'Произошла ошибка')) });
    await userEvent.click(await screen.findByRole('checkbox', { name: /Если продление подписки не удалось/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Сохранить' }));
    expect(await screen.findByText('Произошла ошибка')).toBeInTheDocument();
    expect(box(/Если продление подписки не удалось/)).not.toBeChecked();
  });

  it('a failed load offers to retry', async () => {
    let calls = 0;
    // A 4xx is final (no automatic retries): the error shows at once.
    setup({ notices: () => (++calls === 1 ? Promise.reject(new ApiError(429, 'RATE_LIMITED', 'Слишком много попыток. Попробуйте позже')) : Promise.resolve(noticesFixture())) });
    expect(await screen.findByText('Слишком много попыток. Попробуйте позже')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(await screen.findByRole('checkbox', { name: /Когда подписка закончилась/ })).toBeChecked();
  });
});

describe('AccountSettings: deleting the account', () => {
  const card = () => within(screen.getByText('Удаление аккаунта').closest('.card') as HTMLElement);

  it('needs the password and the box; then deletes, forgets the token and leaves for the sign-in page', async () => {
    const navigate = vi.spyOn(session, 'navigate').mockImplementation(() => undefined);
    window.localStorage.setItem('auth_token', 'ns_token');
    const api = setup();
    await userEvent.click(card().getByRole('button', { name: 'Удалить аккаунт' }));
    expect(await card().findByText('Введите пароль')).toBeInTheDocument();
    expect(card().getByText('Подтвердите удаление аккаунта')).toBeInTheDocument();
    expect(api.deleteAccount).not.toHaveBeenCalled();

    await userEvent.type(card().getByLabelText('Пароль'), 'secret-password');
    await userEvent.click(card().getByRole('checkbox', { name: /нельзя будет восстановить/ }));
    await userEvent.click(card().getByRole('button', { name: 'Удалить аккаунт' }));
    await waitFor(() => expect(api.deleteAccount).toHaveBeenCalledWith({ body: { password: 'secret-password', confirm: true } }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/login?deleted=1'));
    expect(window.localStorage.getItem('auth_token')).toBeNull();
  });

  it('shows a wrong password beside the field and stays', async () => {
    const navigate = vi.spyOn(session, 'navigate').mockImplementation(() => undefined);
    setup({ remove: () => Promise.reject(new ApiError(422, 'WRONG_PASSWORD', { password: ['Неверный пароль'] })) });
    await userEvent.type(card().getByLabelText('Пароль'), 'wrong-password');
    await userEvent.click(card().getByRole('checkbox', { name: /нельзя будет восстановить/ }));
    await userEvent.click(card().getByRole('button', { name: 'Удалить аккаунт' }));
    expect(await card().findByText('Неверный пароль')).toBeInTheDocument();
    expect(card().getByLabelText('Пароль')).toHaveAttribute('aria-invalid', 'true');
    expect(navigate).not.toHaveBeenCalled();
    expect(card().getByRole('button', { name: 'Удалить аккаунт' })).toBeEnabled();
  });
});
