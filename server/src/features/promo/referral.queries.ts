import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/database.ts';

export const referralCodeOf = (db: Executor, userId: number) => db.selectFrom('users').select('referral_code').where('id', '=', userId).executeTakeFirst();

/** Gives the user a referral code unless they have one; answers the code they have (undefined when `code` is taken by another user). */
export async function setReferralCode(db: Executor, userId: number, code: string): Promise<string | undefined> {
  const { rows } = await sql<{ referral_code: string }>`
    update users set referral_code = coalesce(referral_code, ${code}) where id = ${userId}
      and not exists (select 1 from users o where o.referral_code = ${code} and o.id <> ${userId})
    returning referral_code`.execute(db);
  return rows[0]?.referral_code;
}

/** Marks who invited a new account, by the code of their link; an unknown code changes nothing. */
export const attachReferrer = (tx: Tx, userId: number, code: string) =>
  tx
    .updateTable('users')
    .set((eb) => ({ referred_by: eb.selectFrom('users as r').select('r.id').where('r.referral_code', '=', code).where('r.id', '<>', userId).limit(1) }))
    .where('id', '=', userId)
    .where('referred_by', 'is', null)
    .where((eb) => eb.exists(eb.selectFrom('users as r').select('r.id').where('r.referral_code', '=', code).where('r.id', '<>', userId)))
    .execute();

export const referrerOf = (db: Executor, userId: number) => db.selectFrom('users').select('referred_by').where('id', '=', userId).executeTakeFirst();

/** Records an invited account's bonus once; answers whether this call recorded it. */
export async function insertBonus(tx: Tx, bonus: { invited_id: number; inviter_id: number; invoice_id: number; words: number; status: 'granted' | 'same_card' }): Promise<boolean> {
  const row = await tx.insertInto('referral_bonuses').values(bonus).onConflict((oc) => oc.column('invited_id').doNothing()).returning('invited_id').executeTakeFirst();
  return row !== undefined;
}

/** Whether the inviter has ever paid with one of these cards. */
export async function paidWithAnyOf(db: Executor, userId: number, fingerprints: readonly string[]): Promise<boolean> {
  if (fingerprints.length === 0) return false;
  const row = await db.selectFrom('payment_cards').select('user_id').where('user_id', '=', userId).where('fingerprint', 'in', fingerprints).limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function recordCards(tx: Tx, userId: number, fingerprints: readonly string[]): Promise<void> {
  if (fingerprints.length === 0) return;
  await tx
    .insertInto('payment_cards')
    .values(fingerprints.map((fingerprint) => ({ user_id: userId, fingerprint })))
    .onConflict((oc) => oc.columns(['user_id', 'fingerprint']).doNothing())
    .execute();
}

/** The bonus a payment brought its inviter, if it was an invited account's first payment. */
export const bonusOfInvoice = (db: Executor, invoiceId: number) => db.selectFrom('referral_bonuses').selectAll().where('invoice_id', '=', invoiceId).where('status', '=', 'granted').executeTakeFirst();

/** Words a bonus has lost to refunds so far (lines taken from the balance, and from work when it ended). */
export async function takenBackOf(db: Executor, inviterId: number, invitedId: number): Promise<number> {
  const row = await db
    .selectFrom('wallet_ledger')
    .select(sql<number>`coalesce(-sum(amount), 0)::bigint`.as('taken'))
    .where('user_id', '=', inviterId)
    .where('kind', '=', 'words')
    .where('ref_type', '=', 'referral_refund')
    .where('ref_id', '=', String(invitedId))
    .executeTakeFirstOrThrow();
  return row.taken;
}

/** What a user's link brought: accounts registered through it, those that paid, and the words earned less what refunds took back. */
export async function referralStats(db: Executor, userId: number): Promise<{ invited: number; paid: number; earned: number }> {
  const { rows } = await sql<{ invited: number; paid: number; earned: number }>`
    select
      (select count(*) from users where referred_by = ${userId})::int as invited,
      (select count(*) from referral_bonuses where inviter_id = ${userId})::int as paid,
      (select coalesce(sum(amount), 0) from wallet_ledger
        where user_id = ${userId} and kind = 'words' and (reason = 'referral_bonus' or ref_type = 'referral_refund'))::bigint as earned`.execute(db);
  const row = rows[0];
  return { invited: row?.invited ?? 0, paid: row?.paid ?? 0, earned: row?.earned ?? 0 };
}
