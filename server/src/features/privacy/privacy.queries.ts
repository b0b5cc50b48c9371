import { sql } from 'kysely';
import type { LegalKind } from '@app/contracts';
import type { Executor, Tx } from '../../db/database.ts';

/** The version in force of the policy or the offer. */
export const currentLegal = (db: Executor, kind: LegalKind) =>
  db.selectFrom('legal_documents').select(['kind', 'version', 'body', 'created_at']).where('kind', '=', kind).orderBy('version', 'desc').limit(1).executeTakeFirstOrThrow();

export const legalVersions = (db: Executor, kind: LegalKind) =>
  db
    .selectFrom('legal_documents as d')
    .leftJoin('users as u', 'u.id', 'd.author_id')
    .select(['d.version', 'd.created_at', 'u.email as author'])
    .where('d.kind', '=', kind)
    .orderBy('d.version', 'desc')
    .limit(100)
    .execute();

/** Publishes the next version; two staff publishing at once get consecutive versions (the kind's rows are locked first). */
export async function insertLegalVersion(tx: Tx, kind: LegalKind, body: string, authorId: number): Promise<number> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`legal:${kind}`}, 0))`.execute(tx);
  const { version } = await tx
    .selectFrom('legal_documents')
    .select((eb) => eb.fn.coalesce(eb.fn.max('version'), sql<number>`0`).as('version'))
    .where('kind', '=', kind)
    .executeTakeFirstOrThrow();
  const next = version + 1;
  await tx.insertInto('legal_documents').values({ kind, version: next, body, author_id: authorId }).execute();
  return next;
}


/** The user's row, locked (NO KEY UPDATE, as payments lock it: rows referencing the user still insert), unless the account is already deleted. */
export const lockLiveUser = (tx: Tx, userId: number) => tx.selectFrom('users').select(['id', 'email', 'password_hash']).where('id', '=', userId).where('deleted_at', 'is', null).forNoKeyUpdate().executeTakeFirst();

export const openHoldsOf = (tx: Tx, userId: number) => tx.selectFrom('wallet_holds').select(['id', 'user_id as userId', 'kind']).where('user_id', '=', userId).where('status', '=', 'held').execute();

/**
 * Erases what a deleted account's owner made: chats (with their messages), runs, and the rows of
 * their files (answered, so their blobs go too); codes, reset links and the saved card; ends
 * every session. Payments, receipts and the ledger stay.
 */
export async function eraseUserContent(tx: Tx, userId: number): Promise<string[]> {
  await tx.deleteFrom('chats').where('user_id', '=', userId).execute();
  await tx.deleteFrom('generations').where('user_id', '=', userId).execute();
  const files = await tx.deleteFrom('files').where('owner_id', '=', userId).returning('storage_key').execute();
  await tx.deleteFrom('email_codes').where('user_id', '=', userId).execute();
  await tx.deleteFrom('password_resets').where('user_id', '=', userId).execute();
  await tx.deleteFrom('user_cards').where('user_id', '=', userId).execute();
  await tx.deleteFrom('telegram_links').where('user_id', '=', userId).execute();
  await tx.updateTable('sessions').set({ revoked_at: new Date(), ip: null, user_agent: null }).where('user_id', '=', userId).execute();
  return files.map((f) => f.storage_key);
}

/** The placeholder a deleted account's email becomes: unique, never deliverable (`.invalid`, RFC 2606). */
export const deletedEmail = (userId: number) => `deleted-${String(userId)}@deleted.invalid`;

export const anonymiseUser = (tx: Tx, userId: number) =>
  tx
    .updateTable('users')
    .set({ email: deletedEmail(userId), password_hash: '!', deleted_at: new Date(), telegram_id: null, consent_ip: null, notices_off: ['renewal_failed', 'plan_ended'], updated_at: new Date() })
    .where('id', '=', userId)
    .execute();

/** Files a deleted account still owns (a run that finished after the deletion stored its output). */
export const filesOf = (db: Executor, userId: number) => db.selectFrom('files').select(['id', 'storage_key']).where('owner_id', '=', userId).execute();

/** Everything stored about one user, table by table (no password or session hashes). */
export async function userData(db: Executor, userId: number) {
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'role', 'email_confirmed_at', 'blocked_at', 'telegram_id', 'notices_off', 'consent_at', 'consent_version', 'consent_ip', 'deleted_at', 'created_at', 'updated_at'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) return null;
  const [subscriptions, invoices, autoCharges, refunds, ledger, chats, messages, generations, files, sessions, notices] = await Promise.all([
    db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    db.selectFrom('invoices').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    db.selectFrom('auto_charges').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    db.selectFrom('payment_refunds').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    db.selectFrom('wallet_ledger').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    db.selectFrom('chats').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    db.selectFrom('chat_messages').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    db.selectFrom('generations').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    db.selectFrom('files').select(['id', 'purpose', 'content_type', 'size', 'original_name', 'created_at']).where('owner_id', '=', userId).orderBy('id').execute(),
    db.selectFrom('sessions').select(['id', 'created_at', 'expires_at', 'last_seen_at', 'revoked_at', 'ip', 'user_agent']).where('user_id', '=', userId).orderBy('id').execute(),
    db.selectFrom('mail_notices').select(['kind', 'subscription_id', 'period_key', 'created_at']).where('user_id', '=', userId).orderBy('id').execute(),
  ]);
  return { user, parts: { subscriptions, invoices, auto_charges: autoCharges, refunds, ledger, chats, chat_messages: messages, generations, files, sessions, notices } };
}
