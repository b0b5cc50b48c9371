import type { AutoCharge, DuplicateCharge, PackagePurchase, SubscriptionRecord } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import { onePerPage } from '../../lib/pagination.ts';
import { rubles } from './money.ts';
import { countSubscriptions, subscriptionAt } from './subscriptions.queries.ts';
import { countPaidPackages, duplicateChargesOf, invoiceOfSubscription, paidPackageAt } from './invoices.queries.ts';
import { autoChargeAt, countAutoCharges } from './auto-charges.queries.ts';
import type { SubscriptionRow } from './billing.table.ts';

/*
 * The user's order history («Заказы»): plans, renewal charges and packages, one record per page,
 * each with what of it went back and any second charge of it (refunded by itself).
 */

const iso = (d: Date) => d.toISOString();

/** An order's second charges as the user reads them: the amount, and whether it is back on the card. */
async function duplicatesOf(db: Executor, invoiceId: number): Promise<DuplicateCharge[]> {
  const rows = await duplicateChargesOf(db, [invoiceId]);
  return rows.map((d) => ({ amount: rubles(d.amount_kopecks), refunded: d.refunded_kopecks >= d.amount_kopecks, created_at: iso(d.paid_at ?? d.created_at) }));
}

async function subscriptionRecord(db: Executor, s: SubscriptionRow): Promise<SubscriptionRecord> {
  const invoice = await invoiceOfSubscription(db, s.id);
  return {
    id: s.id,
    name: s.name,
    status: s.paid_at !== null,
    closed: s.cancelled_at !== null || s.status === 'replaced',
    amount: rubles(s.first_amount_kopecks),
    currency_provider: s.currency_provider,
    created_at: iso(s.created_at),
    updated_at: iso(s.updated_at),
    trial_days: s.is_trial ? (invoice?.trial_days ?? 0) : null,
    refunded: rubles(invoice?.refunded_kopecks ?? 0),
    duplicates: invoice ? await duplicatesOf(db, invoice.id) : [],
  };
}

export function subscriptionHistory(ctx: AppContext, userId: number, page: number) {
  return onePerPage<SubscriptionRecord>(
    () => countSubscriptions(ctx.db, userId),
    async (offset) => {
      const row = await subscriptionAt(ctx.db, userId, offset);
      return row && subscriptionRecord(ctx.db, row);
    },
    page,
  );
}

export function autoChargeHistory(ctx: AppContext, userId: number, page: number) {
  return onePerPage<AutoCharge>(
    () => countAutoCharges(ctx.db, userId),
    async (offset) => {
      const row = await autoChargeAt(ctx.db, userId, offset);
      return (
        row && {
          id: row.id,
          name: row.name,
          status: row.success,
          amount: rubles(row.amount_kopecks),
          currency_provider: row.currency_provider,
          created_at: iso(row.created_at),
          updated_at: iso(row.updated_at),
          refunded: rubles(row.refunded_kopecks),
        }
      );
    },
    page,
  );
}

/** Paid one-off packages, newest first, one per page («Заказы» → «Пакеты»). */
export function packageHistory(ctx: AppContext, userId: number, page: number) {
  return onePerPage<PackagePurchase>(
    () => countPaidPackages(ctx.db, userId),
    async (offset) => {
      const row = await paidPackageAt(ctx.db, userId, offset);
      if (!row) return undefined;
      const status = row.status === 'refunded' ? 'refunded' : row.refunded_kopecks > 0 ? 'partially_refunded' : 'paid';
      return {
        id: row.id,
        name: row.name,
        status,
        amount: rubles(row.amount_kopecks),
        currency_provider: row.currency,
        created_at: iso(row.paid_at ?? row.created_at),
        updated_at: iso(row.updated_at),
        refunded: rubles(row.refunded_kopecks),
        duplicates: await duplicatesOf(ctx.db, row.id),
      };
    },
    page,
  );
}
