import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/database.ts';
import { prepared } from '../../db/prepared.ts';

/** Ends every open code of a user and stores a new one (its hash). */
export async function replaceEmailCode(tx: Tx, userId: number, codeHash: string, expiresAt: Date): Promise<void> {
  await tx.updateTable('email_codes').set({ used_at: new Date() }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
  await tx.insertInto('email_codes').values({ user_id: userId, code_hash: codeHash, expires_at: expiresAt }).execute();
}

/** The newest open code of a user. */
export const latestOpenCode = (db: Executor, userId: number) =>
  db.selectFrom('email_codes').selectAll().where('user_id', '=', userId).where('used_at', 'is', null).orderBy('id', 'desc').limit(1).executeTakeFirst();

export const countCodeAttempt = (db: Executor, codeId: number, attempts: number) => db.updateTable('email_codes').set({ attempts }).where('id', '=', codeId).execute();

export const markCodeUsed = (db: Executor, codeId: number) => db.updateTable('email_codes').set({ used_at: new Date() }).where('id', '=', codeId).execute();

/** The age of the user's last code: read on every `GET /api/new/user` of an unconfirmed user (the overlay's countdown). */
const lastCodeAge = prepared(
  (db, userId: number) =>
    db
      .selectFrom('email_codes')
      .select(sql<number>`extract(epoch from now() - created_at)::float8`.as('age'))
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(1),
  (userId) => [userId, 1],
  [0],
);

/** Seconds since the user's last code was sent (any state), or null when none was. */
export async function secondsSinceLastCode(db: Executor, userId: number): Promise<number | null> {
  const [last] = await lastCodeAge(db, userId);
  return last ? last.age : null;
}
