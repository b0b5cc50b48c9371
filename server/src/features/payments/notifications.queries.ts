import { sql, type Insertable } from 'kysely';
import type { Executor, Tx } from '../../db/database.ts';
import { CURRENT_STATUSES, type AutoChargesTable, type SubscriptionStatus } from '../billing/billing.table.ts';

/** Claims a notification's idempotency key; answers the new row's id, or undefined when it was handled before. */
export async function claimNotification(tx: Tx, row: { kind: string; key: string; transactionId: number | null; payload: Record<string, unknown> }): Promise<number | undefined> {
  const inserted = await tx
    .insertInto('payment_notifications')
    .values({ kind: row.kind, idempotency_key: row.key, transaction_id: row.transactionId, payload: JSON.stringify(row.payload), result_code: -1 })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id;
}

export async function handledResult(db: Executor, key: string): Promise<number> {
  return (await db.selectFrom('payment_notifications').select('result_code').where('idempotency_key', '=', key).executeTakeFirstOrThrow()).result_code;
}

export const storeResult = (tx: Tx, id: number, code: number) => tx.updateTable('payment_notifications').set({ result_code: code }).where('id', '=', id).execute();

export const subscriptionByCpId = (db: Executor, cpId: string) => db.selectFrom('subscriptions').selectAll().where('cp_subscription_id', '=', cpId).executeTakeFirst();

export const lockSubscriptionByCpId = (tx: Tx, cpId: string) => tx.selectFrom('subscriptions').selectAll().where('cp_subscription_id', '=', cpId).forUpdate().executeTakeFirst();

/** The user's subscription in one of `statuses`. */
export const findSubscriptionInStatus = (db: Executor, userId: number, statuses: readonly SubscriptionStatus[]) =>
  db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).where('status', 'in', statuses).executeTakeFirst();

/** The user's current plan other than `excludeId` (the one a new plan's payment replaces), locked. */
export const lockOtherCurrentSubscription = (tx: Tx, userId: number, excludeId: number) =>
  tx.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).where('status', 'in', CURRENT_STATUSES).where('id', '!=', excludeId).forUpdate().executeTakeFirst();

/** Forgets a CloudPayments subscription id on every plan but `keepId` (a Pay names its own plan). */
export const unlinkCpSubscription = (tx: Tx, cpId: string, keepId: number) =>
  tx.updateTable('subscriptions').set({ cp_subscription_id: null }).where('cp_subscription_id', '=', cpId).where('id', '!=', keepId).execute();

export const linkCpSubscription = (tx: Tx, subscriptionId: number, cpId: string) => tx.updateTable('subscriptions').set({ cp_subscription_id: cpId }).where('id', '=', subscriptionId).execute();

export const findCpSubscription = (db: Executor, cpId: string) => db.selectFrom('cp_subscriptions').selectAll().where('id', '=', cpId).executeTakeFirst();

/** The plan of `userId` without a CloudPayments id that a charge or Recurrent may belong to (newest first), locked. */
export function lockUnlinkedSubscription(tx: Tx, userId: number, statuses: readonly SubscriptionStatus[], amountKopecks?: number) {
  let query = tx.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).where('cp_subscription_id', 'is', null).where('status', 'in', statuses);
  if (amountKopecks !== undefined) query = query.where('amount_kopecks', '=', amountKopecks);
  return query.orderBy('id', 'desc').limit(1).forUpdate().executeTakeFirst();
}

/** Records a renewal charge once per transaction; answers its id, or undefined when it was recorded before. */
export async function insertAutoCharge(tx: Tx, charge: Insertable<AutoChargesTable>): Promise<number | undefined> {
  const row = await tx.insertInto('auto_charges').values(charge).onConflict((oc) => oc.column('transaction_id').doNothing()).returning('id').executeTakeFirst();
  return row?.id;
}

export const lockChargeByTransaction = (tx: Tx, transactionId: number) =>
  tx.selectFrom('auto_charges').selectAll().where('transaction_id', '=', transactionId).where('success', '=', true).forUpdate().executeTakeFirst();

export const updateChargeRefund = (tx: Tx, id: number, refundedKopecks: number, refundedAt: Date | undefined) =>
  tx
    .updateTable('auto_charges')
    .set({ refunded_kopecks: refundedKopecks, updated_at: new Date(), ...(refundedAt ? { refunded_at: refundedAt } : {}) })
    .where('id', '=', id)
    .execute();

/**
 * Stores what a Recurrent notification says about a CloudPayments subscription; answers the
 * status kept. Cancelled, Rejected and Expired are final there: a later Recurrent saying
 * otherwise is a late retry and does not change them.
 */
export async function upsertCpSubscription(
  tx: Tx,
  s: { id: string; accountId: string; status: string; amountKopecks: number; nextTransactionAt: Date | null; successful: number; failed: number },
): Promise<string> {
  const row = await tx
    .insertInto('cp_subscriptions')
    .values({
      id: s.id,
      account_id: s.accountId,
      status: s.status,
      amount_kopecks: s.amountKopecks,
      next_transaction_at: s.nextTransactionAt,
      successful_transactions: s.successful,
      failed_transactions: s.failed,
    })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({
        status: sql<string>`case when cp_subscriptions.status in ('Cancelled', 'Rejected', 'Expired') then cp_subscriptions.status else excluded.status end`,
        next_transaction_at: s.nextTransactionAt,
        successful_transactions: sql`greatest(cp_subscriptions.successful_transactions, excluded.successful_transactions)`,
        failed_transactions: sql`greatest(cp_subscriptions.failed_transactions, excluded.failed_transactions)`,
        updated_at: new Date(),
      }),
    )
    .returning('status')
    .executeTakeFirstOrThrow();
  return row.status;
}

/** Ledger rows of a payment's grants and of earlier refunds of it (the refund takes back in proportion). */
export const grantsAndRefundsOf = (tx: Tx, userId: number, ref: { type: string; id: number }) =>
  tx
    .selectFrom('wallet_ledger')
    .select(['kind', 'amount', 'ref_type'])
    .where('user_id', '=', userId)
    .where('ref_id', '=', String(ref.id))
    .where('ref_type', 'in', [ref.type, `${ref.type}_refund`])
    .execute();

/** What a plan grants a period now: its renewals give the plan's current figures (a first payment gives what its checkout showed, kept on the invoice). */
export const tariffTokens = (db: Executor, tariffId: number) => db.selectFrom('tariffs').select(['words', 'media_tenths']).where('id', '=', tariffId).executeTakeFirstOrThrow();
