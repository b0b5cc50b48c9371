import { sql, type Kysely } from 'kysely';
import { applyFunction } from '../functions/index.ts';

/**
 * Where tokens could still be created at the edges:
 *
 * - **A refund takes back held tokens too.** A refund takes what the balance has at once; the
 *   rest of what it wants is marked on the user's open holds of that wallet (`clawback`, with the
 *   refunded payment as `clawback_ref_*`). When such a hold closes, what it gives back goes to the
 *   refund first (a `refund` ledger line, key `clawback:<hold>`) and only the remainder to the
 *   balance. What the work really spent stays spent: a refund takes back tokens, not service.
 *   `wallet_apply`'s settle answers `returned` (to the balance) and `clawed` (to the refund).
 * - **Chats are deleted in two steps** when an answer is still being written there (possibly by
 *   another process): `chat_delete` marks the chat `deleted_at` (hidden from every read at once) and
 *   leaves the answer's hold to whoever closes the answer, so it is charged for what it wrote;
 *   `chat_close` removes the chat once its last answer is closed. Without answers in progress the
 *   chat goes at once, as before.
 * - **The send commits durably** (`chat_send` no longer turns `synchronous_commit` off): a crash
 *   after an answer started streaming cannot lose the hold it spends from.
 * - **Answers written at once per user are capped** (`max_answers` in `chat_send`'s parameters),
 *   counted under a transaction-level advisory lock of the user, so concurrent sends cannot pass
 *   the cap together: `{status: 'too_many'}`.
 * - Indexes to find the work a hold pays for (the sweeper of holds whose work is over).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table wallet_holds
    add column clawback bigint not null default 0,
    add column clawback_ref_type text,
    add column clawback_ref_id text,
    add constraint wallet_holds_clawback_check check (clawback >= 0 and clawback <= amount)`.execute(db);
  await sql`create index wallet_holds_open_user_idx on wallet_holds (user_id, kind, id) where status = 'held'`.execute(db);
  await sql`create index generations_hold_idx on generations (hold_id) where hold_id is not null`.execute(db);
  await sql`create index chat_messages_hold_idx on chat_messages (hold_id) where hold_id is not null`.execute(db);
  await sql`alter table chats add column deleted_at timestamptz`.execute(db);
  await sql`create index chats_deleted_idx on chats (deleted_at) where deleted_at is not null`.execute(db);

  await applyFunction(db, 'wallet_apply', 3);
  await applyFunction(db, 'chat_send', 3);
  await applyFunction(db, 'chat_close', 3);
  await applyFunction(db, 'chat_delete', 2);
}

/** Restores the functions' versions before this migration, then drops what it added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await applyFunction(db, 'wallet_apply', 2);
  await applyFunction(db, 'chat_send', 2);
  await applyFunction(db, 'chat_close', 2);
  await applyFunction(db, 'chat_delete', 1);
  await sql`delete from chats where deleted_at is not null`.execute(db);
  await sql`drop index if exists chats_deleted_idx`.execute(db);
  await sql`alter table chats drop column if exists deleted_at`.execute(db);
  await sql`drop index if exists chat_messages_hold_idx`.execute(db);
  await sql`drop index if exists generations_hold_idx`.execute(db);
  await sql`drop index if exists wallet_holds_open_user_idx`.execute(db);
  await sql`alter table wallet_holds drop constraint if exists wallet_holds_clawback_check, drop column if exists clawback, drop column if exists clawback_ref_type, drop column if exists clawback_ref_id`.execute(db);
}
