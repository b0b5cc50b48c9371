import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/database.ts';
import { sha256 } from '../../lib/crypto.ts';

export const insertPasswordReset = (db: Executor, userId: number, token: string, expiresAt: Date) =>
  db.insertInto('password_resets').values({ user_id: userId, token_hash: sha256(token), expires_at: expiresAt }).execute();

/** The open, unexpired reset of this token for this email (locked when `tx` is a transaction that will use it). */
export function findOpenReset(db: Executor, token: string, email: string) {
  return db
    .selectFrom('password_resets')
    .innerJoin('users', 'users.id', 'password_resets.user_id')
    .select(['password_resets.id', 'users.id as user_id'])
    .where('password_resets.token_hash', '=', sha256(token))
    .where('users.email', '=', email)
    .where('password_resets.used_at', 'is', null)
    .where('password_resets.expires_at', '>', sql<Date>`now()`);
}

export const lockOpenReset = (tx: Tx, token: string, email: string) => findOpenReset(tx, token, email).forUpdate().executeTakeFirst();

/** Ends every open reset link of a user (a link works once; using one ends the others). */
export const closeUserResets = (db: Executor, userId: number) =>
  db.updateTable('password_resets').set({ used_at: new Date() }).where('user_id', '=', userId).where('used_at', 'is', null).execute();

/** How many reset links of a user still work (unused, unexpired). */
export async function countOpenResets(db: Executor, userId: number): Promise<number> {
  const row = await db
    .selectFrom('password_resets')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirstOrThrow();
  return row.n;
}
