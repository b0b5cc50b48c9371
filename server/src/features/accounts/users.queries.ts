import type { Executor } from '../../db/database.ts';
import type { NewUserRow, UserRow } from './accounts.table.ts';

export const findUserByEmail = (db: Executor, email: string) =>
  db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();

export const findUserById = (db: Executor, id: number) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

/** Inserts a user unless the email is taken; answers undefined when it is. */
export const insertUser = (db: Executor, user: NewUserRow): Promise<UserRow | undefined> =>
  db
    .insertInto('users')
    .values(user)
    .onConflict((oc) => oc.column('email').doNothing())
    .returningAll()
    .executeTakeFirst();

export const setPasswordHash = (db: Executor, userId: number, passwordHash: string) =>
  db.updateTable('users').set({ password_hash: passwordHash, updated_at: new Date() }).where('id', '=', userId).execute();

export const markEmailConfirmed = (db: Executor, userId: number) =>
  db.updateTable('users').set({ email_confirmed_at: new Date(), updated_at: new Date() }).where('id', '=', userId).where('email_confirmed_at', 'is', null).execute();
