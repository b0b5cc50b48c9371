import type { Insertable } from 'kysely';
import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/database.ts';
import { prepared } from '../../db/prepared.ts';
import { CURRENT_STATUSES, type SubscriptionRow, type SubscriptionStatus, type SubscriptionsTable } from './billing.table.ts';

const current = prepared(
  (db, userId: number) => db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).where('status', 'in', CURRENT_STATUSES),
  (userId) => [userId, ...CURRENT_STATUSES],
  [1],
);

/** The user's current subscription (active, past due, or cancelled but still in its period). */
export const currentSubscription = async (db: Executor, userId: number) => (await current(db, userId))[0];

/** Locks and returns the current subscription: callers that change it must hold this lock. */
export const lockCurrentSubscription = (tx: Tx, userId: number) =>
  tx.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).where('status', 'in', CURRENT_STATUSES).forUpdate().executeTakeFirst();

/** Whether the user ever paid for a subscription (then the trial no longer applies). */
export async function hasPaidSubscription(db: Executor, userId: number): Promise<boolean> {
  const row = await db.selectFrom('subscriptions').select('id').where('user_id', '=', userId).where('paid_at', 'is not', null).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Changes a subscription's status and writes the change with its cause to the subscription log. */
export async function changeSubscription(
  tx: Tx,
  sub: Pick<SubscriptionRow, 'id' | 'user_id' | 'status'>,
  to: SubscriptionStatus,
  cause: string,
  ref: string | number | null,
  fields: Partial<Pick<SubscriptionRow, 'paid_at' | 'cancelled_at' | 'period_end' | 'ended_at' | 'cp_subscription_id'>> = {},
): Promise<void> {
  await tx
    .updateTable('subscriptions')
    .set({ ...fields, status: to, updated_at: new Date() })
    .where('id', '=', sub.id)
    .execute();
  await logSubscription(tx, sub, to, cause, ref);
}

/** A log line without a status change (a renewal, a failed charge, a refund). */
export async function logSubscription(tx: Tx, sub: Pick<SubscriptionRow, 'id' | 'user_id'> & { status: SubscriptionStatus | null }, to: SubscriptionStatus, cause: string, ref: string | number | null): Promise<void> {
  await tx
    .insertInto('subscription_log')
    .values({ subscription_id: sub.id, user_id: sub.user_id, from_status: sub.status, to_status: to, cause, ref: ref === null ? null : String(ref) })
    .execute();
}

/** Subscriptions whose period ran out: cancelled ones at once, renewing ones after a grace for late renewals. */
export async function dueForExpiry(db: Executor, graceHours: number): Promise<SubscriptionRow[]> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'cancelled'), eb('period_end', '<=', sql<Date>`now()`)]),
        eb.and([eb('status', 'in', ['active', 'past_due']), eb('period_end', '<=', sql<Date>`now() - make_interval(hours => ${graceHours})`)]),
      ]),
    )
    .limit(500)
    .execute();
}

/** Plans still unpaid `hours` after they were created (abandoned or declined checkouts), oldest first. */
export const pendingSubscriptionsOlderThan = (db: Executor, hours: number) =>
  db
    .selectFrom('subscriptions')
    .select('id')
    .where('status', '=', 'pending')
    .where('created_at', '<', sql<Date>`now() - make_interval(hours => ${hours})`)
    .orderBy('created_at')
    .limit(500)
    .execute();

/**
 * The user's order history of plans: every plan but a dead checkout — one that expired unpaid
 * and never took money (a plan whose payment was taken and returned, a trial already used,
 * stays: money moved).
 */
const orderHistoryOf = (db: Executor, userId: number) =>
  db
    .selectFrom('subscriptions as s')
    .where('s.user_id', '=', userId)
    .where((eb) =>
      eb.not(
        eb.and([
          eb('s.status', '=', 'expired'),
          eb('s.paid_at', 'is', null),
          eb.not(eb.exists(eb.selectFrom('invoices as i').select('i.id').whereRef('i.subscription_id', '=', 's.id').where('i.transaction_id', 'is not', null))),
        ]),
      ),
    );

export async function countSubscriptions(db: Executor, userId: number): Promise<number> {
  return (await orderHistoryOf(db, userId).select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
}

export const subscriptionAt = (db: Executor, userId: number, offset: number) => orderHistoryOf(db, userId).selectAll('s').orderBy('s.id', 'desc').offset(offset).limit(1).executeTakeFirst();

export const insertSubscription = (db: Executor, sub: Insertable<SubscriptionsTable>) =>
  db.insertInto('subscriptions').values(sub).returning(['id', 'user_id', 'status']).executeTakeFirstOrThrow();

export const findSubscription = (db: Executor, id: number) => db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();

export const lockSubscription = (tx: Tx, id: number) => tx.selectFrom('subscriptions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();

/** Locks the user's row: payment starts and Pay handlers of one user run one at a time. */
export async function lockUserForPayment(tx: Tx, userId: number): Promise<void> {
  // NO KEY UPDATE, not UPDATE: a handler holding a plan while it writes rows that reference users (ledger,
  // auto-charges) must not wait for us while we wait for that plan: a deadlock.
  await tx.selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().executeTakeFirstOrThrow();
}
