import { useEffect, useRef } from 'react';
import type { WidgetProps } from '@app/contracts/browser';
import { conversionApi, type ConversionApi } from './api.ts';

/** Drops `payments` from the address bar so that a reload does not record the goal again. */
function removePaymentsFlag(): void {
  const url = new URL(window.location.href);
  if (!url.searchParams.has('payments')) return;
  url.searchParams.delete('payments');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

/**
 * Conversion-tracking stub (seed §7): renders nothing; when the page was opened with
 * `payments=1` it calls GET /api/new/target_2 once. Failures are only logged.
 */
export function Conversion({ payments, api = conversionApi }: WidgetProps<'conversion'> & { api?: ConversionApi }) {
  // StrictMode runs effects twice on mount; the goal must be recorded once.
  const fired = useRef(false);
  useEffect(() => {
    if (payments !== 1 || fired.current) return;
    fired.current = true;
    api
      .record()
      .catch((err: unknown) => {
        console.warn('Не удалось отметить конверсию', err);
      })
      .finally(removePaymentsFlag);
  }, [payments, api]);
  return null;
}
