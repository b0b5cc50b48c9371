import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { LazyMarkdown } from '../lazy-markdown.tsx';
import { Markdown } from './markdown.tsx';

describe('Markdown answers', () => {
  it('renders GFM tables, task lists and strikethrough', () => {
    const { container } = render(<Markdown text={'| A | B |\n|---|---|\n| 1 | 2 |\n\n- [x] готово\n- [ ] нет\n\n~~старое~~'} />);
    expect(screen.getByRole('table')).toBeInTheDocument();
    expect(screen.getAllByRole('cell').map((c) => c.textContent)).toEqual(['1', '2']);
    expect(screen.getAllByRole('checkbox')).toHaveLength(2);
    expect(container.querySelector('del')).toHaveTextContent('старое');
  });

  it('links bare addresses (GFM autolink literals); footnotes are not parsed and stay text', () => {
    const { container } = render(<Markdown text={'См. https://example.ru/docs и www.example.ru\n\nСноска[^1].\n\n[^1]: Текст сноски.'} />);
    expect(screen.getByRole('link', { name: 'https://example.ru/docs' })).toHaveAttribute('href', 'https://example.ru/docs');
    expect(screen.getByRole('link', { name: 'www.example.ru' })).toHaveAttribute('href', 'http://www.example.ru');
    expect(container.querySelector('sup, .footnotes, section')).toBeNull();
    expect(container).toHaveTextContent('Сноска[^1].');
  });

  it('keeps single line breaks inside a paragraph', () => {
    const { container } = render(<Markdown text={'Первая строка\nвторая строка'} />);
    expect(container.querySelectorAll('p br')).toHaveLength(1);
  });

  it('shows no raw HTML and no script links', () => {
    const { container } = render(<Markdown text={'<script>alert(1)</script><img src=x onerror=alert(1)>\n\n[ссылка](javascript:alert(1)) [сайт](https://example.ru)'} />);
    expect(container.querySelector('script, img')).toBeNull();
    expect(screen.getByText('ссылка').closest('a')?.getAttribute('href') ?? '').not.toMatch(/javascript/i);
    const site = screen.getByRole('link', { name: 'сайт' });
    expect(site).toHaveAttribute('href', 'https://example.ru');
    expect(site).toHaveAttribute('target', '_blank');
    expect(site.getAttribute('rel')).toContain('noopener');
  });

  it('a code block has its language and a «Копировать» button that copies the code', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<Markdown text={'```python\nprint("привет")\n```'} />);
    const block = screen.getByText('python').closest('.md-code') as HTMLElement;
    await user.click(within(block).getByRole('button', { name: 'Копировать код' }));
    expect(writeText).toHaveBeenCalledWith('print("привет")');
    expect(await within(block).findByRole('button', { name: 'Скопировано' })).toBeInTheDocument();
  });
});

describe('LazyMarkdown (every screen but the chat)', () => {
  it('draws the same Markdown once its chunk is fetched, inside the given class', async () => {
    const { container } = render(<LazyMarkdown className="answer" text={'_Я на месте_ и **готов**:\n\n- раз\n- два'} />);
    const box = container.querySelector('.answer') as HTMLElement;
    expect(box.textContent).toContain('готов');
    expect((await within(box).findByText('Я на месте')).tagName).toBe('EM');
    expect(within(box).getByText('готов').tagName).toBe('STRONG');
    expect(within(box).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['раз', 'два']);
  });
});
