import type { FastifyInstance } from 'fastify';
import { dashboardRoutes } from '@app/contracts';
import { mountRoute } from '../../lib/routes.ts';

export default async function dashboardRoutesPlugin(app: FastifyInstance): Promise<void> {
  mountRoute(app, dashboardRoutes.cards, async () =>
    app.db.selectFrom('dashboard_cards').select(['id', 'link', 'icon', 'name', 'description']).where('active', '=', true).orderBy('sort').orderBy('id').execute(),
  );
}
