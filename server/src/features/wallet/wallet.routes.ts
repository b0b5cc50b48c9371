import type { FastifyInstance } from 'fastify';
import { balanceRoutes } from '@app/contracts';
import { mountRoute } from '../../lib/routes.ts';
import { balanceHistory } from './balance-history.service.ts';

export default async function walletRoutesPlugin(app: FastifyInstance): Promise<void> {
  mountRoute(app, balanceRoutes.history, ({ viewer, query }) => balanceHistory(app.ctx, viewer.id, query.page));
}
