import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EmailText } from './ui.tsx';

describe('EmailText', () => {
  it('offers a line break before the «@» and nowhere else', () => {
    const { container } = render(<EmailText email="a-rather-long-client-address@example.ru" />);
    const span = container.querySelector('.email-text');
    expect(span?.innerHTML).toBe('a-rather-long-client-address<wbr>@example.ru');
    expect(span?.textContent).toBe('a-rather-long-client-address@example.ru');
  });

  it('an address without a local part is shown as it is', () => {
    const { container } = render(<EmailText email="@example.ru" />);
    expect(container.querySelector('.email-text')?.innerHTML).toBe('@example.ru');
  });
});
