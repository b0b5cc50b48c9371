import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PAGE_CHUNK, Pagination, pageChunk } from './Pagination.tsx';

const pageButtons = () => screen.getAllByRole('button').filter((b) => /^\d+$/.test(b.textContent));

describe('pageChunk', () => {
  it('cuts the pages into chunks of 10 (seed §9)', () => {
    expect(PAGE_CHUNK).toBe(10);
    expect(pageChunk(1, 25)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(pageChunk(10, 25)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(pageChunk(11, 25)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(pageChunk(23, 25)).toEqual([21, 22, 23, 24, 25]);
    expect(pageChunk(2, 3)).toEqual([1, 2, 3]);
  });
});

describe('Pagination', () => {
  it('renders nothing for a single page', () => {
    const { container } = render(<Pagination page={1} lastPage={1} onChange={vi.fn()} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('shows the chunk of the current page and marks the current page', () => {
    render(<Pagination page={3} lastPage={25} onChange={vi.fn()} />);
    expect(screen.getByRole('navigation', { name: 'Страницы' })).toBeInTheDocument();
    expect(pageButtons().map((b) => b.textContent)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    expect(screen.getByRole('button', { name: '3' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('button', { name: '4' })).not.toHaveAttribute('aria-current');
    expect(screen.queryByRole('button', { name: 'Предыдущие страницы' })).not.toBeInTheDocument();
  });

  it('moves to a page and between chunks', async () => {
    const onChange = vi.fn();
    const { rerender } = render(<Pagination page={3} lastPage={25} onChange={onChange} />);
    await userEvent.click(screen.getByRole('button', { name: '7' }));
    expect(onChange).toHaveBeenLastCalledWith(7);
    await userEvent.click(screen.getByRole('button', { name: 'Следующие страницы' }));
    expect(onChange).toHaveBeenLastCalledWith(11);

    rerender(<Pagination page={11} lastPage={25} onChange={onChange} />);
    expect(pageButtons().map((b) => b.textContent)).toEqual(['11', '12', '13', '14', '15', '16', '17', '18', '19', '20']);
    await userEvent.click(screen.getByRole('button', { name: 'Предыдущие страницы' }));
    expect(onChange).toHaveBeenLastCalledWith(10);
    await userEvent.click(screen.getByRole('button', { name: 'Следующие страницы' }));
    expect(onChange).toHaveBeenLastCalledWith(21);

    rerender(<Pagination page={21} lastPage={25} onChange={onChange} />);
    expect(pageButtons().map((b) => b.textContent)).toEqual(['21', '22', '23', '24', '25']);
    expect(screen.queryByRole('button', { name: 'Следующие страницы' })).not.toBeInTheDocument();
  });

  it('disables every button while a page loads', () => {
    render(<Pagination page={1} lastPage={12} onChange={vi.fn()} disabled />);
    for (const button of screen.getAllByRole('button')) expect(button).toBeDisabled();
  });
});
