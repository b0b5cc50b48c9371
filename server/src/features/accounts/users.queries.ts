import { sql } from 'kysely';
import type { SetupStep } from '@app/contracts';
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

/** Sets a password its owner chose (a reset, a change): it is no longer a temporary one, and the `password` setup step is done. */
export const setPasswordHash = (db: Executor, userId: number, passwordHash: string) =>
  db
    .updateTable('users')
    .set({ password_hash: passwordHash, password_temporary: false, setup_steps: sql<SetupStep[]>`array_remove(setup_steps, 'password')`, updated_at: new Date() })
    .where('id', '=', userId)
    .execute();

export const markEmailConfirmed = (db: Executor, userId: number) =>
  db.updateTable('users').set({ email_confirmed_at: new Date(), updated_at: new Date() }).where('id', '=', userId).where('email_confirmed_at', 'is', null).execute();

/** Locks the user's row for a change that must not interleave with another of the same user. */
export const lockUser = (tx: Tx, userId: number) =>
  tx.selectFrom('users').select(['id', 'email', 'email_confirmed_at']).where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();

/** The user with this email, locked for a change of role. */
export const lockUserByEmail = (tx: Tx, email: string) =>
  tx.selectFrom('users').select(['id', 'role', 'email_confirmed_at', 'blocked_at']).where('email', '=', email).forUpdate().executeTakeFirst();

/** Makes a user staff who must set a new password before anything else (the `password` setup step first). */
export const promoteToAdmin = (tx: Tx, userId: number) =>
  tx
    .updateTable('users')
    .set({ role: 'admin', setup_steps: sql<SetupStep[]>`array['password'] || array_remove(setup_steps, 'password')`, updated_at: new Date() })
    .where('id', '=', userId)
    .execute();

/** The current subscription of the user with this email (for the sandbox's renew command). */
export const currentSubscriptionByEmail = (db: Executor, email: string) =>
  db
    .selectFrom('subscriptions')
    .innerJoin('users', 'users.id', 'subscriptions.user_id')
    .select('subscriptions.id')
    .where('users.email', '=', email)
    .where('subscriptions.status', 'in', ['active', 'past_due', 'cancelled'])
    .executeTakeFirst();
