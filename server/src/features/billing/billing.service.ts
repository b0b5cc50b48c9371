import type { PaymentStart, SubscribeCheck, UserSubscriptionStatus } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Viewer } from '../accounts/viewer.ts';
import { buildWidgetOptions } from '../payments/cloudpayments.ts';
import { cancelCpSubscriptionJob } from '../payments/payments.jobs.ts';
import { DAY_MS, addMonths, daysLeft, rubles } from './money.ts';
import { findTariff, hasTrial, isPackage } from './tariffs.queries.ts';
import { changeSubscription, currentSubscription, hasPaidSubscription, insertSubscription, lockCurrentSubscription, lockUserForPayment, logSubscription } from './subscriptions.queries.ts';
import { findUserInvoice, insertInvoice } from './invoices.queries.ts';
import { countSuccessfulCharges } from './auto-charges.queries.ts';
import { savedCard } from './cards.queries.ts';
import type { TariffRow } from './billing.table.ts';
import { assertSandboxOn } from '../settings/settings.store.ts';
import { bindDiscount, guarded, takeDiscount, type CheckoutDiscount } from '../promo/discount.service.ts';

const PRODUCT = 'Нейростудия';

/** A trial paid after another paid plan: not credited, its money goes back (notifications.service). */
export const TRIAL_ALREADY_USED = 'trial_already_used';
const TRIAL_ALREADY_USED_MESSAGE = 'Пробный период уже использован: тариф не подключён, деньги вернутся на карту.';
const iso = (d: Date) => d.toISOString();

export async function subscribeCheck(ctx: AppContext, userId: number): Promise<SubscribeCheck> {
  const [current, paidBefore, card] = await Promise.all([currentSubscription(ctx.db, userId), hasPaidSubscription(ctx.db, userId), savedCard(ctx.db, userId)]);
  const renewing = current !== undefined && current.status !== 'cancelled';
  return {
    subscriptions: current?.tariff_id ?? null,
    first: !paidBefore,
    card: card ? `•••• ${card.last_four}` : null,
    cancelled: current?.status === 'cancelled',
    active_until: current?.period_end ? iso(current.period_end) : null,
    // A trial plan is in its trial until its first monthly charge (a failed one puts it past due).
    trial: current !== undefined && current.is_trial && current.status !== 'past_due' && (await countSuccessfulCharges(ctx.db, current.id)) === 0,
    past_due: current?.status === 'past_due',
    next_charge_at: renewing && current.period_end ? iso(current.period_end) : null,
    next_charge_amount: renewing ? rubles(current.amount_kopecks) : null,
  };
}

/** Dashboard status (seed §4): renewing → true with days to renewal (and whether its last charge failed); cancelled → false with days to the end. */
export async function subscriptionStatus(ctx: AppContext, userId: number): Promise<UserSubscriptionStatus> {
  const current = await currentSubscription(ctx.db, userId);
  if (!current) return { status: false, subscription: null, days_left: 0, past_due: false };
  return {
    status: current.status === 'active' || current.status === 'past_due',
    subscription: { name: current.name },
    days_left: daysLeft(current.period_end),
    past_due: current.status === 'past_due',
  };
}

/** Where one of the user's payments stands (moved only by server notifications). */
export async function paymentStatus(ctx: AppContext, userId: number, paymentId: number) {
  const invoice = await findUserInvoice(ctx.db, userId, paymentId);
  if (!invoice) throw new AppError('NOT_FOUND', 'Платёж не найден');
  const refused = invoice.failure_reason === TRIAL_ALREADY_USED;
  return { payment_id: invoice.id, kind: invoice.kind, status: invoice.status, message: refused ? TRIAL_ALREADY_USED_MESSAGE : null };
}

/**
 * What the checkout shows and so what its payment buys, kept on the invoice: the plan's name, its
 * tokens and the trial's days as they are now. An admin's later edit of the plan changes what
 * later checkouts (and renewals) give, never what this payment buys.
 */
const checkoutGrant = (tariff: TariffRow, trial: boolean) => ({ tariff_name: tariff.name, words: tariff.words, media_tenths: tariff.media_tenths, trial_days: trial ? tariff.trial_days : 0 });

/**
 * Creates the invoice of a monthly plan (and its subscription, unpaid until the Pay notification);
 * a discount code (`promo`) takes its percent off the first payment, under the code's lock, counted
 * against the guessing limits of promo codes.
 */
export async function startSubscriptionPayment(ctx: AppContext, viewer: Viewer, tariffId: number, promo?: { code: string; ip: string }): Promise<PaymentStart> {
  const tariff = await findTariff(ctx.db, tariffId);
  if (!tariff) throw new AppError('TARIFF_NOT_FOUND');
  if (!tariff.active || isPackage(tariff)) throw new AppError('TARIFF_NOT_AVAILABLE');
  assertSandboxOn(ctx, 'payments');
  if (promo) return guarded(ctx, viewer.id, promo.ip, (known) => subscriptionCheckout(ctx, viewer, tariff, { code: promo.code, known }));
  return subscriptionCheckout(ctx, viewer, tariff);
}

async function subscriptionCheckout(ctx: AppContext, viewer: Viewer, tariff: TariffRow, promo?: { code: string; known: () => void }): Promise<PaymentStart> {
  const { config } = ctx;
  return ctx.db.transaction().execute(async (tx) => {
    // Serialises payment starts of one user with each other and with Pay handlers (which lock the user the same way, before any subscription).
    await lockUserForPayment(tx, viewer.id);
    const current = await lockCurrentSubscription(tx, viewer.id);
    if (current && current.tariff_id === tariff.id && current.status !== 'cancelled') throw new AppError('SUBSCRIPTION_ALREADY_ACTIVE');
    const trial = hasTrial(tariff) && !(await hasPaidSubscription(tx, viewer.id));
    const fullCharge = trial ? (tariff.first_amount_kopecks ?? tariff.amount_kopecks) : tariff.amount_kopecks;
    const discount: CheckoutDiscount | null = promo ? await takeDiscount(tx, promo.code, viewer.id, tariff, fullCharge, promo.known) : null;
    const chargeNow = fullCharge - (discount?.kopecks ?? 0);
    const description = `${PRODUCT}: подписка «${tariff.name}»`;
    const sub = await insertSubscription(tx, {
      user_id: viewer.id,
      tariff_id: tariff.id,
      name: tariff.name,
      amount_kopecks: tariff.amount_kopecks,
      first_amount_kopecks: chargeNow,
      currency_provider: tariff.currency_provider,
      is_trial: trial,
    });
    const invoice = await insertInvoice(tx, {
      user_id: viewer.id,
      tariff_id: tariff.id,
      subscription_id: sub.id,
      kind: 'subscription',
      description,
      amount_kopecks: chargeNow,
      currency: tariff.currency_provider,
      ...checkoutGrant(tariff, trial),
      promo_code_id: discount?.promo.id ?? null,
      discount_kopecks: discount?.kopecks ?? 0,
    });
    if (discount) await bindDiscount(tx, discount, viewer.id, invoice.id);
    await logSubscription(tx, { ...sub, status: null }, 'pending', 'invoice_created', invoice.id);
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
export async function startPackagePayment(ctx: AppContext, viewer: Viewer, tariffId: number): Promise<PaymentStart> {
  const tariff = await findTariff(ctx.db, tariffId);
  if (!tariff) throw new AppError('TARIFF_NOT_FOUND');
  if (!tariff.active || !isPackage(tariff)) throw new AppError('TARIFF_NOT_AVAILABLE');
  assertSandboxOn(ctx, 'payments');
  const current = await currentSubscription(ctx.db, viewer.id);
  if (!current) throw new AppError('SUBSCRIPTION_REQUIRED');
  if (current.status === 'cancelled') throw new AppError('SUBSCRIPTION_CANCELLED');
  const description = `${PRODUCT}: пакет «${tariff.name}»`;
  const invoice = await insertInvoice(ctx.db, {
    user_id: viewer.id,
    tariff_id: tariff.id,
    kind: 'package',
    description,
    amount_kopecks: tariff.amount_kopecks,
    currency: tariff.currency_provider,
    ...checkoutGrant(tariff, false),
  });
  return {
    payment_id: invoice.id,
    email: viewer.email,
    amount: rubles(tariff.amount_kopecks),
    options: buildWidgetOptions({
      publicId: ctx.config.cloudpayments.publicId,
      invoiceId: invoice.id,
      accountId: viewer.id,
      email: viewer.email,
      description,
      amountRub: rubles(tariff.amount_kopecks),
      taxationSystem: ctx.config.cloudpayments.taxationSystem,
    }),
  };
}

/**
 * Cancels auto-renewal: CloudPayments' subscription is cancelled first (so no further charge
 * can happen), then ours is marked cancelled; it stays active until the end of its period.
 */
export async function cancelSubscription(ctx: AppContext, userId: number): Promise<{ cancelled: true; active_until: string }> {
  const current = await currentSubscription(ctx.db, userId);
  if (!current || current.status === 'cancelled') throw new AppError('SUBSCRIPTION_NOT_FOUND');
  if (current.cp_subscription_id) await ctx.cloudpayments.cancelSubscription(current.cp_subscription_id);
  const updated = await ctx.db.transaction().execute(async (tx) => {
    const locked = await lockCurrentSubscription(tx, userId);
    if (!locked || locked.id !== current.id) throw new AppError('SUBSCRIPTION_NOT_FOUND');
    if (locked.status === 'cancelled') return locked;
    await changeSubscription(tx, locked, 'cancelled', 'user_cancelled', locked.cp_subscription_id, { cancelled_at: new Date() });
    // A Recurrent may have named the CloudPayments subscription after we read the plan: cancel that one too.
    if (locked.cp_subscription_id && locked.cp_subscription_id !== current.cp_subscription_id) {
      await ctx.jobs.send(cancelCpSubscriptionJob, { id: locked.cp_subscription_id }, { tx });
    }
    return locked;
  });
  return { cancelled: true, active_until: iso(updated.period_end ?? new Date()) };
}
