import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/database.ts';

/** The user's open one-time bot link code younger than `since`, if any. */
export const openLinkCode = (db: Executor, userId: number, since: Date) =>
  db.selectFrom('telegram_links').select('code').where('user_id', '=', userId).where('used_at', 'is', null).where('created_at', '>', since).orderBy('created_at', 'desc').limit(1).executeTakeFirst();

export const insertLinkCode = (db: Executor, userId: number, code: string) => db.insertInto('telegram_links').values({ code, user_id: userId, used_at: null }).execute();

export const lockLinkCode = (tx: Tx, code: string) => tx.selectFrom('telegram_links').selectAll().where('code', '=', code).forUpdate().executeTakeFirst();

export const markLinkCodeUsed = (tx: Tx, code: string) => tx.updateTable('telegram_links').set({ used_at: new Date() }).where('code', '=', code).execute();

export const userByTelegramId = (db: Executor, telegramId: number) => db.selectFrom('users').select('id').where('telegram_id', '=', telegramId).executeTakeFirst();

export const setTelegramId = (db: Executor, userId: number, telegramId: number) => db.updateTable('users').set({ telegram_id: telegramId, updated_at: new Date() }).where('id', '=', userId).execute();

export const welcomeFields = (db: Executor, userId: number) => db.selectFrom('users').select(['welcome_closed_at', 'telegram_id']).where('id', '=', userId).executeTakeFirstOrThrow();

export const closeWelcomeNotice = (db: Executor, userId: number) =>
  db.updateTable('users').set({ welcome_closed_at: sql<Date>`coalesce(welcome_closed_at, now())` }).where('id', '=', userId).execute();

/** Whether a ledger row with this idempotency key exists (the gift's keys mark it as claimed). */
export async function ledgerKeyExists(db: Executor, key: string): Promise<boolean> {
  return (await db.selectFrom('wallet_ledger').select('id').where('idempotency_key', '=', key).executeTakeFirst()) !== undefined;
}

/** Locks the user's row without blocking inserts that reference it (ledger, holds). */
export const lockUserNoKey = (tx: Tx, userId: number) => tx.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().executeTakeFirstOrThrow();

export const telegramOffset = async (db: Executor) => Number((await db.selectFrom('telegram_state').select('value').where('key', '=', 'offset').executeTakeFirst())?.value ?? 0);

export const saveTelegramOffset = (db: Executor, offset: number) =>
  db
    .insertInto('telegram_state')
    .values({ key: 'offset', value: String(offset) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(offset) }))
    .execute();

export async function isSandboxMember(db: Executor, telegramId: number): Promise<boolean> {
  return (await db.selectFrom('sandbox_telegram_members').select('telegram_id').where('telegram_id', '=', telegramId).executeTakeFirst()) !== undefined;
}

export const addSandboxMember = (db: Executor, telegramId: number) =>
  db.insertInto('sandbox_telegram_members').values({ telegram_id: telegramId }).onConflict((oc) => oc.column('telegram_id').doNothing()).execute();
