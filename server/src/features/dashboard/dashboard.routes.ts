import type { FastifyInstance } from 'fastify';
import { dashboardRoutes } from '@app/contracts';
import { mountRoute } from '../../lib/routes.ts';
import { listActiveCards } from './dashboard.queries.ts';

export default async function dashboardRoutesPlugin(app: FastifyInstance): Promise<void> {
  mountRoute(app, dashboardRoutes.cards, () => listActiveCards(app.ctx.db));
}
