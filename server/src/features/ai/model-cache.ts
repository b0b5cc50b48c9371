import type { Executor } from '../../db/database.ts';
import { NotifiedCache } from '../../lib/notified-cache.ts';
import type { PgListener } from '../../lib/pg-listener.ts';
import { CATALOG_CHANNEL, findActiveModel, type ActiveModel } from './ai.queries.ts';
import type { ModelKind } from './ai.table.ts';

/**
 * Active models with their connections, as every chat message and generation looks them up:
 * kept for 10 seconds, and dropped at once in every process when `catalogChanged` is sent (an
 * admin's edit) or after the notification connection was lost.
 */
export class ModelCache {
  private readonly cache = new NotifiedCache<ActiveModel | undefined>(CATALOG_CHANNEL, 10_000);

  listen(listener: PgListener): void {
    this.cache.listen(listener);
  }

  find(db: Executor, id: number, kinds: readonly ModelKind[]): Promise<ActiveModel | undefined> {
    // Only models found are kept: any id can be asked for.
    return this.cache.get(`${kinds.join(',')}:${String(id)}`, () => findActiveModel(db, id, kinds), (found) => found !== undefined);
  }

  clear(): void {
    this.cache.clear();
  }
}
