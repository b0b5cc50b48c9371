import { useCallback, useEffect, useState } from 'react';
import { UNKNOWN_ERROR_MESSAGE } from '@app/contracts';
import { ApiError } from './api.ts';

/** What a widget shows while reading its data. */
export type LoadState<T> = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; data: T };

/** The message to show for a failure: the server's (seed §8) or «Произошла ошибка». */
export const failureMessage = (err: unknown): string => (err instanceof ApiError ? err.message : UNKNOWN_ERROR_MESSAGE);

/** Like `failureMessage`, but only a reply the server actually sent counts: a network failure or a thrown bug reads as «Произошла ошибка». */
export const serverMessage = (err: unknown): string => (err instanceof ApiError && err.status > 0 ? err.message : UNKNOWN_ERROR_MESSAGE);

type Settled<T> = { status: 'error'; message: string } | { status: 'ready'; data: T };

/**
 * Runs `load` (keep it stable with `useCallback`) and gives its state; a new `load` or
 * `reload()` starts over with `loading`. `update` changes the loaded data in place.
 */
export function useLoad<T>(load: () => Promise<T>): { state: LoadState<T>; reload: () => void; update: (change: (data: T) => T) => void } {
  const [attempt, setAttempt] = useState(0);
  const [result, setResult] = useState<{ load: () => Promise<T>; attempt: number; state: Settled<T> } | null>(null);

  useEffect(() => {
    let current = true;
    load().then(
      (data) => {
        if (current) setResult({ load, attempt, state: { status: 'ready', data } });
      },
      (err: unknown) => {
        if (current) setResult({ load, attempt, state: { status: 'error', message: failureMessage(err) } });
      },
    );
    return () => {
      current = false;
    };
  }, [load, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const update = useCallback((change: (data: T) => T) => {
    setResult((r) => (r?.state.status === 'ready' ? { ...r, state: { status: 'ready', data: change(r.state.data) } } : r));
  }, []);
  const state: LoadState<T> = result && result.load === load && result.attempt === attempt ? result.state : { status: 'loading' };
  return { state, reload, update };
}
