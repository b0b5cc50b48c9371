import type { Executor } from '../../db/database.ts';
import type { PgListener } from '../../lib/pg-listener.ts';
import { CATALOG_CHANNEL, findActiveModel, type ActiveModel } from './ai.queries.ts';
import type { ModelKind } from './ai.table.ts';

const TTL_MS = 10_000;

/**
 * Active models with their connections, as every chat message and generation looks them up:
 * kept for 10 seconds, and dropped at once in every process when `catalogChanged` is sent (an
 * admin's edit) or after the notification connection was lost.
 */
export class ModelCache {
  private readonly entries = new Map<string, { at: number; model: Promise<ActiveModel | undefined> }>();

  listen(listener: PgListener): void {
    listener.subscribe(CATALOG_CHANNEL, { onMessage: () => this.clear(), onReconnect: () => this.clear() });
  }

  find(db: Executor, id: number, kinds: readonly ModelKind[]): Promise<ActiveModel | undefined> {
    const key = `${kinds.join(',')}:${String(id)}`;
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < TTL_MS) return hit.model;
    const model = findActiveModel(db, id, kinds);
    this.entries.set(key, { at: now, model });
    // Only models found are kept: any id can be asked for, and a failed lookup may work next time.
    model.then(
      (found) => {
        if (!found) this.entries.delete(key);
      },
      () => this.entries.delete(key),
    );
    return model;
  }

  clear(): void {
    this.entries.clear();
  }
}
