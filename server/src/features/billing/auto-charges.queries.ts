import type { Executor } from '../../db/database.ts';

export async function countAutoCharges(db: Executor, userId: number): Promise<number> {
  return (await db.selectFrom('auto_charges').select(db.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow()).n;
}

export const autoChargeAt = (db: Executor, userId: number, offset: number) =>
  db.selectFrom('auto_charges').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').offset(offset).limit(1).executeTakeFirst();

/** Successful renewal charges of one subscription. */
export async function countSuccessfulCharges(db: Executor, subscriptionId: number): Promise<number> {
  return (await db.selectFrom('auto_charges').select(db.fn.countAll<number>().as('n')).where('subscription_id', '=', subscriptionId).where('success', '=', true).executeTakeFirstOrThrow()).n;
}
