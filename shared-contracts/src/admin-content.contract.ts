/* The admin's plans and packages (Тарифы) and the dashboard's news cards (Стартовая панель): what the users' pages offer and show. */
import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { TimestampSchema, paginated } from './envelope.ts';
import { IdSchema } from './fields.ts';
import { adminListQuery } from './admin.contract.ts';
import { TariffSchema } from './billing.contract.ts';
import { DashboardCardSchema } from './dashboard.contract.ts';
import { DashboardCardInputSchema, TariffInputSchema } from './admin-inputs.ts';
import { adminBillingPaths } from './admin-billing.browser.ts';

const IdParams = z.object({ id: IdSchema });

export const TARIFF_SORTS = ['id', 'sort', 'name', 'amount', 'created_at'] as const;

/** A plan as staff see it: the public fields plus order, whether it is on sale, and when it changed. */
export const AdminTariffSchema = TariffSchema.extend({
  sort: z.number().int(),
  active: z.boolean(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type AdminTariff = z.infer<typeof AdminTariffSchema>;

export const DASHBOARD_CARD_SORTS = ['id', 'sort', 'name', 'created_at'] as const;

export const AdminDashboardCardSchema = DashboardCardSchema.extend({
  sort: z.number().int(),
  active: z.boolean(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type AdminDashboardCard = z.infer<typeof AdminDashboardCardSchema>;

const list = (what: string) => `${what}, 20 a page`;

export const adminContentRoutes = {
  tariffs: defineRoute({
    ...adminBillingPaths.tariffs,
    summary: list('Plans and packages, search by name, sort by id, sort, name, amount or created_at'),
    tags: ['admin'],
    query: adminListQuery(TARIFF_SORTS, 'sort'),
    response: paginated(AdminTariffSchema),
  }),
  tariff: defineRoute({ ...adminBillingPaths.tariff, summary: 'One plan', tags: ['admin'], params: IdParams, response: AdminTariffSchema }),
  createTariff: defineRoute({
    ...adminBillingPaths.createTariff,
    summary: 'Creates a plan or package; on sale at once when active; written to the audit log',
    tags: ['admin'],
    body: TariffInputSchema,
    response: AdminTariffSchema,
  }),
  updateTariff: defineRoute({
    ...adminBillingPaths.updateTariff,
    summary: 'Replaces a plan’s fields; GET /api/new/tariff shows the change at once; written to the audit log',
    tags: ['admin'],
    params: IdParams,
    body: TariffInputSchema,
    response: AdminTariffSchema,
  }),
  dashboardCards: defineRoute({
    ...adminBillingPaths.dashboardCards,
    summary: list('Dashboard news cards (shown and hidden), search by name or link'),
    tags: ['admin'],
    query: adminListQuery(DASHBOARD_CARD_SORTS, 'sort'),
    response: paginated(AdminDashboardCardSchema),
  }),
  dashboardCard: defineRoute({ ...adminBillingPaths.dashboardCard, summary: 'One dashboard card', tags: ['admin'], params: IdParams, response: AdminDashboardCardSchema }),
  createDashboardCard: defineRoute({
    ...adminBillingPaths.createDashboardCard,
    summary: 'Creates a dashboard card; written to the audit log',
    tags: ['admin'],
    body: DashboardCardInputSchema,
    response: AdminDashboardCardSchema,
  }),
  updateDashboardCard: defineRoute({
    ...adminBillingPaths.updateDashboardCard,
    summary: 'Replaces a dashboard card’s fields; written to the audit log',
    tags: ['admin'],
    params: IdParams,
    body: DashboardCardInputSchema,
    response: AdminDashboardCardSchema,
  }),
  deleteDashboardCard: defineRoute({
    ...adminBillingPaths.deleteDashboardCard,
    summary: 'Deletes a dashboard card; written to the audit log',
    tags: ['admin'],
    params: IdParams,
    response: z.object({ deleted: z.literal(true) }),
  }),
} as const;
