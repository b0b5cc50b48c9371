import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Tabs } from './ui.tsx';

const TABS = [
  { id: 'subscriptions', label: 'Подписки' },
  { id: 'payments', label: 'Авто списания' },
] as const;

function Page() {
  const [tab, setTab] = useState<'subscriptions' | 'payments'>('subscriptions');
  return (
    <>
      <button type="button">До вкладок</button>
      <Tabs tabs={TABS} current={tab} onChange={setTab} label="История заказов" />
      <p>Открыта: {tab}</p>
    </>
  );
}

describe('Tabs', () => {
  it('puts only the selected tab in the Tab order', async () => {
    render(<Page />);
    await userEvent.click(screen.getByRole('button', { name: 'До вкладок' }));
    await userEvent.tab();
    expect(screen.getByRole('tab', { name: 'Подписки' })).toHaveFocus();
    expect(screen.getByRole('tab', { name: 'Авто списания' })).toHaveAttribute('tabindex', '-1');
  });

  it('moves between tabs with the arrow keys, Home and End, selecting as it goes', async () => {
    render(<Page />);
    await userEvent.click(screen.getByRole('tab', { name: 'Подписки' }));
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Авто списания' })).toHaveFocus();
    expect(screen.getByRole('tab', { name: 'Авто списания' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText('Открыта: payments')).toBeInTheDocument();
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Подписки' })).toHaveFocus();
    await userEvent.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Авто списания' })).toHaveFocus();
    await userEvent.keyboard('{Home}');
    expect(screen.getByRole('tab', { name: 'Подписки' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText('Открыта: subscriptions')).toBeInTheDocument();
  });
});
