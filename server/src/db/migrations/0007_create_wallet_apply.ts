import { sql, type Kysely } from 'kysely';
import { applyFunction } from '../functions/index.ts';

/**
 * `wallet_apply(ops jsonb)`: applies hold and settle operations in order, in one statement, and
 * answers one result per operation. A statement is atomic: either every operation of a call
 * applies or none does. The server sends the operations of one wallet that arrive together as
 * one call (one round trip, one commit), so a hot wallet is not limited by one commit per
 * operation; a caller's transaction sends one operation.
 *
 *   {"op":"hold","user_id":1,"kind":"words","amount":10,"key":"…","ref_type":null,"ref_id":null}
 *     → {"status":"held"|"existing"|"insufficient","hold_id":…,"user_id":…,"kind":…,"amount":…}
 *   {"op":"settle","hold_id":5,"spent":7}
 *     → {"status":"settled"|"released"|"closed","returned":3}
 *
 * A hold inserts its row first (its idempotency key decides between a new and an existing hold,
 * whatever runs concurrently), then takes the amount with one conditional update; when the
 * balance does not cover it, the new row is removed again and nothing else changes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await applyFunction(db, 'wallet_apply', 1);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function wallet_apply(jsonb)`.execute(db);
}
