/**
 * The admin panel's contracts as the browser gets them (`@app/contracts/admin`): its endpoints
 * typed by their contracts, page size and sort columns, and the zod/mini schemas of every body
 * it sends. Bundled into the admin widget, the one widget that uses it (a host module would add
 * its loader entry to every page's boot chunk), with its own copy of zod/mini's core.
 */
import type { adminRoutes } from './admin.contract.ts';
import type { adminAiRoutes } from './admin-ai.contract.ts';
import type { adminBillingRoutes } from './admin-billing.contract.ts';
import type { adminPromoRoutes } from './admin-promo.contract.ts';
import { adminPromoPaths } from './admin-promo.browser.ts';
import { adminPaths } from './admin.browser.ts';
import { adminAiPaths } from './admin-ai.browser.ts';
import { adminBillingPaths } from './admin-billing.browser.ts';
import type { ClientRoutes } from './route.ts';

export * from './admin.browser.ts';
export * from './admin-ai.browser.ts';
export * from './admin-billing.browser.ts';
export * from './admin-promo.browser.ts';
export type { AdminPromoCode, AdminPromoCodeDetail, AdminPromoRedemption } from './admin-promo.contract.ts';
// The bodies of every change, checked in the editors with the server's own schemas.
export * from './admin-inputs.ts';
export * from './admin-ai-inputs.ts';
export type { AdminUser, AdminUserDetail, AuditEntry, JobFailure } from './admin.contract.ts';
// Types of the AI catalogue tabs (2–4, 14).
export type { AdminAiCategory, AdminAiModel, AdminAiProduct, AdminDeleteResult, AdminProvider, ProviderTestResult } from './admin-ai.contract.ts';
// Types of the billing tabs (5, 7–10).
export type { AdminDashboardCard, AdminPayment, AdminPaymentDetail, AdminRefund, AdminSubscription, AdminSubscriptionDetail, AdminTariff, SubscriptionLogEntry } from './admin-billing.contract.ts';
// Types of the activity and settings tabs (11–13, 16).
export type { AdminChat, AdminChatDetail, AdminGeneration, AdminSettings, Analytics, AnalyticsDay } from './admin-billing.contract.ts';

/** Users, the audit log, job failures. */
export const adminEndpoints: ClientRoutes<typeof adminRoutes> = adminPaths;
/** AI products, categories, models, provider connections. */
export const adminAiEndpoints: ClientRoutes<typeof adminAiRoutes> = adminAiPaths;
/** Plans, subscriptions, payments, the subscription log, dashboard cards, runs, chats, analytics, settings. */
export const adminBillingEndpoints: ClientRoutes<typeof adminBillingRoutes> = adminBillingPaths;
/** Promo codes (a section of «Тарифы»). */
export const adminPromoEndpoints: ClientRoutes<typeof adminPromoRoutes> = adminPromoPaths;
