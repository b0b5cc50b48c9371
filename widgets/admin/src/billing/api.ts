import { adminBillingEndpoints as endpoints } from '@app/contracts/admin';
import { routeCall } from '@app/kit';

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
};

export type BillingApi = typeof billingApi;
