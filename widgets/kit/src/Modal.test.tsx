import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Button, Modal } from './ui.tsx';

/** A page with a button that opens the modal, and a counter that re-renders the page under it. */
function Page({ onClose = vi.fn() }: { onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  const [renders, setRenders] = useState(0);
  return (
    <>
      <main data-testid="behind">
        <Button onClick={() => setOpen(true)}>Открыть</Button>
      </main>
      {open && (
        <Modal
          title="Отменить подписку?"
          onClose={() => {
            onClose();
            setOpen(false);
          }}
          footer={
            <>
              <Button variant="secondary" onClick={() => setOpen(false)}>
                Нет
              </Button>
              <Button onClick={() => setRenders((n) => n + 1)}>Ещё раз {renders}</Button>
            </>
          }
        />
      )}
    </>
  );
}

describe('Modal', () => {
  it('takes the focus, makes the page behind inert and gives both back when closed', async () => {
    render(<Page />);
    const opener = screen.getByRole('button', { name: 'Открыть' });
    await userEvent.click(opener);
    expect(screen.getByRole('dialog', { name: 'Отменить подписку?' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Нет' })).toHaveFocus();
    expect(screen.getByTestId('behind')).toHaveAttribute('inert');
    await userEvent.click(screen.getByRole('button', { name: 'Нет' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('behind')).not.toHaveAttribute('inert');
    expect(opener).toHaveFocus();
  });

  it('keeps the focus where the user put it when the page under it re-renders', async () => {
    render(<Page />);
    await userEvent.click(screen.getByRole('button', { name: 'Открыть' }));
    const again = screen.getByRole('button', { name: /Ещё раз/ });
    await userEvent.click(again);
    await userEvent.click(again);
    expect(again).toHaveTextContent('Ещё раз 2');
    expect(again).toHaveFocus();
  });

  it('closes with Escape, calling the latest onClose', async () => {
    const onClose = vi.fn();
    render(<Page onClose={onClose} />);
    await userEvent.click(screen.getByRole('button', { name: 'Открыть' }));
    await userEvent.click(screen.getByRole('button', { name: /Ещё раз/ }));
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
