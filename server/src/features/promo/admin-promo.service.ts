import type { AdminPromoCode, AdminPromoCodeDetail, PromoCodeUpdate, PromoCodeValues } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import { AppError, fieldError } from '../../lib/app-error.ts';
import type { Viewer } from '../accounts/viewer.ts';
import { rubles } from '../billing/money.ts';
import { isPackage } from '../billing/tariffs.queries.ts';
import { recordAudit, recordChange } from '../admin/audit.queries.ts';
import { lastPage } from '../admin/admin-list.ts';
import { mediaFromWire, mediaToWire } from '../wallet/wallet.queries.ts';
import { findPromoWithUses, insertPromo, listPromos, lockPromo, redemptionsOf, tariffName, updatePromo } from './promo.queries.ts';
import type { PromoCodeRow } from './promo.table.ts';

const NOT_FOUND = 'Промокод не найден';
const MSK_OFFSET_MS = 3 * 3_600_000;
const DAY_MS = 86_400_000;

/** A Moscow day's start (`YYYY-MM-DD`), and the day a moment falls on there. */
const dayStart = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - MSK_OFFSET_MS);
const dayOf = (at: Date) => new Date(at.getTime() + MSK_OFFSET_MS).toISOString().slice(0, 10);

type Listed = PromoCodeRow & { uses: number | null; tariff_name: string | null };

function stateOf(p: Listed, now = new Date()): AdminPromoCode['state'] {
  if (p.disabled_at) return 'disabled';
  if (p.ends_at && now >= p.ends_at) return 'expired';
  if (p.max_uses !== null && (p.uses ?? 0) >= p.max_uses) return 'used_up';
  if (p.starts_at && now < p.starts_at) return 'scheduled';
  return 'active';
}

const toAdminPromo = (p: Listed): AdminPromoCode => ({
  id: p.id,
  code: p.code,
  kind: p.kind,
  words: p.words,
  media: mediaToWire(p.media_tenths),
  discount_percent: p.discount_percent,
  tariff: p.tariff_id !== null && p.tariff_name !== null ? { id: p.tariff_id, name: p.tariff_name } : null,
  max_uses: p.max_uses,
  uses: p.uses ?? 0,
  new_users_only: p.new_users_only,
  starts_on: p.starts_at ? dayOf(p.starts_at) : null,
  // Kept as the moment after the last day.
  ends_on: p.ends_at ? dayOf(new Date(p.ends_at.getTime() - DAY_MS)) : null,
  note: p.note,
  active: p.disabled_at === null,
  state: stateOf(p),
  created_at: p.created_at.toISOString(),
  updated_at: p.updated_at.toISOString(),
});

/** What the audit log keeps of a code. */
const audited = (p: AdminPromoCode) => ({
  code: p.code,
  kind: p.kind,
  words: p.words,
  media: p.media,
  discount_percent: p.discount_percent,
  tariff_id: p.tariff?.id ?? null,
  max_uses: p.max_uses,
  new_users_only: p.new_users_only,
  starts_on: p.starts_on,
  ends_on: p.ends_on,
  note: p.note,
  active: p.active,
});

export async function adminPromos(ctx: AppContext, query: Parameters<typeof listPromos>[1]) {
  const { rows, total } = await listPromos(ctx.db, query);
  return { data: rows.map((r) => toAdminPromo(r)), last_page: lastPage(total) };
}

async function detail(db: Executor, id: number): Promise<AdminPromoCodeDetail> {
  const row = await findPromoWithUses(db, id);
  if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
  const redemptions = await redemptionsOf(db, id);
  return {
    ...toAdminPromo(row),
    redemptions: redemptions.map((r) => ({
      id: r.id,
      user: { id: r.user_id, email: r.email },
      words: r.words,
      media: mediaToWire(r.media_tenths),
      discount: rubles(r.discount_kopecks),
      payment_id: r.invoice_id,
      payment_status: r.invoice_id === null ? null : (r.invoice_status ?? null),
      created_at: r.created_at.toISOString(),
    })),
  };
}

export const adminPromo = (ctx: AppContext, id: number) => detail(ctx.db, id);

const period = (input: { starts_on: string | null; ends_on: string | null }) => ({
  starts_at: input.starts_on ? dayStart(input.starts_on) : null,
  ends_at: input.ends_on ? new Date(dayStart(input.ends_on).getTime() + DAY_MS) : null,
});

/** Adds a code (a taken one is refused on `code`), with its audit record. */
export async function createPromo(ctx: AppContext, actor: Viewer, input: PromoCodeValues): Promise<AdminPromoCodeDetail> {
  const isTokens = input.kind === 'tokens';
  if (!isTokens && input.tariff_id !== null) {
    const tariff = await tariffName(ctx.db, input.tariff_id);
    if (!tariff) throw fieldError('tariff_id', 'Такого тарифа нет');
    if (isPackage(tariff)) throw fieldError('tariff_id', 'Скидка действует на первую оплату тарифа, не пакета');
  }
  return ctx.db.transaction().execute(async (tx) => {
    const row = await insertPromo(tx, {
      code: input.code,
      kind: input.kind,
      words: isTokens ? input.words : 0,
      media_tenths: isTokens ? mediaFromWire(input.media) : 0,
      discount_percent: isTokens ? null : input.discount_percent,
      tariff_id: isTokens ? null : input.tariff_id,
      max_uses: input.max_uses,
      new_users_only: input.new_users_only,
      ...period(input),
      note: input.note || null,
      disabled_at: input.active ? null : new Date(),
      created_by: actor.id,
    });
    if (!row) throw fieldError('code', 'Такой промокод уже есть');
    const created = await detail(tx, row.id);
    await recordAudit(tx, { actorId: actor.id, action: 'promo_code.create', entity: 'promo_code', entityId: row.id, before: null, after: audited(created) });
    return created;
  });
}

/** Changes a code's limits, period, audience, note, or switches it off or on again; what it grants stays. */
export async function changePromo(ctx: AppContext, actor: Viewer, id: number, input: PromoCodeUpdate): Promise<AdminPromoCodeDetail> {
  return ctx.db.transaction().execute(async (tx) => {
    const locked = await lockPromo(tx, id);
    if (!locked) throw new AppError('NOT_FOUND', NOT_FOUND);
    const before = await detail(tx, id);
    await updatePromo(tx, id, {
      max_uses: input.max_uses,
      new_users_only: input.new_users_only,
      ...period(input),
      note: input.note || null,
      disabled_at: input.active ? null : (locked.disabled_at ?? new Date()),
    });
    const after = await detail(tx, id);
    await recordChange(tx, { actorId: actor.id, action: before.active && !after.active ? 'promo_code.disable' : 'promo_code.update', entity: 'promo_code', entityId: id, before: audited(before), after: audited(after) });
    return after;
  });
}
