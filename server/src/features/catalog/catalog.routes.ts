import type { FastifyInstance } from 'fastify';
import { catalogRoutes } from '@app/contracts';
import { mountRoute } from '../../lib/routes.ts';
import { catalog, productDetail } from './catalog.service.ts';
import { findActiveProduct } from './catalog.queries.ts';
import { findFileById } from '../files/files.queries.ts';
import { serveFile } from '../files/files.routes.ts';
import { AppError } from '../../lib/app-error.ts';

export default async function catalogRoutesPlugin(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  mountRoute(app, catalogRoutes.products, ({ query }) => catalog(ctx, query.type));
  mountRoute(app, catalogRoutes.product, ({ params }) => productDetail(ctx, params.id));
  // Examples are the service's own files: any signed-in user sees them, and browsers may keep them a day.
  mountRoute(app, catalogRoutes.example, async ({ req, reply, params }) => {
    const product = await findActiveProduct(ctx.db, params.id);
    const file = product?.example_file_id ? await findFileById(ctx.db, product.example_file_id) : undefined;
    if (!file) throw new AppError('NOT_FOUND', 'У продукта нет примера');
    return serveFile(ctx.storage, req, reply, file, { cacheControl: 'private, max-age=86400' });
  });
}
