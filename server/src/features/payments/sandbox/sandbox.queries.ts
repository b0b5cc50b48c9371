import { sql, type Insertable, type Updateable } from 'kysely';
import type { Executor } from '../../../db/database.ts';
import type { SandboxSubscriptionsTable } from '../../billing/billing.table.ts';

/** A fresh transaction id of the sandbox's own sequence. */
export async function nextSandboxTransactionId(db: Executor): Promise<number> {
  const row = await sql<{ id: number }>`select nextval('sandbox_transaction_seq')::bigint as id`.execute(db);
  const first = row.rows[0];
  if (!first) throw new Error('no transaction id');
  return first.id;
}

/** The sandbox's refund transaction of a request id: made at the first call, the same ever after. */
export async function sandboxRefundId(db: Executor, requestId: string): Promise<number> {
  await sql`insert into sandbox_refunds (request_id, transaction_id) values (${requestId}, nextval('sandbox_transaction_seq')) on conflict (request_id) do nothing`.execute(db);
  const row = await db.selectFrom('sandbox_refunds').select('transaction_id').where('request_id', '=', requestId).executeTakeFirstOrThrow();
  return row.transaction_id;
}

export const insertSandboxSubscription = (db: Executor, s: Insertable<SandboxSubscriptionsTable>) => db.insertInto('sandbox_subscriptions').values(s).execute();

export const findSandboxSubscription = (db: Executor, id: string) => db.selectFrom('sandbox_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();

export const updateSandboxSubscription = (db: Executor, id: string, fields: Updateable<SandboxSubscriptionsTable>) =>
  db.updateTable('sandbox_subscriptions').set(fields).where('id', '=', id).execute();

/** Cancels a live sandbox subscription; answers whether it was live. */
export async function cancelSandboxSubscription(db: Executor, id: string): Promise<boolean> {
  const res = await db.updateTable('sandbox_subscriptions').set({ status: 'Cancelled' }).where('id', '=', id).where('status', 'in', ['Active', 'PastDue']).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Live sandbox subscriptions whose next charge date has come. */
export async function dueSandboxSubscriptions(db: Executor, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('sandbox_subscriptions').select('id').where('status', 'in', ['Active', 'PastDue']).where('next_transaction_at', '<=', new Date()).limit(limit).execute();
  return rows.map((r) => r.id);
}
