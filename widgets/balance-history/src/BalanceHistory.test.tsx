import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { balanceEndpoints, type BalanceLine } from '@app/contracts/balance';
import { accountEndpoints } from '@app/contracts/browser';
import { promoEndpoints } from '@app/contracts/promo';
import { ApiError, QueryProvider, createQueryClient } from '@app/kit';
import { fakeRoute } from '@app/kit/test';
import { amountText } from './amount-text.ts';
import { BalanceHistory } from './BalanceHistory.tsx';
import { LINES, REFERRAL, USER } from './fixtures.ts';

type Page = { data: BalanceLine[]; last_page: number };

function setup(answer: (page: number) => Page | Promise<Page>) {
  const api = {
    history: fakeRoute(balanceEndpoints.history, (r) => answer(Number(r.query.page))),
    user: fakeRoute(accountEndpoints.user, USER),
    redeem: fakeRoute(promoEndpoints.redeem, () => Promise.reject(new ApiError(422, 'PROMO_NOT_FOUND', 'Такого промокода нет'))),
    referral: fakeRoute(promoEndpoints.referral, REFERRAL),
  };
  const user = userEvent.setup();
  render(
    <QueryProvider client={createQueryClient()}>
      <BalanceHistory api={api} />
    </QueryProvider>,
  );
  return { api, user };
}

/** Intl groups digits with no-break spaces: compared as plain ones. */
const plain = (text: string | null | undefined) => (text ?? '').replace(/\s/g, ' ');
const rows = () => screen.getAllByRole('listitem').filter((li) => li.classList.contains('ledger__line'));

beforeEach(() => {
  window.history.replaceState(null, '', '/dashboard/balance');
});

describe('amountText', () => {
  it.each<[Pick<BalanceLine, 'wallet' | 'amount' | 'kind'>, string]>([
    [{ wallet: 'words', amount: 10_000, kind: 'gift' }, '+10 000 слов'],
    [{ wallet: 'words', amount: -1, kind: 'spent' }, '−1 слово'],
    [{ wallet: 'words', amount: -1_242, kind: 'spent' }, '−1 242 слова'],
    [{ wallet: 'media', amount: 2.5, kind: 'adjustment' }, '+2,5 медиа токена'],
    [{ wallet: 'media', amount: -1, kind: 'reserved' }, '−1,0 медиа токена'],
    [{ wallet: 'media', amount: 30, kind: 'purchase' }, '+30,0 медиа токена'],
    [{ wallet: 'media', amount: 0, kind: 'returned' }, 'возвращено'],
  ])('%j → %s', (line, text) => {
    expect(plain(amountText(line))).toBe(text);
  });
});

describe('BalanceHistory', () => {
  it('shows the balances now and each change in words, newest first: what, the note, when, how much', async () => {
    setup(() => ({ data: LINES, last_page: 1 }));
    const now = await screen.findByRole('region', { name: 'Сейчас на балансе' });
    expect(await within(now).findByText('98 650')).toBeTruthy();
    expect(within(now).getByText('31,5')).toBeTruthy();
    await screen.findByText('Ответ в чате «Рецепт борща на большую семью»');
    const shown = rows().map((li) => [li.querySelector('.ledger__title')?.textContent, plain(li.querySelector('.ledger__amount')?.textContent)]);
    expect(shown).toEqual([
      ['Генерация «Картинка по описанию»', '−1,0 медиа токена'],
      ['Ответ в чате «Рецепт борща на большую семью»', '−1 240 слов'],
      ['Генерация «Видео по описанию»', 'возвращено'],
      ['Начислено сервисом', '+2,5 медиа токена'],
      ['Возврат оплаты пакета «Пакет слов»', '−100 000 слов'],
      ['Возврат оплаты тарифа «Старт»', '−1,0 медиа токена'],
      ['Покупка пакета «Пакет слов»', '+100 000 слов'],
      ['Подарок за подписку на канал', '+10 000 слов'],
      ['Пробный период тарифа «Старт»', '+30,0 медиа токена'],
      ['Пробный период тарифа «Старт»', '+100 000 слов'],
    ]);
    const adjusted = rows()[3] as HTMLElement;
    expect(within(adjusted).getByText('Компенсация за сбой генерации')).toBeTruthy();
    expect(within(rows()[0] as HTMLElement).getByText('в работе')).toBeTruthy();
    expect(rows()[0]?.querySelector('time')?.getAttribute('dateTime')).toBe('2025-05-20T12:40:00Z');
    expect(screen.queryByRole('navigation', { name: 'Страницы' })).toBeNull();
  });

  it('pages through the history, keeping the page in the address', async () => {
    const { api, user } = setup((page) => ({ data: page === 1 ? LINES.slice(0, 5) : LINES.slice(5), last_page: 2 }));
    await screen.findByText('Страница 1 из 2');
    await user.click(screen.getByRole('button', { name: '2' }));
    await screen.findByText('Страница 2 из 2');
    await screen.findByText('Покупка пакета «Пакет слов»');
    expect(screen.queryByText('Начислено сервисом')).toBeNull();
    expect(window.location.search).toBe('?page=2');
    expect(api.history).toHaveBeenLastCalledWith({ query: { page: 2 } });
  });

  it('opens the page the address names', async () => {
    window.history.replaceState(null, '', '/dashboard/balance?page=3');
    const { api } = setup(() => ({ data: LINES.slice(0, 2), last_page: 3 }));
    await screen.findByText('Страница 3 из 3');
    expect(api.history).toHaveBeenCalledWith({ query: { page: 3 } });
  });

  it('a new user sees an empty history with the way to tokens', async () => {
    setup(() => ({ data: [], last_page: 1 }));
    expect(await screen.findByText('Пока ни одного движения')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Выбрать тариф' }).getAttribute('href')).toBe('/dashboard/user/payment');
  });

  it('a failed read says why and retries', async () => {
    let calls = 0;
    setup(() => (++calls === 1 ? Promise.reject(new ApiError(403, 'FORBIDDEN', 'Недостаточно прав')) : { data: LINES, last_page: 1 }));
    expect(await screen.findByText('Недостаточно прав')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    await waitFor(() => expect(rows()).toHaveLength(LINES.length));
  });
});

