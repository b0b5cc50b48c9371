import type { Db, Tx } from '../db/database.ts';
import type { PgListener } from './pg-listener.ts';

/**
 * What the database answers for a key, kept `ttlMs` and dropped at once in every process when
 * `channel` is notified (an admin's edit sends it in its transaction, so it arrives at the commit)
 * or after the notification connection was lost (a notification may have been missed then). The
 * process that made the change drops its own copy itself, so its next request already sees it. A
 * load that fails is not kept, nor a value `keep` refuses. Concurrent gets of a key share one load.
 */
export class NotifiedCache<V> {
  private readonly entries = new Map<string, { at: number; value: Promise<V> }>();

  constructor(
    private readonly channel: string,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  listen(listener: PgListener): void {
    listener.subscribe(this.channel, { onMessage: () => this.clear(), onReconnect: () => this.clear() });
  }

  get(key: string, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    const entry = { at: now, value: load() };
    this.entries.set(key, entry);
    entry.value.then(
      (value) => {
        if (!keep(value)) this.drop(key, entry);
      },
      () => this.drop(key, entry),
    );
    return entry.value;
  }

  clear(): void {
    this.entries.clear();
  }

  /** Drops `entry` unless a newer load of the key replaced it already. */
  private drop(key: string, entry: { at: number; value: Promise<V> }): void {
    if (this.entries.get(key) === entry) this.entries.delete(key);
  }
}

/**
 * Runs `change` in one transaction that also sends the NOTIFY of `announce` (delivered to every
 * process when it commits, and they drop their copies), then drops `cache` in this process at
 * once, so the next request here already sees the change.
 */
export async function announcedChange<T>(db: Db, announce: (tx: Tx) => Promise<void>, cache: { clear(): void }, change: (tx: Tx) => Promise<T>): Promise<T> {
  const result = await db.transaction().execute(async (tx) => {
    const value = await change(tx);
    await announce(tx);
    return value;
  });
  cache.clear();
  return result;
}
