import type { FastifyInstance } from 'fastify';
import { catalogRoutes } from '@app/contracts';
import { mountRoute } from '../../lib/routes.ts';
import { catalog, productDetail } from './catalog.service.ts';

export default async function catalogRoutesPlugin(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  mountRoute(app, catalogRoutes.products, ({ query }) => catalog(ctx, query.type));
  mountRoute(app, catalogRoutes.product, ({ params }) => productDetail(ctx, params.id));
}
