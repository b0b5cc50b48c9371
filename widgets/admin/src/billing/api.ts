import { adminBillingEndpoints as endpoints, adminPromoEndpoints, type ExportQuery } from '@app/contracts/admin';
import type { ClientRoute } from '@app/contracts/browser';
import { failure, routeCall, send } from '@app/kit';

/** A CSV export as a file: the server's bytes, or its refusal as an ApiError (a bad period, a lost session). */
async function csvFile(route: ClientRoute, query: ExportQuery): Promise<Blob> {
  const res = await send(route as typeof endpoints.exportLedger, { query }, { accept: 'text/csv' });
  if (!res.ok) throw await failure(res);
  return res.blob();
}

/** The calls of the billing tabs: 5 «Тарифы», 7 «Подписки», 8 «Платежи», 9 «Лог подписок», 10 «Стартовая панель». */
export const billingApi = {
  /** GET /api/admin/tariffs?q=&sort=&dir=&page= */
  tariffs: routeCall(endpoints.tariffs),
  /** GET /api/admin/tariffs/:id */
  tariff: routeCall(endpoints.tariff),
  /** POST /api/admin/tariffs (every field of the plan) */
  createTariff: routeCall(endpoints.createTariff),
  /** PUT /api/admin/tariffs/:id: the plans page shows the change at once. */
  updateTariff: routeCall(endpoints.updateTariff),
  /** GET /api/admin/subscriptions?q=&status=&sort=&dir=&page= */
  subscriptions: routeCall(endpoints.subscriptions),
  /** GET /api/admin/subscriptions/:id: with its log and payments. */
  subscription: routeCall(endpoints.subscription),
  /** GET /api/admin/payments?q=&status=&sort=&dir=&page= */
  payments: routeCall(endpoints.payments),
  /** GET /api/admin/payments/:id: with its refunds and ledger lines. */
  payment: routeCall(endpoints.payment),
  /** POST /api/admin/payments/:id/refund {amount, reason, request_id}: once per request id. */
  refundPayment: routeCall(endpoints.refundPayment),
  /** GET /api/admin/subscription-log?q=&kind=&dir=&page= */
  subscriptionLog: routeCall(endpoints.subscriptionLog),
  /** GET /api/admin/dashboard-cards?q=&sort=&dir=&page= */
  dashboardCards: routeCall(endpoints.dashboardCards),
  /** GET /api/admin/dashboard-cards/:id */
  dashboardCard: routeCall(endpoints.dashboardCard),
  /** POST /api/admin/dashboard-cards */
  createDashboardCard: routeCall(endpoints.createDashboardCard),
  /** PUT /api/admin/dashboard-cards/:id */
  updateDashboardCard: routeCall(endpoints.updateDashboardCard),
  /** DELETE /api/admin/dashboard-cards/:id */
  deleteDashboardCard: routeCall(endpoints.deleteDashboardCard),
  /** GET /api/admin/exports/ledger?from=&to=: the ledger of a period as a CSV file. */
  exportLedger: routeCall(endpoints.exportLedger, (request) => csvFile(endpoints.exportLedger, request.query)),
  /** GET /api/admin/exports/payments?from=&to=: payments, renewals and refunds of a period as a CSV file. */
  exportPayments: routeCall(endpoints.exportPayments, (request) => csvFile(endpoints.exportPayments, request.query)),
  /** GET /api/admin/promo-codes?q=&sort=&dir=&page=: with their uses. */
  promoCodes: routeCall(adminPromoEndpoints.promoCodes),
  /** GET /api/admin/promo-codes/:id: with its latest redemptions. */
  promoCode: routeCall(adminPromoEndpoints.promoCode),
  /** POST /api/admin/promo-codes */
  createPromoCode: routeCall(adminPromoEndpoints.createPromoCode),
  /** PUT /api/admin/promo-codes/:id: limits, period, audience, note, switched off. */
  updatePromoCode: routeCall(adminPromoEndpoints.updatePromoCode),
};

export type BillingApi = typeof billingApi;
