import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { SubscribeCheck } from '@app/contracts/browser';
import { TooFewTokensView, topUpOf, type TopUp } from './too-few-tokens.tsx';

const CHECK: SubscribeCheck = { subscriptions: 2, first: false, card: null, cancelled: false, active_until: null, trial: false, past_due: false, next_charge_at: null, next_charge_amount: null };

describe('the way to more tokens', () => {
  it('packages with a renewing plan (past due too), the plans without one or with a cancelled one', () => {
    expect(topUpOf(undefined)).toBe('unknown');
    expect(topUpOf(CHECK)).toBe('packages');
    expect(topUpOf({ ...CHECK, past_due: true })).toBe('packages');
    expect(topUpOf({ ...CHECK, subscriptions: null })).toBe('subscribe');
    expect(topUpOf({ ...CHECK, cancelled: true })).toBe('resubscribe');
  });
});

describe('TooFewTokensView', () => {
  const view = (topUp: TopUp, wallet: 'words' | 'media' = 'media') => {
    const onDismiss = vi.fn();
    render(
      <TooFewTokensView wallet={wallet} topUp={topUp} plansUrl="/plans" packagesUrl="/plans#packages" onDismiss={onDismiss}>
        Запуск стоит 1,0 медиа токена.
      </TooFewTokensView>,
    );
    return { panel: screen.getByRole('alert', { name: wallet === 'media' ? 'Недостаточно медиа токенов' : 'Недостаточно слов' }), onDismiss };
  };
  const links = (panel: HTMLElement) => within(panel).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')]);

  it('on a plan: the packages of its wallet first, another plan second', () => {
    expect(links(view('packages').panel)).toEqual([
      ['Купить пакет медиа токенов', '/plans#packages'],
      ['Сменить тариф', '/plans'],
    ]);
  });

  it.each<TopUp>(['subscribe', 'resubscribe', 'unknown'])('%s: only the plans, never packages that could not be bought', (topUp) => {
    expect(links(view(topUp, 'words').panel)).toEqual([['Выбрать тариф', '/plans']]);
  });

  it('says what the work costs, then what to do; closes', async () => {
    const { panel, onDismiss } = view('subscribe');
    expect(panel).toHaveTextContent('Запуск стоит 1,0 медиа токена. Подключите тариф: слова и медиа токены начисляются каждый месяц и не сгорают.');
    await userEvent.click(within(panel).getByRole('button', { name: 'Закрыть' }));
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });
});
