/**
 * Waits `ms`, or less when `signal` aborts first; answers whether the whole time passed. The
 * abort listener goes away with the pause, so a loop pausing many times on one long-lived signal
 * (a stream polling every 400 ms, a job polling every second) leaves none behind — each one kept
 * would count towards Node's 10-listener warning and hold its closure until the signal dies.
 */
export function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
