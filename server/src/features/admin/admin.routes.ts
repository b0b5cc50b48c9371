import type { FastifyInstance } from 'fastify';
import { adminRoutes } from '@app/contracts';
import { mountRoute } from '../../lib/routes.ts';
import { listJobFailures } from '../../jobs/jobs.queries.ts';
import { adjustBalance, adminUser, adminUsers, updateUser } from './admin-users.service.ts';
import { auditNames, listAudit } from './audit.queries.ts';
import { lastPage } from './admin-list.ts';

const PAGE_SIZE = 20;

/** Admin calls (`/api/admin/*`); the admin panel builds on these. */
export default async function adminRoutesPlugin(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  mountRoute(app, adminRoutes.jobFailures, async ({ query }) => {
    const { rows, total } = await listJobFailures(ctx.db, { offset: (query.page - 1) * PAGE_SIZE, limit: PAGE_SIZE, unresolvedOnly: query.unresolved === '1' });
    return {
      data: rows.map((r) => ({ ...r, failed_at: r.failed_at.toISOString(), resolved_at: r.resolved_at?.toISOString() ?? null })),
      last_page: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    };
  });
  mountRoute(app, adminRoutes.users, ({ query }) => adminUsers(ctx, query));
  mountRoute(app, adminRoutes.user, ({ params }) => adminUser(ctx.db, params.id));
  mountRoute(app, adminRoutes.updateUser, ({ viewer, params, body }) => updateUser(ctx, viewer, params.id, body));
  mountRoute(app, adminRoutes.adjustBalance, ({ viewer, params, body }) => adjustBalance(ctx, viewer, params.id, body));
  mountRoute(app, adminRoutes.audit, async ({ query }) => {
    const { rows, total } = await listAudit(ctx.db, query);
    const names = await auditNames(ctx.db, rows);
    return { data: rows.map((r, i) => ({ ...r, created_at: r.created_at.toISOString(), names: names[i] ?? {} })), last_page: lastPage(total) };
  });
}
