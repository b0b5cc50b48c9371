import { sql } from 'kysely';
import type { NoticeKind } from '@app/contracts';
import type { Executor } from '../../db/database.ts';

/** A notice that is due: whom, about which plan and period, with what it says. */
export interface DueNotice {
  kind: NoticeKind;
  userId: number;
  email: string;
  subscriptionId: number;
  plan: string;
  amountKopecks: number;
  date: Date;
  periodKey: string;
}

const HOUR_MS = 3_600_000;

/** Plans of live accounts, with the user's address and turned-off notices. */
const livePlans = (db: Executor) =>
  db
    .selectFrom('subscriptions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .where('u.deleted_at', 'is', null)
    .where('u.blocked_at', 'is', null)
    .select(['s.id as subscriptionId', 's.user_id as userId', 'u.email', 's.name as plan', 's.amount_kopecks as amountKopecks', 'u.notices_off']);

const noSuccessfulCharge = sql<boolean>`not exists (select 1 from auto_charges c where c.subscription_id = s.id and c.success)`;

/**
 * Plans whose monthly charge comes within `hoursAhead`: a trial (no renewal charged yet) a day
 * ahead, a paid month three days ahead. Only active ones: a cancelled plan is not charged again.
 */
async function comingCharges(db: Executor, kind: 'trial_end' | 'renewal', now: Date, hoursAhead: number): Promise<DueNotice[]> {
  const rows = await livePlans(db)
    .select('s.period_end')
    .where('s.status', '=', 'active')
    .where('s.period_end', '>', now)
    .where('s.period_end', '<=', new Date(now.getTime() + hoursAhead * HOUR_MS))
    .where(kind === 'trial_end' ? sql<boolean>`s.is_trial and ${noSuccessfulCharge}` : sql<boolean>`not (s.is_trial and ${noSuccessfulCharge})`)
    .orderBy('s.id')
    .limit(1000)
    .execute();
  return rows.map((r) => ({ kind, userId: r.userId, email: r.email, subscriptionId: r.subscriptionId, plan: r.plan, amountKopecks: r.amountKopecks, date: r.period_end ?? now, periodKey: (r.period_end ?? now).toISOString() }));
}

/** Renewal charges that failed within `hoursBack`, of users who did not turn that notice off. */
async function failedCharges(db: Executor, now: Date, hoursBack: number): Promise<DueNotice[]> {
  const rows = await livePlans(db)
    .innerJoin('auto_charges as c', 'c.subscription_id', 's.id')
    .select(['c.id as chargeId', 'c.amount_kopecks as chargeKopecks', 'c.created_at as chargedAt'])
    .where('c.success', '=', false)
    .where('c.created_at', '>', new Date(now.getTime() - hoursBack * HOUR_MS))
    .where(sql<boolean>`not ('renewal_failed' = any(u.notices_off))`)
    .orderBy('c.id')
    .limit(1000)
    .execute();
  return rows.map((r) => ({ kind: 'renewal_failed', userId: r.userId, email: r.email, subscriptionId: r.subscriptionId, plan: r.plan, amountKopecks: r.chargeKopecks, date: r.chargedAt, periodKey: `charge:${String(r.chargeId)}` }));
}

/** Paid plans that ran out within `hoursBack` (not replaced by another, not unpaid checkouts). */
async function endedPlans(db: Executor, now: Date, hoursBack: number): Promise<DueNotice[]> {
  const rows = await livePlans(db)
    .select('s.ended_at')
    .where('s.status', '=', 'expired')
    .where('s.paid_at', 'is not', null)
    .where('s.ended_at', '>', new Date(now.getTime() - hoursBack * HOUR_MS))
    .where(sql<boolean>`not ('plan_ended' = any(u.notices_off))`)
    .orderBy('s.id')
    .limit(1000)
    .execute();
  return rows.map((r) => ({ kind: 'plan_ended', userId: r.userId, email: r.email, subscriptionId: r.subscriptionId, plan: r.plan, amountKopecks: r.amountKopecks, date: r.ended_at ?? now, periodKey: 'ended' }));
}

/** Every notice due at `now` (some perhaps sent already: `recordNotice` tells). */
export async function dueNotices(db: Executor, now: Date): Promise<DueNotice[]> {
  const lists = await Promise.all([comingCharges(db, 'trial_end', now, 24), comingCharges(db, 'renewal', now, 72), failedCharges(db, now, 48), endedPlans(db, now, 48)]);
  return lists.flat();
}

/**
 * Records a notice as sent; answers false when it was (by this or another worker): the unique
 * (subscription, period, kind) makes a second insert wait for the first's commit and do nothing.
 */
export async function recordNotice(db: Executor, n: DueNotice): Promise<boolean> {
  const row = await db
    .insertInto('mail_notices')
    .values({ user_id: n.userId, subscription_id: n.subscriptionId, kind: n.kind, period_key: n.periodKey })
    .onConflict((oc) => oc.constraint('mail_notices_once').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export const noticesOff = async (db: Executor, userId: number) => (await db.selectFrom('users').select('notices_off').where('id', '=', userId).executeTakeFirstOrThrow()).notices_off;

export const setNoticesOff = (db: Executor, userId: number, off: string[]) => db.updateTable('users').set({ notices_off: off }).where('id', '=', userId).where('deleted_at', 'is', null).execute();

/** Turns every optional notice off (a mail's one-click unsubscribe); answers whether the account exists. */
export async function turnOptionalNoticesOff(db: Executor, userId: number, optional: readonly string[]): Promise<boolean> {
  const res = await db.updateTable('users').set({ notices_off: [...optional] }).where('id', '=', userId).where('deleted_at', 'is', null).executeTakeFirst();
  return res.numUpdatedRows > 0n;
}
