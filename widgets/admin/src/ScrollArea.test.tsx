import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScrollArea } from './ScrollArea.tsx';

/** jsdom lays nothing out: the frame is given a width and its table another. */
function sizes(frame: number, content: number) {
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('admin-table__wrap') ? frame : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('admin-table__wrap') ? content : 0;
  });
}

const table = (
  <table>
    <tbody>
      <tr>
        <td>Платёж</td>
      </tr>
    </tbody>
  </table>
);

afterEach(() => vi.restoreAllMocks());

describe('ScrollArea', () => {
  it('a table that fits is shown as it is: no hint, no region to scroll', () => {
    sizes(800, 800);
    render(<ScrollArea label="Платежи">{table}</ScrollArea>);
    expect(screen.queryByText(/прокрутите/)).toBeNull();
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('a wider one says it scrolls, is a focusable region, and says where its start is once scrolled to the end', () => {
    sizes(400, 900);
    const { container } = render(<ScrollArea label="Платежи">{table}</ScrollArea>);
    const region = screen.getByRole('region', { name: 'Платежи' });
    expect(region).toHaveAttribute('tabindex', '0');
    expect(region).toHaveAccessibleDescription('Таблица шире экрана: прокрутите её вбок →');
    expect(container.firstElementChild).toHaveClass('is-right');
    expect(container.firstElementChild).not.toHaveClass('is-left');
    Object.defineProperty(region, 'scrollLeft', { value: 500, configurable: true });
    act(() => {
      fireEvent.scroll(region);
    });
    expect(screen.getByText('← Таблица шире экрана: её начало слева')).toBeTruthy();
    expect(container.firstElementChild).toHaveClass('is-left');
    expect(container.firstElementChild).not.toHaveClass('is-right');
  });
});
