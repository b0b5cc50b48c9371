import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Menu } from './menu.tsx';

describe('Menu', () => {
  it('opens from its button, moves with the arrows and runs the chosen item', async () => {
    const rename = vi.fn();
    const remove = vi.fn();
    render(
      <Menu
        trigger="…"
        label="Действия с чатом"
        items={[
          { label: 'Переименовать', onSelect: rename },
          { label: 'Удалить', onSelect: remove, danger: true },
        ]}
      />,
    );
    const button = screen.getByRole('button', { name: 'Действия с чатом' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('menu')).toBeInTheDocument();
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Переименовать', 'Удалить']);
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(remove).toHaveBeenCalledTimes(1);
    expect(rename).not.toHaveBeenCalled();
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });
});
