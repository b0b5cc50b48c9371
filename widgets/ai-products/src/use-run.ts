import { useEffect, useRef, useState } from 'react';
import type { Generation } from '@app/contracts/generation';
import { isActive } from './texts.ts';
import type { ProductsApi } from './api.ts';

/** How often a run is read again when its events cannot be followed. */
export const POLL_MS = 2000;

/**
 * The run the screen shows, as it goes: once set (the start's answer), its events are followed
 * (progress, then done) and, if the stream breaks, its status is read every `pollMs` until it is
 * final. `onFinal` runs once when it becomes final.
 */
export function useRun(api: ProductsApi, onFinal: (run: Generation) => void, pollMs = POLL_MS) {
  const [run, setRun] = useState<Generation | null>(null);
  const finalRef = useRef(onFinal);
  useEffect(() => {
    finalRef.current = onFinal;
  });
  const id = run?.id ?? null;
  const active = run ? isActive(run) : false;
  const activeRef = useRef(active);
  useEffect(() => {
    activeRef.current = active;
  });
  const [fallback, setFallback] = useState(false);

  // Keyed on the run, not on its status: the stream's `progress` to a final status comes just before its `done`.
  useEffect(() => {
    if (id === null || !activeRef.current) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (final: Generation) => {
      setRun((old) => (old?.id === final.id ? final : old));
      finalRef.current(final);
    };
    const poll = () => {
      timer = setTimeout(() => {
        api
          .status({ params: { id } })
          .then((latest) => {
            if (controller.signal.aborted) return;
            if (isActive(latest)) {
              setRun((old) => (old?.id === latest.id ? latest : old));
              poll();
            } else finish(latest);
          })
          .catch(() => {
            if (!controller.signal.aborted) poll();
          });
      }, pollMs);
    };
    if (fallback) poll();
    else {
      let done = false;
      api
        .events(
          { params: { id } },
          {
            signal: controller.signal,
            onEvent: (event) => {
              if (event.event === 'progress') {
                const { status, progress } = event.data;
                // A final status is shown with the run `done` brings (outputs, text, what it cost).
                if (status === 'queued' || status === 'running') setRun((old) => (old?.id === id ? { ...old, status, progress } : old));
              } else {
                done = true;
                finish(event.data);
              }
            },
          },
        )
        .then(() => {
          if (!done && !controller.signal.aborted) setFallback(true);
        })
        .catch(() => {
          if (!controller.signal.aborted) setFallback(true);
        });
    }
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [id, fallback, api, pollMs]);
  return { run, setRun: (next: Generation | null) => {
    setFallback(false);
    setRun(next);
  } };
}
