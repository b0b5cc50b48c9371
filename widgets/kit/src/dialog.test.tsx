import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Dialog } from './dialog.tsx';
import { Button } from './ui.tsx';

function Page({ dismissible = true }: { dismissible?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <main>
      <button type="button" onClick={() => setOpen(true)}>
        Отменить подписку
      </button>
      {open && (
        <Dialog
          title="Отменить подписку?"
          dismissible={dismissible}
          onClose={() => setOpen(false)}
          footer={
            <>
              <Button variant="secondary" onClick={() => setOpen(false)}>
                Нет
              </Button>
              <Button>Да</Button>
            </>
          }
        >
          <p>Автопродление отключится.</p>
        </Dialog>
      )}
    </main>
  );
}

describe('Dialog', () => {
  it('is a dialog named by its title; focus moves in, stays in, and comes back on close', async () => {
    render(<Page />);
    const opener = screen.getByRole('button', { name: 'Отменить подписку' });
    await userEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Отменить подписку?' });
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    await userEvent.tab();
    await userEvent.tab();
    await userEvent.tab();
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    await userEvent.click(screen.getByRole('button', { name: 'Нет' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await vi.waitFor(() => expect(opener).toHaveFocus());
  });

  it('closes on Escape, and the page behind is hidden from assistive technology while open', async () => {
    const { container } = render(<Page />);
    await userEvent.click(screen.getByRole('button', { name: 'Отменить подписку' }));
    expect(container).toHaveAttribute('aria-hidden', 'true');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(container).not.toHaveAttribute('aria-hidden');
  });

  it('ignores Escape when it must be answered', async () => {
    render(<Page dismissible={false} />);
    await userEvent.click(screen.getByRole('button', { name: 'Отменить подписку' }));
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});
