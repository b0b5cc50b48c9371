import type { AdminTariff, TariffInput } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { announcedChange } from '../../lib/notified-cache.ts';
import type { Viewer } from '../accounts/viewer.ts';
import type { TariffRow } from '../billing/billing.table.ts';
import { findTariff, tariffsChanged, toTariffDto } from '../billing/tariffs.queries.ts';
import type { Tx } from '../../db/database.ts';
import { mediaFromWire } from '../wallet/wallet.queries.ts';
import { recordAudit, recordChange } from './audit.queries.ts';
import { lastPage } from './admin-list.ts';
import { insertTariff, listTariffs, lockTariff, replaceTariff, type TariffValues } from './admin-tariffs.queries.ts';

const toAdminTariff = (t: TariffRow): AdminTariff => ({
  ...toTariffDto(t),
  sort: t.sort,
  active: t.active,
  created_at: t.created_at.toISOString(),
  updated_at: t.updated_at.toISOString(),
});

/** What the audit log keeps of a plan: its fields, not its timestamps. */
const audited = (t: TariffRow) => {
  const { created_at: _created, updated_at: _updated, ...fields } = toAdminTariff(t);
  return fields;
};

const toValues = (input: TariffInput): TariffValues => ({
  name: input.name,
  amount_kopecks: Math.round(input.amount * 100),
  first_amount_kopecks: input.first_amount === null ? null : Math.round(input.first_amount * 100),
  description: JSON.stringify(input.description),
  subscriptions_type: input.subscriptions_type,
  popular: input.popular,
  currency_provider: input.currency_provider,
  words: input.words,
  media_tenths: mediaFromWire(input.media),
  trial_days: input.trial_days,
  sort: input.sort,
  active: input.active,
});

export async function adminTariffs(ctx: AppContext, query: Parameters<typeof listTariffs>[1]) {
  const { rows, total } = await listTariffs(ctx.db, query);
  return { data: rows.map(toAdminTariff), last_page: lastPage(total) };
}

export async function adminTariff(ctx: AppContext, id: number): Promise<AdminTariff> {
  const row = await findTariff(ctx.db, id);
  if (!row) throw new AppError('TARIFF_NOT_FOUND');
  return toAdminTariff(row);
}

/** A change of plans: every process drops its copy of the plans on sale when it commits (`tariffsChanged`). */
const tariffChange = <T>(ctx: AppContext, fn: (tx: Tx) => Promise<T>): Promise<T> => announcedChange(ctx.db, tariffsChanged, ctx.plans, fn);

/** Creates a plan: an active one is on sale as soon as this commits (see `tariffChange`). */
export async function createTariff(ctx: AppContext, actor: Viewer, input: TariffInput): Promise<AdminTariff> {
  return tariffChange(ctx, async (tx) => {
    const row = await insertTariff(tx, toValues(input));
    await recordAudit(tx, { actorId: actor.id, action: 'tariff.create', entity: 'tariff', entityId: row.id, before: null, after: audited(row) });
    return toAdminTariff(row);
  });
}

/**
 * Replaces a plan's fields. Subscriptions keep the amounts they were bought at; renewals grant
 * the plan's tokens as they are at the time.
 */
export async function updateTariff(ctx: AppContext, actor: Viewer, id: number, input: TariffInput): Promise<AdminTariff> {
  return tariffChange(ctx, async (tx) => {
    const before = await lockTariff(tx, id);
    if (!before) throw new AppError('TARIFF_NOT_FOUND');
    const after = await replaceTariff(tx, id, toValues(input));
    await recordChange(tx, { actorId: actor.id, action: 'tariff.update', entity: 'tariff', entityId: id, before: audited(before), after: audited(after) });
    return toAdminTariff(after);
  });
}
