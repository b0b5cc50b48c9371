import { describe, expect, it } from 'vitest';
import { NotifiedCache } from '../../src/lib/notified-cache.ts';
import type { PgListener } from '../../src/lib/pg-listener.ts';

/** A stand-in for the LISTEN connection: the test sends what PostgreSQL would deliver. */
function fakeListener() {
  const handlers = new Map<string, { onMessage: (payload: string) => void; onReconnect?: () => void }>();
  const listener = { subscribe: (channel: string, h: { onMessage: (payload: string) => void; onReconnect?: () => void }) => void handlers.set(channel, h) } as unknown as PgListener;
  return { listener, notify: (channel: string) => handlers.get(channel)?.onMessage(''), reconnect: (channel: string) => handlers.get(channel)?.onReconnect?.() };
}

/** A load that counts its calls and answers what `value` gives at the time. */
function counted<V>(value: () => V | Promise<V>) {
  const load = Object.assign(async (): Promise<V> => {
    load.calls++;
    return value();
  }, { calls: 0 });
  return load;
}

describe('NotifiedCache', () => {
  it('keeps a value for its time to live, then loads it again', async () => {
    let now = 1_000;
    const cache = new NotifiedCache<string>('ch', 10_000, () => now);
    let current = 'первое';
    const load = counted(() => current);
    expect(await cache.get('k', load)).toBe('первое');
    current = 'второе';
    now += 9_999;
    expect(await cache.get('k', load)).toBe('первое');
    expect(load.calls).toBe(1);
    now += 1;
    expect(await cache.get('k', load)).toBe('второе');
    expect(load.calls).toBe(2);
  });

  it('drops everything at a notification of its channel and after the listener reconnected, not at another channel', async () => {
    const { listener, notify, reconnect } = fakeListener();
    const cache = new NotifiedCache<number>('ns_test', 60_000);
    cache.listen(listener);
    let current = 1;
    const load = counted(() => current);
    expect(await cache.get('k', load)).toBe(1);
    current = 2;
    notify('other');
    expect(await cache.get('k', load)).toBe(1);
    notify('ns_test');
    expect(await cache.get('k', load)).toBe(2);
    current = 3;
    reconnect('ns_test');
    expect(await cache.get('k', load)).toBe(3);
    expect(load.calls).toBe(3);
  });

  it('shares one load between concurrent gets; keeps neither a failed load nor a value `keep` refuses', async () => {
    const cache = new NotifiedCache<string | undefined>('ch', 60_000);
    let release!: (v: string) => void;
    const slow = counted<string | undefined>(() => new Promise<string>((r) => (release = r)));
    const both = Promise.all([cache.get('k', slow), cache.get('k', slow)]);
    release('одно');
    expect(await both).toEqual(['одно', 'одно']);
    expect(slow.calls).toBe(1);

    let fail = true;
    const flaky = counted<string | undefined>(() => {
      if (fail) throw new Error('база недоступна');
      return 'есть';
    });
    await expect(cache.get('f', flaky)).rejects.toThrow('база недоступна');
    fail = false;
    expect(await cache.get('f', flaky)).toBe('есть');
    expect(flaky.calls).toBe(2);

    const model: { found?: string } = {};
    const lookup = counted(() => model.found);
    const onlyFound = (v: string | undefined) => v !== undefined;
    expect(await cache.get('m', lookup, onlyFound)).toBeUndefined();
    model.found = 'нашлась';
    expect(await cache.get('m', lookup, onlyFound)).toBe('нашлась');
    expect(await cache.get('m', lookup, onlyFound)).toBe('нашлась');
    expect(lookup.calls).toBe(2);
  });

  it('a load that fails after a newer one replaced it leaves the newer one', async () => {
    let now = 0;
    const cache = new NotifiedCache<string>('ch', 100, () => now);
    let fail!: (e: Error) => void;
    const old = cache.get('k', () => new Promise<string>((_, reject) => (fail = reject)));
    now = 200;
    const fresh = counted(() => 'новое');
    expect(await cache.get('k', fresh)).toBe('новое');
    fail(new Error('поздно'));
    await expect(old).rejects.toThrow('поздно');
    expect(await cache.get('k', fresh)).toBe('новое');
    expect(fresh.calls).toBe(1);
  });
});
