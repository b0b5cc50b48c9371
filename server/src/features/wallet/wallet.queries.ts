import { sql } from 'kysely';
import type { Balances } from '@app/contracts';
import { isBalanceRefused, type Db, type Executor, type Tx } from '../../db/database.ts';
import { prepared } from '../../db/prepared.ts';
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

const walletsOf = prepared((db, userId: number) => db.selectFrom('wallets').select(['kind', 'balance']).where('user_id', '=', userId), (userId) => [userId], [1]);

export async function getRawBalances(db: Executor, userId: number): Promise<RawBalances> {
  const rows = await walletsOf(db, userId);
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
 * Takes back up to `amount` (> 0), as far as the balance still has it (admin corrections); never
 * below zero. Answers what was taken (0 when the key was already used).
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
 * A refund's take-back: `amount` (> 0) comes out of the balance as far as it goes, and what the
 * balance lacks is claimed from the wallet's open holds (oldest first), so tokens that were in
 * holds when the payment was refunded come to the refund when their work gives them back
 * (`wallet_apply`, migration 0021), never to the balance. A hold serves the refund of one payment
 * (the ref of the entry). The open holds are locked before the wallet, as settling locks a hold
 * before its wallet. Answers what was taken now and what was claimed from holds.
 */
export async function takeBackUpTo(tx: Tx, entry: LedgerEntry & { refType: string; refId: string | number }, amount: number): Promise<{ taken: number; claimed: number }> {
  if (!Number.isInteger(amount) || amount <= 0) throw new Error(`take-back amount must be a positive integer, got ${String(amount)}`);
  const refId = String(entry.refId);
  const holds = await tx
    .selectFrom('wallet_holds')
    .select(['id', 'amount', 'clawback'])
    .where('user_id', '=', entry.userId)
    .where('kind', '=', entry.kind)
    .where('status', '=', 'held')
    .where((eb) => eb.or([eb('clawback', '=', 0), eb.and([eb('clawback_ref_type', '=', entry.refType), eb('clawback_ref_id', '=', refId)])]))
    .orderBy('id')
    .forUpdate()
    .execute();
  const taken = await debitUpTo(tx, entry, amount);
  let rest = amount - taken;
  let claimed = 0;
  for (const hold of holds) {
    if (rest <= 0) break;
    const add = Math.min(hold.amount - hold.clawback, rest);
    if (add <= 0) continue;
    await tx
      .updateTable('wallet_holds')
      .set({ clawback: hold.clawback + add, clawback_ref_type: entry.refType, clawback_ref_id: refId })
      .where('id', '=', hold.id)
      .execute();
    rest -= add;
    claimed += add;
  }
  return { taken, claimed };
}

/** A placed hold: what settling or releasing it needs. */
export interface HoldRef {
  id: number;
  userId: number;
  kind: WalletKind;
  /** Taken from the balance when the hold was placed: the most the operation may cost. */
  amount: number;
  /**
   * `held` for a new hold, or an existing one still open; `settled`/`released` when a retry with
   * the key finds it already closed: the work it paid for was done (or given up) before.
   */
  status: 'held' | 'settled' | 'released';
}

export type WalletOp =
  | { op: 'hold'; user_id: number; kind: WalletKind; amount: number; key: string; ref_type: string | null; ref_id: string | null }
  | { op: 'settle'; hold_id: number; spent: number };
type HoldResult = { status: 'held' | 'existing'; hold_id: number; user_id: number; kind: WalletKind; amount: number; hold_status: HoldRef['status'] } | { status: 'insufficient' };
type SettleResult = { status: 'settled' | 'released' | 'closed'; returned: number; clawed: number };

/** Runs operations through `wallet_apply` (migration 0007): one statement, so all apply or none. */
async function applyOps(db: Executor, ops: readonly WalletOp[]): Promise<unknown[]> {
  const { rows } = await sql<{ results: unknown[] }>`select wallet_apply(${JSON.stringify(ops)}::jsonb) as results`.execute(db);
  const results = rows[0]?.results;
  if (!Array.isArray(results) || results.length !== ops.length) throw new Error('wallet_apply answered an unexpected shape');
  return results;
}

/** The next turn of the event loop: every continuation of the promises settled in this one has run. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Sends the operations of one wallet that arrive together, or while an earlier call for it is
 * under way, as one `wallet_apply` call: one round trip and one commit for all of them, so a busy
 * wallet is not limited to one commit at a time. A call waits for the end of the event loop's turn
 * before it takes its operations, so those its callers send on at once (a settle after its hold,
 * the next hold after a settle) join it, instead of the first of them going alone and the rest in
 * a call after it. Operations of one wallet keep their order. Within a process a wallet has one
 * call at a time; calls of two processes (web and worker) on one wallet can still deadlock (a hold
 * row and the wallet row, locked in opposite orders): PostgreSQL then aborts one of them whole,
 * and it is sent again.
 */
export class WalletBatcher {
  private readonly queues = new Map<string, { op: WalletOp; resolve: (r: unknown) => void; reject: (e: unknown) => void }[]>();

  constructor(
    private readonly apply: (ops: readonly WalletOp[]) => Promise<unknown[]>,
    private readonly maxBatch = 200,
  ) {}

  run(wallet: string, op: WalletOp): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(wallet);
      if (queue) {
        queue.push({ op, resolve, reject });
        return;
      }
      this.queues.set(wallet, [{ op, resolve, reject }]);
      void this.drain(wallet);
    });
  }

  private async drain(wallet: string): Promise<void> {
    for (;;) {
      await nextTurn();
      const queue = this.queues.get(wallet);
      if (!queue?.length) {
        this.queues.delete(wallet);
        return;
      }
      const batch = queue.splice(0, this.maxBatch);
      try {
        const ops = batch.map((b) => b.op);
        // A deadlock aborted the whole call (nothing applied): the same call again is safe. So is a
        // call whose holds another process's commit left uncovered: again, its check answers which.
        const results = await this.apply(ops).catch((err: unknown) => {
          if ((err as { code?: unknown }).code === '40P01' || isBalanceRefused(err)) return this.apply(ops);
          throw err;
        });
        batch.forEach((b, i) => b.resolve(results[i]));
      } catch (err) {
        // Nothing of the batch applied (one statement): each caller sees the failure and may retry with its key.
        for (const b of batch) b.reject(err);
      }
    }
  }
}

const batchers = new WeakMap<Db, WalletBatcher>();

/** One operation: inside the caller's transaction as is, otherwise batched with others of its wallet. */
function runOp(db: Executor, wallet: { userId: number; kind: WalletKind }, op: WalletOp): Promise<unknown> {
  if (db.isTransaction) return applyOps(db, [op]).then((results) => results[0]);
  let batcher = batchers.get(db);
  if (!batcher) {
    batcher = new WalletBatcher((ops) => applyOps(db, ops));
    batchers.set(db, batcher);
  }
  return batcher.run(`${String(wallet.userId)}:${wallet.kind}`, op);
}

const assertWallet = (kind: string): WalletKind => {
  if (kind !== 'words' && kind !== 'media') throw new Error(`unknown wallet ${kind}`);
  return kind;
};

/**
 * Places a hold of `amount` before a provider call. Throws INSUFFICIENT_TOKENS when the committed
 * balance does not cover it. The debit itself is made at the commit (`wallet_hold_commit`,
 * migration 0130), so the wallet's row is locked only for the commit; a balance another
 * transaction spent meanwhile fails the commit (`isBalanceRefused`, answered as too few tokens),
 * so concurrent holds can never overdraw. Retrying with the same key answers the existing hold.
 * Given a transaction, the hold is part of it ("create the generation, hold its tokens, enqueue
 * its job" commit together); the balance read inside it does not show the hold before the commit.
 */
export async function placeHold(db: Executor, hold: { userId: number; kind: WalletKind; amount: number; idempotencyKey: string; refType?: string; refId?: string | number }): Promise<HoldRef> {
  if (!Number.isInteger(hold.amount) || hold.amount <= 0) throw new Error(`hold amount must be a positive integer, got ${String(hold.amount)}`);
  const kind = assertWallet(hold.kind);
  const result = (await runOp(db, hold, {
    op: 'hold',
    user_id: hold.userId,
    kind,
    amount: hold.amount,
    key: hold.idempotencyKey,
    ref_type: hold.refType ?? null,
    ref_id: hold.refId === undefined ? null : String(hold.refId),
  })) as HoldResult;
  if (result.status === 'insufficient') throw new AppError('INSUFFICIENT_TOKENS');
  // A key names one hold: reusing it for another user, wallet or amount is a caller's bug.
  if (result.user_id !== hold.userId || result.kind !== kind || result.amount !== hold.amount) {
    throw new Error(`hold key ${hold.idempotencyKey} is already used for another hold`);
  }
  return { id: result.hold_id, userId: result.user_id, kind: result.kind, amount: result.amount, status: result.hold_status };
}

/**
 * Closes a hold: `spent` of it stays spent (capped at the hold), the rest goes back — to a refund
 * that claimed it first (`clawed`), then to the balance (`returned`). Closing an already closed
 * hold changes nothing (answers 0 returned). Given a transaction, the settle is part of it.
 */
export async function settleHold(db: Executor, hold: Pick<HoldRef, 'id' | 'userId' | 'kind'>, spent: number): Promise<{ returned: number; clawed: number }> {
  if (!Number.isInteger(spent) || spent < 0) throw new Error(`spent must be a non-negative integer, got ${String(spent)}`);
  const result = (await runOp(db, hold, { op: 'settle', hold_id: hold.id, spent })) as SettleResult;
  return { returned: result.returned, clawed: result.clawed };
}

/** Gives a whole hold back (the provider failed). */
export const releaseHold = (db: Executor, hold: Pick<HoldRef, 'id' | 'userId' | 'kind'>) => settleHold(db, hold, 0);

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

/**
 * Open holds older than `olderThan` with where their work stands: the generation or chat answer
 * that placed them (by its `hold_id`), or neither when no work refers to the hold any more.
 */
export const openHoldsWithWork = (db: Executor, olderThan: Date) =>
  db
    .selectFrom('wallet_holds as h')
    .leftJoin('generations as g', 'g.hold_id', 'h.id')
    .leftJoin('chat_messages as m', 'm.hold_id', 'h.id')
    .select(['h.id', 'h.user_id as userId', 'h.kind', 'g.id as generationId', 'g.status as generationStatus', 'g.cost as generationCost', 'm.id as messageId', 'm.status as messageStatus', 'm.words as messageWords'])
    .where('h.status', '=', 'held')
    .where('h.created_at', '<', olderThan)
    .orderBy('h.id')
    .limit(500)
    .execute();
