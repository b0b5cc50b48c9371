import { sql, type Kysely } from 'kysely';
import { applyFunction } from '../functions/index.ts';

/**
 * A hold's wallet is written at its transaction's commit, so its row is locked only for the commit.
 *
 * - `wallet_apply` (v4) checks a hold against the committed balance (with what the same call's
 *   earlier operations change) and records the hold and its ledger line; a settle records its
 *   close and ledger lines. Neither writes `wallets`.
 * - `wallet_hold_commit` (deferred constraint triggers on `wallet_holds`) applies each placed hold
 *   (its amount taken) and each closed one (what it gives back, less a refund's claim) at commit.
 *   A balance that no longer covers a hold then fails `CHECK (balance >= 0)`, and the transaction
 *   with it: no overdraw, and the balance is the ledger's sum at every commit.
 * - `chat_close` (v5) answers the balance with what its settle gives back at its commit.
 *
 * Before, a hold locked the wallet's row at its statement and held it through the rest of the
 * caller's transaction, its round trips and the commit: one wallet's transactions queued behind it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await applyFunction(db, 'wallet_hold_commit', 1);
  await sql`create constraint trigger wallet_holds_placed after insert on wallet_holds
    deferrable initially deferred for each row execute function wallet_hold_commit()`.execute(db);
  await sql`create constraint trigger wallet_holds_closed after update on wallet_holds
    deferrable initially deferred for each row when (old.status = 'held' and new.status <> 'held') execute function wallet_hold_commit()`.execute(db);
  await applyFunction(db, 'wallet_apply', 4);
  await applyFunction(db, 'chat_close', 5);
}

/** Restores the versions before (the wallet written at each statement), then drops the triggers and their function. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists wallet_holds_closed on wallet_holds`.execute(db);
  await sql`drop trigger if exists wallet_holds_placed on wallet_holds`.execute(db);
  await applyFunction(db, 'chat_close', 4);
  await applyFunction(db, 'wallet_apply', 3);
  await sql`drop function if exists wallet_hold_commit()`.execute(db);
}
