import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { balanceEndpoints, type BalanceLine } from '@app/contracts/balance';
import { accountEndpoints } from '@app/contracts/browser';
import { promoEndpoints, type PromoRedemption } from '@app/contracts/promo';
import { ApiError, QueryProvider, createQueryClient } from '@app/kit';
import { fakeRoute } from '@app/kit/test';
import { BalanceHistory } from './BalanceHistory.tsx';
import { LINES, REFERRAL, USER } from './fixtures.ts';

const PROMO_LINE: BalanceLine = { id: 500, created_at: '2025-05-21T09:00:00Z', wallet: 'words', amount: 5000, kind: 'gift', title: 'Промокод WELCOME2026', note: null };

function setup(redeem: (code: string) => PromoRedemption | Promise<PromoRedemption>, referral: () => typeof REFERRAL | Promise<typeof REFERRAL> = () => REFERRAL) {
  let credited = false;
  const api = {
    history: fakeRoute(balanceEndpoints.history, () => ({ data: credited ? [PROMO_LINE, ...LINES] : LINES, last_page: 1 })),
    user: fakeRoute(accountEndpoints.user, () => (credited ? { ...USER, balances: { words: USER.balances.words + 5000, media: USER.balances.media } } : USER)),
    redeem: fakeRoute(promoEndpoints.redeem, async (r) => {
      const done = await redeem((r.body as { code: string }).code);
      credited = done.kind === 'tokens';
      return done;
    }),
    referral: fakeRoute(promoEndpoints.referral, referral),
  };
  const user = userEvent.setup();
  render(
    <QueryProvider client={createQueryClient()}>
      <BalanceHistory api={api} />
    </QueryProvider>,
  );
  return { api, user };
}

const TOKENS: PromoRedemption = { kind: 'tokens', code: 'WELCOME2026', words: 5000, media: 0, balances: { words: 103_650, media: 31.5 }, message: 'Промокод WELCOME2026 активирован: начислено 5 000 слов' };

beforeEach(() => {
  window.history.replaceState(null, '', '/dashboard/balance');
});

describe('the promo code form', () => {
  it('a code credits its words: the message, the new balance and the ledger line «Промокод …» at once', async () => {
    const { api, user } = setup(() => TOKENS);
    const form = await screen.findByRole('region', { name: 'Промокод' });
    await user.type(within(form).getByLabelText('Код'), 'welcome2026');
    await user.click(within(form).getByRole('button', { name: 'Активировать' }));
    expect(await within(form).findByText('Промокод WELCOME2026 активирован: начислено 5 000 слов')).toBeTruthy();
    expect(api.redeem).toHaveBeenCalledWith({ body: { code: 'welcome2026' } });
    expect(await screen.findByText('Промокод WELCOME2026')).toBeTruthy();
    const now = screen.getByRole('region', { name: 'Сейчас на балансе' });
    await waitFor(() => expect(within(now).getByText(/103\s650/)).toBeTruthy());
    expect(within(form).getByLabelText<HTMLInputElement>('Код').value).toBe('');
  });

  it('a refusal is shown under the field in Russian; an empty field is refused before any call', async () => {
    const { api, user } = setup(() => Promise.reject(new ApiError(422, 'PROMO_ALREADY_USED', 'Вы уже использовали этот промокод')));
    const form = await screen.findByRole('region', { name: 'Промокод' });
    await user.click(within(form).getByRole('button', { name: 'Активировать' }));
    expect(within(form).getByText('Введите промокод')).toBeTruthy();
    expect(api.redeem).not.toHaveBeenCalled();
    await user.type(within(form).getByLabelText('Код'), 'WELCOME2026');
    await user.click(within(form).getByRole('button', { name: 'Активировать' }));
    expect(await within(form).findByText('Вы уже использовали этот промокод')).toBeTruthy();
    expect(within(form).getByLabelText('Код').getAttribute('aria-invalid')).toBe('true');
  });

  it('a field error of the server (a malformed code) is shown as the field’s', async () => {
    const { user } = setup(() => Promise.reject(new ApiError(400, 'VALIDATION', { code: ['Промокод — от 4 до 32 латинских букв и цифр'] })));
    const form = await screen.findByRole('region', { name: 'Промокод' });
    await user.type(within(form).getByLabelText('Код'), 'СКИДКА');
    await user.click(within(form).getByRole('button', { name: 'Активировать' }));
    expect(await within(form).findByText('Промокод — от 4 до 32 латинских букв и цифр')).toBeTruthy();
  });

  it('a discount code leads to the plans page with the code filled in', async () => {
    const { user } = setup(() => ({ kind: 'discount', code: 'START20', percent: 20, tariff: { id: 2, name: 'Про' }, message: 'Скидка 20 % на первую оплату тарифа «Про»: выберите тариф и введите промокод при оплате' }));
    const form = await screen.findByRole('region', { name: 'Промокод' });
    await user.type(within(form).getByLabelText('Код'), 'start20');
    await user.click(within(form).getByRole('button', { name: 'Активировать' }));
    const link = await within(form).findByRole('link', { name: 'К тарифу «Про»' });
    expect(link.getAttribute('href')).toBe('/dashboard/user/payment?promo=START20');
  });
});

describe('the referral link', () => {
  it('shows the link of this site with the user’s code, invited, paid and earned, and copies it', async () => {
    const { user } = setup(() => TOKENS);
    // After userEvent.setup(), which puts a clipboard of its own in place.
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const card = await screen.findByRole('region', { name: 'Пригласите друзей' });
    const input = await within(card).findByLabelText('Ваша ссылка');
    expect((input as HTMLInputElement).value).toBe(`${window.location.origin}/register?ref=k7m2q9xa4b`);
    const stats = [...card.querySelectorAll('.referral__stats > div')].map((d) => d.textContent.replace(/\s/g, ' '));
    expect(stats).toEqual(['Приглашено3', 'Оплатили2', 'Заработано10 000 слов']);
    expect(within(card).getByText(/вы получаете 5\s000 слов/)).toBeTruthy();
    await user.click(within(card).getByRole('button', { name: 'Копировать' }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/register?ref=k7m2q9xa4b`);
    expect(await within(card).findByText('Ссылка скопирована')).toBeTruthy();
  });

  it('a copy the browser refuses says how to copy by hand; a failed read retries', async () => {
    let calls = 0;
    const { user } = setup(
      () => TOKENS,
      () => (++calls === 1 ? Promise.reject(new ApiError(403, 'FORBIDDEN', 'Недостаточно прав')) : REFERRAL),
    );
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) }, configurable: true });
    const card = await screen.findByRole('region', { name: 'Пригласите друзей' });
    expect(await within(card).findByText('Недостаточно прав')).toBeTruthy();
    await user.click(within(card).getByRole('button', { name: 'Повторить' }));
    await user.click(await within(card).findByRole('button', { name: 'Копировать' }));
    expect(await within(card).findByText('Не удалось скопировать: выделите ссылку и скопируйте её вручную')).toBeTruthy();
  });
});
