import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { pause } from '../../src/lib/pause.ts';

/* The wait of polling loops: many pauses on one long-lived signal leave no listener behind. */

describe('pause', () => {
  it('a hundred pauses on one signal (a job’s: its time limit and its queue’s stop) keep no abort listener and raise no warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const stop = new AbortController();
      const signal = AbortSignal.any([AbortSignal.timeout(60_000), stop.signal]);
      const most: number[] = [];
      for (let i = 0; i < 100; i += 1) {
        const waiting = pause(1, signal);
        most.push(getEventListeners(signal, 'abort').length);
        expect(await waiting).toBe(true);
      }
      expect(Math.max(...most)).toBe(1);
      expect(getEventListeners(signal, 'abort')).toHaveLength(0);
      // The warning would be emitted on the next tick of the 11th listener: one more round trip lets it arrive.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('ends early when the signal aborts (answering false), and at once when it already had', async () => {
    const controller = new AbortController();
    const waiting = pause(60_000, controller.signal);
    controller.abort();
    expect(await waiting).toBe(false);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(await pause(60_000, controller.signal)).toBe(false);
  });
});
