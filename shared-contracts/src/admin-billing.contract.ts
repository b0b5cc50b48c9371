import { adminContentRoutes } from './admin-content.contract.ts';
import { adminPaymentRoutes } from './admin-payments.contract.ts';
import { adminActivityRoutes } from './admin-activity.contract.ts';
import { adminReportRoutes } from './admin-reports.contract.ts';
import { adminSettingsRoutes } from './admin-settings.contract.ts';

export * from './admin-billing.browser.ts';
export * from './admin-content.contract.ts';
export * from './admin-payments.contract.ts';
export * from './admin-activity.contract.ts';
export * from './admin-reports.contract.ts';
export * from './admin-settings.contract.ts';

const content = adminContentRoutes;
const payments = adminPaymentRoutes;
const activity = adminActivityRoutes;
const reports = adminReportRoutes;

/**
 * The admin's billing, content, activity, analytics and settings tabs (5, 7–13, 16), one object
 * of routes over their areas (plans and dashboard cards, subscriptions and payments with refunds,
 * every user's runs and chats, analytics and exports, settings), in the order of the API's
 * documentation.
 */
export const adminBillingRoutes = {
  tariffs: content.tariffs,
  tariff: content.tariff,
  createTariff: content.createTariff,
  updateTariff: content.updateTariff,
  ...payments,
  dashboardCards: content.dashboardCards,
  dashboardCard: content.dashboardCard,
  createDashboardCard: content.createDashboardCard,
  updateDashboardCard: content.updateDashboardCard,
  deleteDashboardCard: content.deleteDashboardCard,
  ...activity,
  analytics: reports.analytics,
  ...adminSettingsRoutes,
  exportLedger: reports.exportLedger,
  exportPayments: reports.exportPayments,
} as const;
