import type { Executor, Tx } from '../../db/database.ts';

/** The saved card's last four digits, if any. */
export const savedCard = (db: Executor, userId: number) => db.selectFrom('user_cards').select(['last_four']).where('user_id', '=', userId).executeTakeFirst();

/** Saves (or replaces) the card a payment used, for the plan's auto-renewal. */
export async function saveCard(tx: Tx, userId: number, card: { token: string; firstSix: string | null; lastFour: string; type: string | null }): Promise<void> {
  const values = { token: card.token, first_six: card.firstSix, last_four: card.lastFour.slice(-4), card_type: card.type };
  await tx
    .insertInto('user_cards')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...values, updated_at: new Date() }))
    .execute();
}
