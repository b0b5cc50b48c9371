export { z } from './zod-ru.ts';
export * from './errors.ts';
export * from './envelope.ts';
export * from './route.ts';
export * from './fields.ts';
export * from './accounts.contract.ts';
export * from './billing.contract.ts';
export * from './test-cards.ts';
export * from './balance.contract.ts';
export * from './dashboard.contract.ts';
export * from './chat.contract.ts';
export * from './catalog.contract.ts';
export * from './generation.contract.ts';
export * from './files.contract.ts';
export * from './admin.contract.ts';
export * from './admin.browser.ts';
export * from './admin-ai.contract.ts';
export * from './admin-ai.browser.ts';
export * from './admin-billing.contract.ts';
export * from './admin-inputs.ts';
export * from './admin-ai-inputs.ts';
export * from './promo.contract.ts';
export * from './admin-promo.contract.ts';
export * from './cloudpayments.protocol.ts';
export * from './widgets.contract.ts';
export * from './manifest.contract.ts';
export * from './privacy.contract.ts';

import { accountRoutes } from './accounts.contract.ts';
import { billingRoutes } from './billing.contract.ts';
import { balanceRoutes } from './balance.contract.ts';
import { dashboardRoutes } from './dashboard.contract.ts';
import { chatRoutes } from './chat.contract.ts';
import { catalogRoutes } from './catalog.contract.ts';
import { generationRoutes } from './generation.contract.ts';
import { fileRoutes } from './files.contract.ts';
import { adminRoutes } from './admin.contract.ts';
import { adminAiRoutes } from './admin-ai.contract.ts';
import { adminBillingRoutes } from './admin-billing.contract.ts';
import { privacyRoutes } from './privacy.contract.ts';
import { promoRoutes } from './promo.contract.ts';
import { adminPromoRoutes } from './admin-promo.contract.ts';

/** Every call of the API, by feature. */
export const routes = {
  accounts: accountRoutes,
  billing: billingRoutes,
  balance: balanceRoutes,
  dashboard: dashboardRoutes,
  chat: chatRoutes,
  catalog: catalogRoutes,
  generations: generationRoutes,
  files: fileRoutes,
  admin: adminRoutes,
  adminAi: adminAiRoutes,
  adminBilling: adminBillingRoutes,
  privacy: privacyRoutes,
  promo: promoRoutes,
  adminPromo: adminPromoRoutes,
} as const;
