import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TestOutcome } from './Providers.tsx';

/* The provider test's answer: the model's own Markdown, sanitized, and whole even when cut at the test's length limit. */

describe('the provider test’s answer', () => {
  it('cut at the limit mid-italics: the marks it opened are closed, none shows raw', async () => {
    render(<TestOutcome result={{ ok: true, latency_ms: 105, model: 'demo', answer: 'Связь есть. **Готов** отвечать.\n\n_Это ответ демо-режима: он составлен', error: null }} />);
    const outcome = screen.getByRole('status', { name: 'Результат проверки' });
    expect((await screen.findByText('Это ответ демо-режима: он составлен')).tagName).toBe('EM');
    expect(screen.getByText('Готов').tagName).toBe('STRONG');
    expect(outcome.textContent).not.toMatch(/[_*]/);
  });

  it('a failure is the server’s own sentence, not Markdown', () => {
    render(<TestOutcome result={{ ok: false, latency_ms: 120, model: 'gpt-4o-mini', answer: null, error: 'Провайдер не принял ключ (HTTP 401): _bad_key_' }} />);
    expect(screen.getByRole('status', { name: 'Результат проверки' }).textContent).toContain('_bad_key_');
  });
});
