import { sql, type Insertable } from 'kysely';
import type { Executor, Tx } from '../../db/database.ts';
import { containing } from '../admin/admin-list.ts';
import { direction, pageOf } from '../admin/admin-page.queries.ts';
import type { PromoCodesTable } from './promo.table.ts';

/** Redemptions of a code that count: tokens credited, or a discount on a checkout that has not failed. */
const usesOf = (db: Executor) =>
  db
    .selectFrom('promo_redemptions as r')
    .leftJoin('invoices as i', 'i.id', 'r.invoice_id')
    .where((eb) => eb.or([eb('r.invoice_id', 'is', null), eb('i.status', '<>', 'failed')]));

/** A code by its text, locked: redemptions of one code run one at a time, so its limit holds however many arrive at once. */
export const lockPromoByCode = (tx: Tx, code: string) => tx.selectFrom('promo_codes').selectAll().where('code', '=', code).forUpdate().executeTakeFirst();

export const lockPromo = (tx: Tx, id: number) => tx.selectFrom('promo_codes').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();

export const findPromoByCode = (db: Executor, code: string) => db.selectFrom('promo_codes').selectAll().where('code', '=', code).executeTakeFirst();

export async function countUses(db: Executor, promoId: number): Promise<number> {
  const row = await usesOf(db).select(sql<number>`count(*)::int`.as('n')).where('r.promo_code_id', '=', promoId).executeTakeFirstOrThrow();
  return row.n;
}

/** The user's redemption of a code, with its checkout's status (a discount's). */
export const findRedemption = (db: Executor, promoId: number, userId: number) =>
  db
    .selectFrom('promo_redemptions as r')
    .leftJoin('invoices as i', 'i.id', 'r.invoice_id')
    .select(['r.id', 'r.invoice_id', 'i.status as invoice_status'])
    .where('r.promo_code_id', '=', promoId)
    .where('r.user_id', '=', userId)
    .executeTakeFirst();

/** Records a redemption; answers its id, or undefined when the user has one of this code already. */
export const insertRedemption = (tx: Tx, values: { promo_code_id: number; user_id: number; invoice_id?: number | null; words?: number; media_tenths?: number; discount_kopecks?: number }) =>
  tx.insertInto('promo_redemptions').values(values).onConflict((oc) => oc.columns(['promo_code_id', 'user_id']).doNothing()).returning('id').executeTakeFirst();

/** A discount taken again on a new checkout (the earlier one failed or was left unpaid). */
export const moveRedemption = (tx: Tx, id: number, invoiceId: number, discountKopecks: number) =>
  tx.updateTable('promo_redemptions').set({ invoice_id: invoiceId, discount_kopecks: discountKopecks, created_at: sql`now()` as unknown as never }).where('id', '=', id).execute();

/** Whether the user has paid for anything (a second charge of an invoice is not another payment). */
export async function hasPaidAnything(db: Executor, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('invoices')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', 'in', ['paid', 'refunded'])
    .where('duplicate_of', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

// Staff's list and editor

const ORDER = { id: 'p.id', code: 'p.code', created_at: 'p.created_at', uses: 'uses' } as const;

const withUses = (db: Executor) =>
  db
    .selectFrom('promo_codes as p')
    .leftJoin('tariffs as t', 't.id', 'p.tariff_id')
    .select((eb) => [
      eb
        .selectFrom('promo_redemptions as r')
        .leftJoin('invoices as i', 'i.id', 'r.invoice_id')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('r.promo_code_id', '=', 'p.id')
        .where((w) => w.or([w('r.invoice_id', 'is', null), w('i.status', '<>', 'failed')]))
        .as('uses'),
      't.name as tariff_name',
    ]);

/** Promo codes with their uses, searched by code or note. */
export function listPromos(db: Executor, opts: { q: string; sort: keyof typeof ORDER; dir: 'asc' | 'desc'; page: number }) {
  let query = db.selectFrom('promo_codes as p');
  if (opts.q) {
    const like = containing(opts.q);
    query = query.where((eb) => eb.or([eb('p.code', 'ilike', like), eb('p.note', 'ilike', like)]));
  }
  const filtered = query;
  return pageOf(
    filtered,
    (q) =>
      q
        .leftJoin('tariffs as t', 't.id', 'p.tariff_id')
        .selectAll('p')
        .select((eb) => [
          eb
            .selectFrom('promo_redemptions as r')
            .leftJoin('invoices as i', 'i.id', 'r.invoice_id')
            .select(sql<number>`count(*)::int`.as('n'))
            .whereRef('r.promo_code_id', '=', 'p.id')
            .where((w) => w.or([w('r.invoice_id', 'is', null), w('i.status', '<>', 'failed')]))
            .as('uses'),
          't.name as tariff_name',
        ])
        .orderBy(ORDER[opts.sort], direction(opts.dir))
        .orderBy('p.id', opts.dir),
    opts.page,
  );
}

export const findPromoWithUses = (db: Executor, id: number) => withUses(db).selectAll('p').where('p.id', '=', id).executeTakeFirst();

/** The latest 100 redemptions of a code. */
export const redemptionsOf = (db: Executor, promoId: number) =>
  db
    .selectFrom('promo_redemptions as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .leftJoin('invoices as i', 'i.id', 'r.invoice_id')
    .select(['r.id', 'r.user_id', 'u.email', 'r.words', 'r.media_tenths', 'r.discount_kopecks', 'r.invoice_id', 'i.status as invoice_status', 'r.created_at'])
    .where('r.promo_code_id', '=', promoId)
    .orderBy('r.id', 'desc')
    .limit(100)
    .execute();

export type PromoValues = Omit<Insertable<PromoCodesTable>, 'id' | 'created_at' | 'updated_at'>;

/** Adds a code; answers its id, or undefined when the code is taken. */
export const insertPromo = (tx: Tx, values: PromoValues) =>
  tx.insertInto('promo_codes').values(values).onConflict((oc) => oc.column('code').doNothing()).returning('id').executeTakeFirst();

export const updatePromo = (tx: Tx, id: number, values: Pick<PromoValues, 'max_uses' | 'new_users_only' | 'starts_at' | 'ends_at' | 'note' | 'disabled_at'>) =>
  tx.updateTable('promo_codes').set({ ...values, updated_at: new Date() }).where('id', '=', id).execute();

export const tariffName = (db: Executor, id: number) => db.selectFrom('tariffs').select(['id', 'name', 'subscriptions_type']).where('id', '=', id).executeTakeFirst();
