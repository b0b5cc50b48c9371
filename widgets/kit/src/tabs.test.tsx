import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Tabs } from './tabs.tsx';

const TABS = [
  { id: 'subscriptions', label: 'Подписки' },
  { id: 'payments', label: 'Авто списания' },
  { id: 'packages', label: 'Пакеты' },
] as const;
type Tab = (typeof TABS)[number]['id'];

function Page() {
  const [tab, setTab] = useState<Tab>('subscriptions');
  return (
    <>
      <button type="button">До вкладок</button>
      <Tabs tabs={TABS} current={tab} onChange={setTab} label="История заказов">
        <p>Открыта: {tab}</p>
      </Tabs>
    </>
  );
}

describe('Tabs', () => {
  it('puts only the selected tab in the Tab order and labels its panel with it', async () => {
    render(<Page />);
    await userEvent.click(screen.getByRole('button', { name: 'До вкладок' }));
    await userEvent.tab();
    expect(screen.getByRole('tab', { name: 'Подписки' })).toHaveFocus();
    expect(screen.getByRole('tab', { name: 'Авто списания' })).toHaveAttribute('tabindex', '-1');
    expect(screen.getByRole('tablist', { name: 'История заказов' })).toBeInTheDocument();
    expect(screen.getByRole('tabpanel', { name: 'Подписки' })).toHaveTextContent('Открыта: subscriptions');
  });

  it('moves between tabs with the arrow keys, Home and End, selecting as it goes', async () => {
    render(<Page />);
    await userEvent.click(screen.getByRole('tab', { name: 'Подписки' }));
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Авто списания' })).toHaveFocus();
    expect(screen.getByRole('tab', { name: 'Авто списания' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'Авто списания' })).toHaveTextContent('Открыта: payments');
    await userEvent.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Пакеты' })).toHaveFocus();
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Подписки' })).toHaveFocus();
    await userEvent.keyboard('{End}{Home}');
    expect(screen.getByRole('tab', { name: 'Подписки' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText('Открыта: subscriptions')).toBeInTheDocument();
  });
});
