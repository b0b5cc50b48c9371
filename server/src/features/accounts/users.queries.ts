import type { Executor, Tx } from '../../db/database.ts';
import { prepared } from '../../db/prepared.ts';
import type { NewUserRow, UserRow } from './accounts.table.ts';

export const findUserByEmail = (db: Executor, email: string) =>
  db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();

const userById = prepared((db, id: number) => db.selectFrom('users').selectAll().where('id', '=', id), (id) => [id], [1]);

export const findUserById = async (db: Executor, id: number) => (await userById(db, id))[0];

/** Inserts a user unless the email is taken; answers undefined when it is. */
export const insertUser = (db: Executor, user: NewUserRow): Promise<UserRow | undefined> =>
  db
    .insertInto('users')
    .values(user)
    .onConflict((oc) => oc.column('email').doNothing())
    .returningAll()
    .executeTakeFirst();

/** Sets a password its owner chose (a reset, a change): it is no longer a temporary one. */
export const setPasswordHash = (db: Executor, userId: number, passwordHash: string) =>
  db.updateTable('users').set({ password_hash: passwordHash, password_temporary: false, updated_at: new Date() }).where('id', '=', userId).execute();

export const markEmailConfirmed = (db: Executor, userId: number) =>
  db.updateTable('users').set({ email_confirmed_at: new Date(), updated_at: new Date() }).where('id', '=', userId).where('email_confirmed_at', 'is', null).execute();

/** Locks the user's row for a change that must not interleave with another of the same user. */
export const lockUser = (tx: Tx, userId: number) =>
  tx.selectFrom('users').select(['id', 'email', 'email_confirmed_at']).where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();

/** Makes an existing user an admin; answers whether one existed. */
export async function promoteToAdmin(db: Executor, email: string): Promise<boolean> {
  return (await db.updateTable('users').set({ role: 'admin', updated_at: new Date() }).where('email', '=', email).returning('id').executeTakeFirst()) !== undefined;
}

/** The current subscription of the user with this email (for the sandbox's renew command). */
export const currentSubscriptionByEmail = (db: Executor, email: string) =>
  db
    .selectFrom('subscriptions')
    .innerJoin('users', 'users.id', 'subscriptions.user_id')
    .select('subscriptions.id')
    .where('users.email', '=', email)
    .where('subscriptions.status', 'in', ['active', 'past_due', 'cancelled'])
    .executeTakeFirst();
