import { sql } from 'kysely';
import { SUBSCRIPTION_TYPES, type Tariff } from '@app/contracts';
import type { Executor } from '../../db/database.ts';
import { prepared } from '../../db/prepared.ts';
import { mediaToWire } from '../wallet/wallet.queries.ts';
import type { TariffRow } from './billing.table.ts';
import { rubles } from './money.ts';

export const isPackage = (t: Pick<TariffRow, 'subscriptions_type'>) => t.subscriptions_type === SUBSCRIPTION_TYPES.package;
/** Type 1 is monthly with a trial (when it has a first amount and at least a day of trial). */
export const hasTrial = (t: Pick<TariffRow, 'subscriptions_type' | 'first_amount_kopecks' | 'trial_days'>) =>
  t.subscriptions_type === SUBSCRIPTION_TYPES.monthlyTrial && t.first_amount_kopecks !== null && t.trial_days > 0;

export function toTariffDto(t: TariffRow): Tariff {
  return {
    id: t.id,
    name: t.name,
    amount: rubles(t.amount_kopecks),
    first_amount: t.first_amount_kopecks === null ? null : rubles(t.first_amount_kopecks),
    description: t.description,
    subscriptions_type: t.subscriptions_type,
    popular: t.popular,
    currency_provider: t.currency_provider,
    words: t.words,
    media: mediaToWire(t.media_tenths),
    trial_days: t.trial_days,
  };
}

const activeTariffs = prepared(
  (db) => db.selectFrom('tariffs').selectAll().where('active', '=', true).orderBy('sort').orderBy('id'),
  () => [true],
  [],
);
const activePlans = prepared(
  (db) => db.selectFrom('tariffs').selectAll().where('active', '=', true).where('subscriptions_type', '!=', SUBSCRIPTION_TYPES.package).orderBy('sort').orderBy('id'),
  () => [true, SUBSCRIPTION_TYPES.package],
  [],
);

/** NOTIFY channel: plans or packages changed; every process drops its copy of the list on sale. */
export const TARIFFS_CHANNEL = 'ns_tariffs';

/** Tells every process the plans changed (in `db`'s transaction, if it is one: at its commit). */
export async function tariffsChanged(db: Executor): Promise<void> {
  await sql`select pg_notify(${TARIFFS_CHANNEL}, '')`.execute(db);
}

/** Active plans in display order; packages (type 3) left out when `withPackages` is false. */
export function listActiveTariffs(db: Executor, withPackages: boolean): Promise<TariffRow[]> {
  return withPackages ? activeTariffs(db) : activePlans(db);
}

export const findTariff = (db: Executor, id: number) => db.selectFrom('tariffs').selectAll().where('id', '=', id).executeTakeFirst();
