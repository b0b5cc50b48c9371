import type { Tariff } from '@app/contracts';
import type { Executor } from '../../db/database.ts';
import { NotifiedCache } from '../../lib/notified-cache.ts';
import type { PgListener } from '../../lib/pg-listener.ts';
import { listActiveTariffs, TARIFFS_CHANNEL, toTariffDto } from './tariffs.queries.ts';

/**
 * The plans on sale as `GET /api/new/tariff` answers them (every visit of the plans page, a
 * guest's too, asks): kept for 10 seconds, and dropped at once in every process when
 * `tariffsChanged` is sent (an admin's edit, at its commit) or after the notification connection
 * was lost. A payment never reads a plan from here: it reads its row in its own transaction.
 */
export class PlanCache {
  private readonly cache = new NotifiedCache<readonly Tariff[]>(TARIFFS_CHANNEL, 10_000);

  listen(listener: PgListener): void {
    this.cache.listen(listener);
  }

  /** Active plans in display order, with the packages when `withPackages`; shared by every request, so frozen. */
  list(db: Executor, withPackages: boolean): Promise<readonly Tariff[]> {
    return this.cache.get(withPackages ? 'with-packages' : 'plans', async () => Object.freeze((await listActiveTariffs(db, withPackages)).map((row) => Object.freeze(toTariffDto(row)))));
  }

  clear(): void {
    this.cache.clear();
  }
}
