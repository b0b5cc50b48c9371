import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { PgListener } from '../../lib/pg-listener.ts';
import { findActiveModel, type ActiveModel } from './ai.queries.ts';
import type { ModelKind } from './ai.table.ts';

/** NOTIFY channel: the catalogue (models, connections) changed; every process drops its cache. */
export const CATALOG_CHANNEL = 'ns_catalog';
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

/** Tells every process the catalogue changed (in `db`'s transaction, if it is one). */
export async function catalogChanged(db: Executor): Promise<void> {
  await sql`select pg_notify(${CATALOG_CHANNEL}, '')`.execute(db);
}
