import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { widgetProps } from '@app/contracts/browser';
import { HistoryButton } from './HistoryButton.tsx';

describe('HistoryButton', () => {
  it('is a button-styled link to the order history by default', () => {
    render(<HistoryButton {...widgetProps['history-button'].parse({})} />);
    const link = screen.getByRole('link', { name: 'История заказов' });
    expect(link).toHaveAttribute('href', '/dashboard/user/orders');
    expect(link).toHaveClass('btn');
  });

  it('takes its address and label from props', () => {
    render(<HistoryButton href="/ai-history" label="История" />);
    expect(screen.getByRole('link', { name: 'История' })).toHaveAttribute('href', '/ai-history');
  });
});
