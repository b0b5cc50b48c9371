import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { run } from './fixtures.ts';
import { RunPanel } from './RunPanel.tsx';

const panel = (props: Partial<Parameters<typeof RunPanel>[0]>) => {
  const onCancel = vi.fn();
  render(<RunPanel run={run()} cancelling={false} onCancel={onCancel} onAgain={() => undefined} onEdit={() => undefined} historyUrl="/ai-history" {...props} />);
  return { onCancel };
};

describe('RunPanel', () => {
  it('a video its provider is working on can be cancelled, saying it pays only for the part done', async () => {
    const { onCancel } = panel({ run: run({ variant: 'video', status: 'running', progress: 50 }) });
    expect(screen.getByText(/спишем только за уже выполненную часть/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Отменить' }));
    expect(onCancel).toHaveBeenCalledOnce();
  });

  it('a picture answered in one request offers no cancel once it runs', () => {
    panel({ run: run({ variant: 'img', status: 'running', progress: 50 }) });
    expect(screen.queryByRole('button', { name: 'Отменить' })).toBeNull();
  });

  it('a video cancelled halfway shows what it kept, not «Токены возвращены»', () => {
    panel({ run: run({ variant: 'video', status: 'cancelled', progress: 50, refunded: false, cost: { wallet: 'media', amount: 1 } }) });
    expect(screen.getByText(/Списано: 1,0 медиа токена/)).toBeTruthy();
    expect(screen.queryByText('Токены возвращены на баланс')).toBeNull();
  });
});
