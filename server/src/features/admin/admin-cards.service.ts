import type { Selectable } from 'kysely';
import type { AdminDashboardCard, DashboardCardInput } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Viewer } from '../accounts/viewer.ts';
import type { DashboardCardsTable } from '../billing/billing.table.ts';
import { recordAudit, recordChange } from './audit.queries.ts';
import { lastPage } from './admin-list.ts';
import { deleteCard, findCard, insertCard, listCards, lockCard, replaceCard } from './admin-cards.queries.ts';

type CardRow = Selectable<DashboardCardsTable>;

const NOT_FOUND = 'Карточка не найдена';

const toAdminCard = (c: CardRow): AdminDashboardCard => ({
  id: c.id,
  link: c.link,
  icon: c.icon,
  name: c.name,
  description: c.description,
  sort: c.sort,
  active: c.active,
  created_at: c.created_at.toISOString(),
  updated_at: c.updated_at.toISOString(),
});

const audited = (c: CardRow) => ({ link: c.link, icon: c.icon, name: c.name, description: c.description, sort: c.sort, active: c.active });

export async function adminCards(ctx: AppContext, query: Parameters<typeof listCards>[1]) {
  const { rows, total } = await listCards(ctx.db, query);
  return { data: rows.map(toAdminCard), last_page: lastPage(total) };
}

export async function adminCard(ctx: AppContext, id: number): Promise<AdminDashboardCard> {
  const row = await findCard(ctx.db, id);
  if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
  return toAdminCard(row);
}

/** Adds a card; `GET /api/new/dashboard` reads the table on every request, so an active card shows at once. */
export async function createCard(ctx: AppContext, actor: Viewer, input: DashboardCardInput): Promise<AdminDashboardCard> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await insertCard(tx, input);
    await recordAudit(tx, { actorId: actor.id, action: 'dashboard_card.create', entity: 'dashboard_card', entityId: row.id, before: null, after: audited(row) });
    return toAdminCard(row);
  });
}

export async function updateCard(ctx: AppContext, actor: Viewer, id: number, input: DashboardCardInput): Promise<AdminDashboardCard> {
  return ctx.db.transaction().execute(async (tx) => {
    const before = await lockCard(tx, id);
    if (!before) throw new AppError('NOT_FOUND', NOT_FOUND);
    const after = await replaceCard(tx, id, input);
    await recordChange(tx, { actorId: actor.id, action: 'dashboard_card.update', entity: 'dashboard_card', entityId: id, before: audited(before), after: audited(after) });
    return toAdminCard(after);
  });
}

export async function removeCard(ctx: AppContext, actor: Viewer, id: number): Promise<{ deleted: true }> {
  return ctx.db.transaction().execute(async (tx) => {
    const before = await lockCard(tx, id);
    if (!before) throw new AppError('NOT_FOUND', NOT_FOUND);
    await deleteCard(tx, id);
    await recordAudit(tx, { actorId: actor.id, action: 'dashboard_card.delete', entity: 'dashboard_card', entityId: id, before: audited(before), after: null });
    return { deleted: true as const };
  });
}
