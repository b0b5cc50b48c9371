import type { Tariff } from '@app/contracts';
import type { Executor } from '../../db/database.ts';
import type { PgListener } from '../../lib/pg-listener.ts';
import { listActiveTariffs, toTariffDto } from './tariffs.queries.ts';

/** NOTIFY channel of any change of the `tariffs` table (a trigger, migration 0132): every process drops its list. */
export const TARIFFS_CHANNEL = 'ns_tariffs';

type Load = (db: Executor, withPackages: boolean) => Promise<readonly Tariff[]>;

const loadFromTable: Load = async (db, withPackages) => (await listActiveTariffs(db, withPackages)).map(toTariffDto);

/**
 * The plans on sale as `GET /api/new/tariff` answers them (with packages or without), which every
 * dashboard, payment page and their widgets read: kept in memory at most `ttlMs`, and only while
 * this process receives notifications — every change of the table is announced on
 * {@link TARIFFS_CHANNEL} (a trigger, on commit) and drops both lists in every process; while the
 * notification connection is down nothing is kept (the table answers), and all is dropped when it
 * goes down or comes back (a read under way then is dropped with the rest: it may have read the
 * table before the change). The admin panel's edits also drop the lists of their own process at once, so the
 * editor's next read never sees the old plan.
 */
export class TariffCache {
  private readonly lists = new Map<boolean, { at: number; plans: Promise<readonly Tariff[]> }>();
  private listener: PgListener | null = null;

  constructor(private readonly opts: { ttlMs: number; load?: Load; now?: () => number }) {}

  listen(listener: PgListener): void {
    this.listener = listener;
    listener.subscribe(TARIFFS_CHANNEL, { onMessage: () => this.clear(), onReconnect: () => this.clear(), onDisconnect: () => this.clear() });
  }

  private get usable(): boolean {
    return this.opts.ttlMs > 0 && this.listener?.listening === true;
  }

  /** The active plans in display order, packages left out unless `withPackages`; frozen (shared by every request). */
  list(db: Executor, withPackages: boolean): Promise<readonly Tariff[]> {
    const load = this.opts.load ?? loadFromTable;
    if (!this.usable) return load(db, withPackages);
    const now = (this.opts.now ?? Date.now)();
    const hit = this.lists.get(withPackages);
    if (hit && now - hit.at < this.opts.ttlMs) return hit.plans;
    const plans = load(db, withPackages).then((rows) => Object.freeze(rows.map((t) => Object.freeze(t))));
    // Requests that arrive while the table is read share the read; a failed read is not kept.
    this.lists.set(withPackages, { at: now, plans });
    plans.catch(() => {
      if (this.lists.get(withPackages)?.plans === plans) this.lists.delete(withPackages);
    });
    return plans;
  }

  /** Drops both lists (a read under way is not kept: the next request reads the table again). */
  clear(): void {
    this.lists.clear();
  }
}
