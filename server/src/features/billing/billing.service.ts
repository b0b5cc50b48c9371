import type { FastifyInstance } from 'fastify';
import type { AutoCharge, PaymentStart, SubscribeCheck, SubscriptionRecord, UserSubscriptionStatus } from '@app/contracts';
import { AppError } from '../../lib/app-error.ts';
import type { Viewer } from '../accounts/viewer.ts';
import { buildWidgetOptions } from '../payments/cloudpayments.ts';
import { CANCEL_CP_SUBSCRIPTION_JOB } from '../payments/payments.jobs.ts';
import { DAY_MS, addMonths, daysLeft, rubles } from './money.ts';
import { findTariff, hasTrial, isPackage } from './tariffs.queries.ts';
import { changeSubscription, currentSubscription, hasPaidSubscription, lockCurrentSubscription } from './subscriptions.queries.ts';
import type { SubscriptionRow } from './billing.table.ts';

const PRODUCT = 'Нейростудия';
const iso = (d: Date) => d.toISOString();

export async function subscribeCheck(app: FastifyInstance, userId: number): Promise<SubscribeCheck> {
  const [current, paidBefore, card] = await Promise.all([
    currentSubscription(app.db, userId),
    hasPaidSubscription(app.db, userId),
    app.db.selectFrom('user_cards').select(['last_four']).where('user_id', '=', userId).executeTakeFirst(),
  ]);
  return {
    subscriptions: current?.tariff_id ?? null,
    first: !paidBefore,
    card: card ? `•••• ${card.last_four}` : null,
    cancelled: current?.status === 'cancelled',
    active_until: current?.period_end ? iso(current.period_end) : null,
  };
}

/** Dashboard status (seed §4): renewing → true with days to renewal (and whether its last charge failed); cancelled → false with days to the end. */
export async function subscriptionStatus(app: FastifyInstance, userId: number): Promise<UserSubscriptionStatus> {
  const current = await currentSubscription(app.db, userId);
  if (!current) return { status: false, subscription: null, days_left: 0, past_due: false };
  return {
    status: current.status === 'active' || current.status === 'past_due',
    subscription: { name: current.name },
    days_left: daysLeft(current.period_end),
    past_due: current.status === 'past_due',
  };
}

/** Creates the invoice of a monthly plan (and its subscription, unpaid until the Pay notification). */
export async function startSubscriptionPayment(app: FastifyInstance, viewer: Viewer, tariffId: number): Promise<PaymentStart> {
  const tariff = await findTariff(app.db, tariffId);
  if (!tariff) throw new AppError('TARIFF_NOT_FOUND');
  if (!tariff.active || isPackage(tariff)) throw new AppError('TARIFF_NOT_AVAILABLE');
  const { config } = app;
  return app.db.transaction().execute(async (tx) => {
    // Serialises payment starts of one user with each other and with Pay handlers (which lock the user the same way,
    // before any subscription). NO KEY UPDATE, not UPDATE: a handler holding the current plan while it writes rows
    // that reference users (ledger, auto-charges) must not wait for us while we wait for that plan: a deadlock.
    await tx.selectFrom('users').select('id').where('id', '=', viewer.id).forNoKeyUpdate().executeTakeFirstOrThrow();
    const current = await lockCurrentSubscription(tx, viewer.id);
    if (current && current.tariff_id === tariff.id && current.status !== 'cancelled') throw new AppError('SUBSCRIPTION_ALREADY_ACTIVE');
    const trial = hasTrial(tariff) && !(await hasPaidSubscription(tx, viewer.id));
    const chargeNow = trial ? (tariff.first_amount_kopecks ?? tariff.amount_kopecks) : tariff.amount_kopecks;
    const description = `${PRODUCT}: подписка «${tariff.name}»`;
    const sub = await tx
      .insertInto('subscriptions')
      .values({
        user_id: viewer.id,
        tariff_id: tariff.id,
        name: tariff.name,
        amount_kopecks: tariff.amount_kopecks,
        first_amount_kopecks: chargeNow,
        currency_provider: tariff.currency_provider,
        is_trial: trial,
      })
      .returning(['id', 'user_id', 'status'])
      .executeTakeFirstOrThrow();
    const invoice = await tx
      .insertInto('invoices')
      .values({
        user_id: viewer.id,
        tariff_id: tariff.id,
        subscription_id: sub.id,
        kind: 'subscription',
        description,
        amount_kopecks: chargeNow,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await tx
      .insertInto('subscription_log')
      .values({ subscription_id: sub.id, user_id: viewer.id, from_status: null, to_status: 'pending', cause: 'invoice_created', ref: String(invoice.id) })
      .execute();
    const now = new Date();
    const startDate = trial ? new Date(now.getTime() + tariff.trial_days * DAY_MS) : addMonths(now, 1);
    return {
      payment_id: invoice.id,
      email: viewer.email,
      amount: rubles(chargeNow),
      options: buildWidgetOptions({
        publicId: config.cloudpayments.publicId,
        invoiceId: invoice.id,
        accountId: viewer.id,
        email: viewer.email,
        description,
        amountRub: rubles(chargeNow),
        taxationSystem: config.cloudpayments.taxationSystem,
        recurrent: { amountRub: rubles(tariff.amount_kopecks), startDate, label: description },
      }),
    };
  });
}

/** Creates the invoice of a one-off package; packages need a current, not cancelled plan (seed §4, §5). */
export async function startPackagePayment(app: FastifyInstance, viewer: Viewer, tariffId: number): Promise<PaymentStart> {
  const tariff = await findTariff(app.db, tariffId);
  if (!tariff) throw new AppError('TARIFF_NOT_FOUND');
  if (!tariff.active || !isPackage(tariff)) throw new AppError('TARIFF_NOT_AVAILABLE');
  const current = await currentSubscription(app.db, viewer.id);
  if (!current) throw new AppError('SUBSCRIPTION_REQUIRED');
  if (current.status === 'cancelled') throw new AppError('SUBSCRIPTION_CANCELLED');
  const description = `${PRODUCT}: пакет «${tariff.name}»`;
  const invoice = await app.db
    .insertInto('invoices')
    .values({
      user_id: viewer.id,
      tariff_id: tariff.id,
      kind: 'package',
      description,
      amount_kopecks: tariff.amount_kopecks,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    payment_id: invoice.id,
    email: viewer.email,
    amount: rubles(tariff.amount_kopecks),
    options: buildWidgetOptions({
      publicId: app.config.cloudpayments.publicId,
      invoiceId: invoice.id,
      accountId: viewer.id,
      email: viewer.email,
      description,
      amountRub: rubles(tariff.amount_kopecks),
      taxationSystem: app.config.cloudpayments.taxationSystem,
    }),
  };
}

/**
 * Cancels auto-renewal: CloudPayments' subscription is cancelled first (so no further charge
 * can happen), then ours is marked cancelled; it stays active until the end of its period.
 */
export async function cancelSubscription(app: FastifyInstance, userId: number): Promise<{ cancelled: true; active_until: string }> {
  const current = await currentSubscription(app.db, userId);
  if (!current || current.status === 'cancelled') throw new AppError('SUBSCRIPTION_NOT_FOUND');
  if (current.cp_subscription_id) await app.cloudpayments.cancelSubscription(current.cp_subscription_id);
  const updated = await app.db.transaction().execute(async (tx) => {
    const locked = await lockCurrentSubscription(tx, userId);
    if (!locked || locked.id !== current.id) throw new AppError('SUBSCRIPTION_NOT_FOUND');
    if (locked.status === 'cancelled') return locked;
    await changeSubscription(tx, locked, 'cancelled', 'user_cancelled', locked.cp_subscription_id, { cancelled_at: new Date() });
    // A Recurrent may have named the CloudPayments subscription after we read the plan: cancel that one too.
    if (locked.cp_subscription_id && locked.cp_subscription_id !== current.cp_subscription_id) {
      await app.jobs.send(CANCEL_CP_SUBSCRIPTION_JOB, { id: locked.cp_subscription_id }, tx);
    }
    return locked;
  });
  return { cancelled: true, active_until: iso(updated.period_end ?? new Date()) };
}

function subscriptionRecord(s: Pick<SubscriptionRow, 'id' | 'name' | 'paid_at' | 'cancelled_at' | 'status' | 'first_amount_kopecks' | 'currency_provider' | 'created_at' | 'updated_at'>): SubscriptionRecord {
  return {
    id: s.id,
    name: s.name,
    status: s.paid_at !== null,
    closed: s.cancelled_at !== null || s.status === 'replaced',
    amount: rubles(s.first_amount_kopecks),
    currency_provider: s.currency_provider,
    created_at: iso(s.created_at),
    updated_at: iso(s.updated_at),
  };
}

/** One record per page (seed §9): `last_page` is the number of records (at least 1). */
async function onePerPage<T>(count: () => Promise<number>, load: (offset: number) => Promise<T | undefined>, page: number): Promise<{ data: T[]; last_page: number }> {
  const total = await count();
  const row = page <= total ? await load(page - 1) : undefined;
  return { data: row === undefined ? [] : [row], last_page: Math.max(1, total) };
}

export function subscriptionHistory(app: FastifyInstance, userId: number, page: number) {
  return onePerPage<SubscriptionRecord>(
    async () => (await app.db.selectFrom('subscriptions').select(app.db.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow()).n,
    async (offset) => {
      const row = await app.db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').offset(offset).limit(1).executeTakeFirst();
      return row && subscriptionRecord(row);
    },
    page,
  );
}

export function autoChargeHistory(app: FastifyInstance, userId: number, page: number) {
  return onePerPage<AutoCharge>(
    async () => (await app.db.selectFrom('auto_charges').select(app.db.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow()).n,
    async (offset) => {
      const row = await app.db.selectFrom('auto_charges').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').offset(offset).limit(1).executeTakeFirst();
      return (
        row && {
          id: row.id,
          name: row.name,
          status: row.success,
          amount: rubles(row.amount_kopecks),
          currency_provider: row.currency_provider,
          created_at: iso(row.created_at),
          updated_at: iso(row.updated_at),
        }
      );
    },
    page,
  );
}

/** Records the conversion goal once per paid invoice (GET /api/new/target_2). */
export async function recordConversion(app: FastifyInstance, userId: number): Promise<boolean> {
  const res = await app.db
    .insertInto('conversions')
    .columns(['invoice_id', 'user_id'])
    .expression((eb) =>
      eb
        .selectFrom('invoices')
        .select(['invoices.id', 'invoices.user_id'])
        .where('invoices.user_id', '=', userId)
        .where('invoices.status', '=', 'paid')
        .where((w) => w.not(w.exists(w.selectFrom('conversions').select('conversions.invoice_id').whereRef('conversions.invoice_id', '=', 'invoices.id'))))
        .orderBy('invoices.id', 'desc')
        .limit(1),
    )
    .onConflict((oc) => oc.column('invoice_id').doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}
