import type { Endpoint } from './route.ts';

/* What of the admin's billing, content, activity, analytics and settings contract the browser needs: endpoints and constants. */

export const adminBillingPaths = {
  tariffs: { method: 'GET', path: '/api/admin/tariffs', access: 'admin' },
  tariff: { method: 'GET', path: '/api/admin/tariffs/:id', access: 'admin' },
  createTariff: { method: 'POST', path: '/api/admin/tariffs', access: 'admin' },
  updateTariff: { method: 'PUT', path: '/api/admin/tariffs/:id', access: 'admin' },
  subscriptions: { method: 'GET', path: '/api/admin/subscriptions', access: 'admin' },
  subscription: { method: 'GET', path: '/api/admin/subscriptions/:id', access: 'admin' },
  payments: { method: 'GET', path: '/api/admin/payments', access: 'admin' },
  payment: { method: 'GET', path: '/api/admin/payments/:id', access: 'admin' },
  refundPayment: { method: 'POST', path: '/api/admin/payments/:id/refund', access: 'admin' },
  subscriptionLog: { method: 'GET', path: '/api/admin/subscription-log', access: 'admin' },
  dashboardCards: { method: 'GET', path: '/api/admin/dashboard-cards', access: 'admin' },
  dashboardCard: { method: 'GET', path: '/api/admin/dashboard-cards/:id', access: 'admin' },
  createDashboardCard: { method: 'POST', path: '/api/admin/dashboard-cards', access: 'admin' },
  updateDashboardCard: { method: 'PUT', path: '/api/admin/dashboard-cards/:id', access: 'admin' },
  deleteDashboardCard: { method: 'DELETE', path: '/api/admin/dashboard-cards/:id', access: 'admin' },
  generations: { method: 'GET', path: '/api/admin/generations', access: 'admin' },
  chats: { method: 'GET', path: '/api/admin/chats', access: 'admin' },
  chat: { method: 'GET', path: '/api/admin/chats/:id', access: 'admin' },
  analytics: { method: 'GET', path: '/api/admin/analytics', access: 'admin' },
  settings: { method: 'GET', path: '/api/admin/settings', access: 'admin' },
  updateSettings: { method: 'PUT', path: '/api/admin/settings', access: 'admin' },
  exportLedger: { method: 'GET', path: '/api/admin/exports/ledger', access: 'admin' },
  exportPayments: { method: 'GET', path: '/api/admin/exports/payments', access: 'admin' },
} as const satisfies Record<string, Endpoint>;

/** Subscription statuses (see the billing tables): pending → active → past_due/cancelled → expired, or replaced. */
export const SUBSCRIPTION_STATUSES = ['pending', 'active', 'past_due', 'cancelled', 'expired', 'replaced'] as const;

/** Invoice statuses: a partly refunded payment stays `paid` (its refunded amount says how much went back). */
export const INVOICE_STATUSES = ['pending', 'paid', 'failed', 'refunded'] as const;

/** A refund an admin asked for: `requested` until CloudPayments reports it (`done`), or `failed` when the provider refused it for good. */
export const REFUND_STATUSES = ['requested', 'done', 'failed'] as const;

/** Why the service asked for a refund itself: a second charge of a paid invoice. */
export const REFUND_CAUSES = ['duplicate_payment'] as const;

export const GENERATION_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;

/** The longest period the analytics answer for, in days (a leap year). */
export const ANALYTICS_MAX_DAYS = 366;

/** Days of the analytics are calendar days here (the service's customers and accounts are Russian). */
export const ANALYTICS_TIME_ZONE = 'Europe/Moscow';

/** The columns the lists of every user's runs and chats sort by. */
export const GENERATION_SORTS = ['id', 'created_at', 'cost'] as const;
export const CHAT_SORTS = ['id', 'created_at', 'updated_at'] as const;
