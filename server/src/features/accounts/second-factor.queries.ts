import { sql } from 'kysely';
import type { SetupStep } from '@app/contracts';
import type { Executor, Tx } from '../../db/database.ts';

/** Keeps a new secret for an enrolment unless the account already has one (pending or enrolled). */
export async function insertPendingFactor(db: Executor, userId: number, sealedSecret: string): Promise<void> {
  await db.insertInto('second_factors').values({ user_id: userId, secret: sealedSecret }).onConflict((oc) => oc.column('user_id').doNothing()).execute();
}

export const findFactor = (db: Executor, userId: number) => db.selectFrom('second_factors').select(['secret', 'enrolled_at', 'last_step']).where('user_id', '=', userId).executeTakeFirst();

/** The enrolment waiting for its first code, locked: two first codes at once enrol once. */
export const lockPendingFactor = (tx: Tx, userId: number) =>
  tx.selectFrom('second_factors').select(['secret', 'last_step']).where('user_id', '=', userId).where('enrolled_at', 'is', null).forUpdate().executeTakeFirst();

/**
 * Takes the code of time step `step` of an enrolled (or, with `enrolling`, pending) factor: only a
 * step after the last one taken, in one statement, so the same code sent twice at once is taken once.
 */
export async function takeStep(db: Executor, userId: number, step: number, enrolling = false): Promise<boolean> {
  const res = await db
    .updateTable('second_factors')
    .set({ last_step: step, ...(enrolling ? { enrolled_at: new Date() } : {}) })
    .where('user_id', '=', userId)
    .where('last_step', '<', String(step))
    .where('enrolled_at', enrolling ? 'is' : 'is not', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function replaceRecoveryCodes(tx: Tx, userId: number, hashes: string[]): Promise<void> {
  await tx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await tx.insertInto('recovery_codes').values(hashes.map((code_hash) => ({ user_id: userId, code_hash }))).execute();
}

/** Spends a recovery code: true once, for the first request that sends it. */
export async function useRecoveryCode(tx: Tx, userId: number, hash: string): Promise<boolean> {
  const res = await tx.updateTable('recovery_codes').set({ used_at: new Date() }).where('user_id', '=', userId).where('code_hash', '=', hash).where('used_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export const unusedRecoveryCodes = async (db: Executor, userId: number) =>
  Number((await db.selectFrom('recovery_codes').select((eb) => eb.fn.countAll<string>().as('n')).where('user_id', '=', userId).where('used_at', 'is', null).executeTakeFirstOrThrow()).n);

/** Removes the factor and its recovery codes (a lost phone); answers whether there was one. */
export async function deleteFactor(tx: Tx, userId: number): Promise<boolean> {
  await tx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  const res = await tx.deleteFrom('second_factors').where('user_id', '=', userId).executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}

/** Adds the `second_factor` setup step (after `password`, when that one is pending too). */
export const requireSecondFactor = (db: Executor, userId: number) =>
  db
    .updateTable('users')
    .set({ setup_steps: sql<SetupStep[]>`array_remove(setup_steps, 'second_factor') || array['second_factor']`, updated_at: new Date() })
    .where('id', '=', userId)
    .execute();

/** Removes the `second_factor` setup step: done, or the account is no longer staff. */
export const dropSecondFactorStep = (db: Executor, userId: number) =>
  db
    .updateTable('users')
    .set({ setup_steps: sql<SetupStep[]>`array_remove(setup_steps, 'second_factor')`, updated_at: new Date() })
    .where('id', '=', userId)
    .where(sql<boolean>`'second_factor' = any(setup_steps)`)
    .execute();

/** Whether the account has an enrolled second factor (its sign-in then asks for a code). */
export const hasEnrolledFactor = async (db: Executor, userId: number) =>
  (await db.selectFrom('second_factors').select('user_id').where('user_id', '=', userId).where('enrolled_at', 'is not', null).executeTakeFirst()) !== undefined;
