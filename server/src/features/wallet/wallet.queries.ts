import { sql } from 'kysely';
import type { Balances } from '@app/contracts';
import type { Db, Executor, Tx } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import type { LedgerReason, WalletKind } from './wallet.table.ts';

/** Media tokens are stored in tenths; the wire shows them with one decimal (seed §9). */
export const mediaToWire = (tenths: number) => tenths / 10;
export const mediaFromWire = (media: number) => Math.round(media * 10);

export interface RawBalances {
  words: number;
  /** Tenths of a media token. */
  media: number;
}

export async function getRawBalances(db: Executor, userId: number): Promise<RawBalances> {
  const rows = await db.selectFrom('wallets').select(['kind', 'balance']).where('user_id', '=', userId).execute();
  const balances: RawBalances = { words: 0, media: 0 };
  for (const row of rows) balances[row.kind] = row.balance;
  return balances;
}

export async function getBalances(db: Executor, userId: number): Promise<Balances> {
  const raw = await getRawBalances(db, userId);
  return { words: raw.words, media: mediaToWire(raw.media) };
}

export interface LedgerEntry {
  userId: number;
  kind: WalletKind;
  reason: LedgerReason;
  idempotencyKey: string;
  refType?: string;
  refId?: string | number;
  note?: string;
}

/** Inserts the ledger row unless its idempotency key exists; answers whether it was new. */
async function insertLedger(tx: Tx, entry: LedgerEntry, amount: number, holdId: number | null = null): Promise<boolean> {
  const row = await tx
    .insertInto('wallet_ledger')
    .values({
      user_id: entry.userId,
      kind: entry.kind,
      amount,
      reason: entry.reason,
      ref_type: entry.refType ?? null,
      ref_id: entry.refId === undefined ? null : String(entry.refId),
      idempotency_key: entry.idempotencyKey,
      hold_id: holdId,
      note: entry.note ?? null,
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

async function addToBalance(tx: Tx, userId: number, kind: WalletKind, amount: number): Promise<void> {
  await tx
    .insertInto('wallets')
    .values({ user_id: userId, kind, balance: amount })
    .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet({ balance: sql`wallets.balance + excluded.balance`, updated_at: sql`now()` }))
    .execute();
}

/** Takes `amount` if the balance covers it; answers false (nothing changed) when it does not. */
async function takeFromBalance(tx: Tx, userId: number, kind: WalletKind, amount: number): Promise<boolean> {
  const row = await tx
    .updateTable('wallets')
    .set({ balance: sql`balance - ${amount}`, updated_at: new Date() })
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('balance', '>=', amount)
    .returning('balance')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Adds `amount` (> 0) to a wallet once per idempotency key. Must run in the transaction that
 * records its cause, so a grant exists exactly when its payment does. Answers whether it applied.
 */
export async function credit(tx: Tx, entry: LedgerEntry, amount: number): Promise<boolean> {
  if (!Number.isInteger(amount) || amount <= 0) throw new Error(`credit amount must be a positive integer, got ${String(amount)}`);
  if (!(await insertLedger(tx, entry, amount))) return false;
  await addToBalance(tx, entry.userId, entry.kind, amount);
  return true;
}

/**
 * Takes back up to `amount` (> 0), as far as the balance still has it (refunds, admin
 * corrections); never below zero. Answers what was taken (0 when the key was already used).
 */
export async function debitUpTo(tx: Tx, entry: LedgerEntry, amount: number): Promise<number> {
  if (!Number.isInteger(amount) || amount <= 0) throw new Error(`debit amount must be a positive integer, got ${String(amount)}`);
  const wallet = await tx.selectFrom('wallets').select('balance').where('user_id', '=', entry.userId).where('kind', '=', entry.kind).forUpdate().executeTakeFirst();
  const taken = Math.min(amount, wallet?.balance ?? 0);
  if (taken === 0) return 0;
  if (!(await insertLedger(tx, entry, -taken))) return 0;
  await takeFromBalance(tx, entry.userId, entry.kind, taken);
  return taken;
}

/**
 * Places a hold of `amount` before a provider call: the balance check and the debit are one
 * conditional update, so concurrent holds can never overdraw. Throws INSUFFICIENT_TOKENS.
 * Retrying with the same key answers the existing hold.
 */
export async function placeHold(db: Db, hold: { userId: number; kind: WalletKind; amount: number; idempotencyKey: string; refType?: string; refId?: string | number }): Promise<number> {
  if (!Number.isInteger(hold.amount) || hold.amount <= 0) throw new Error(`hold amount must be a positive integer, got ${String(hold.amount)}`);
  return db.transaction().execute(async (tx) => {
    const inserted = await tx
      .insertInto('wallet_holds')
      .values({ user_id: hold.userId, kind: hold.kind, amount: hold.amount, spent: null, idempotency_key: hold.idempotencyKey, closed_at: null })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) {
      const existing = await tx.selectFrom('wallet_holds').select(['id', 'user_id', 'kind', 'amount']).where('idempotency_key', '=', hold.idempotencyKey).executeTakeFirstOrThrow();
      // A key names one hold: reusing it for another user, wallet or amount is a caller's bug.
      if (existing.user_id !== hold.userId || existing.kind !== hold.kind || existing.amount !== hold.amount) {
        throw new Error(`hold key ${hold.idempotencyKey} is already used for another hold`);
      }
      return existing.id;
    }
    if (!(await takeFromBalance(tx, hold.userId, hold.kind, hold.amount))) throw new AppError('INSUFFICIENT_TOKENS');
    await insertLedger(
      tx,
      { userId: hold.userId, kind: hold.kind, reason: 'generation_hold', idempotencyKey: `hold:${String(inserted.id)}`, refType: hold.refType, refId: hold.refId },
      -hold.amount,
      inserted.id,
    );
    return inserted.id;
  });
}

/**
 * Closes a hold: `spent` of it stays spent (capped at the hold), the rest goes back to the
 * balance. Closing an already closed hold changes nothing.
 */
export async function settleHold(db: Db, holdId: number, spent: number): Promise<void> {
  if (!Number.isInteger(spent) || spent < 0) throw new Error(`spent must be a non-negative integer, got ${String(spent)}`);
  await db.transaction().execute(async (tx) => {
    const hold = await tx.selectFrom('wallet_holds').selectAll().where('id', '=', holdId).forUpdate().executeTakeFirst();
    if (!hold || hold.status !== 'held') return;
    const finalSpent = Math.min(spent, hold.amount);
    const back = hold.amount - finalSpent;
    if (back > 0) {
      await insertLedger(tx, { userId: hold.user_id, kind: hold.kind, reason: 'generation_release', idempotencyKey: `release:${String(holdId)}` }, back, holdId);
      await addToBalance(tx, hold.user_id, hold.kind, back);
    }
    await tx
      .updateTable('wallet_holds')
      .set({ status: finalSpent === 0 ? 'released' : 'settled', spent: finalSpent, closed_at: new Date() })
      .where('id', '=', holdId)
      .execute();
  });
}

/** Gives a whole hold back (the provider failed). */
export const releaseHold = (db: Db, holdId: number) => settleHold(db, holdId, 0);

/** Sum of the ledger per wallet: must always equal the balances. */
export async function ledgerSums(db: Executor, userId: number): Promise<RawBalances> {
  const rows = await db
    .selectFrom('wallet_ledger')
    .select(['kind', sql<number>`coalesce(sum(amount), 0)`.as('sum')])
    .where('user_id', '=', userId)
    .groupBy('kind')
    .execute();
  const sums: RawBalances = { words: 0, media: 0 };
  for (const row of rows) sums[row.kind] = row.sum;
  return sums;
}
