import { StrictMode } from 'react';
import { render, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@app/kit';
import { Conversion } from './Conversion.tsx';
import { billingEndpoints } from '@app/contracts/browser';
import { fakeRoute } from '@app/kit/test';

const fakeApi = (answer: () => Promise<{ recorded: boolean }> = () => Promise.resolve({ recorded: true })) => ({ record: fakeRoute(billingEndpoints.conversion, answer) });

describe('Conversion', () => {
  beforeEach(() => window.history.replaceState(null, '', '/dashboard?payments=1&tab=news#top'));
  afterEach(() => vi.restoreAllMocks());

  it('calls target_2 once under StrictMode and removes payments=1 from the address bar', async () => {
    const api = fakeApi();
    const { container } = render(
      <StrictMode>
        <Conversion payments={1} api={api} />
      </StrictMode>,
    );
    await waitFor(() => expect(window.location.search).toBe('?tab=news'));
    expect(api.record).toHaveBeenCalledTimes(1);
    expect(window.location.pathname).toBe('/dashboard');
    expect(window.location.hash).toBe('#top');
    expect(container).toBeEmptyDOMElement();
  });

  it('does nothing without the payments flag', async () => {
    const api = fakeApi();
    render(<Conversion payments={0} api={api} />);
    // render() runs the effects before it returns (act): a goal would have been asked for by now.
    expect(api.record).not.toHaveBeenCalled();
    expect(window.location.search).toBe('?payments=1&tab=news');
  });

  it('ignores a failure silently (console only) and still cleans the address bar', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const api = fakeApi(() => Promise.reject(new ApiError(500, 'INTERNAL', 'Произошла ошибка')));
    const { container } = render(<Conversion payments={1} api={api} />);
    await waitFor(() => expect(window.location.search).toBe('?tab=news'));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(container).toBeEmptyDOMElement();
  });
});
