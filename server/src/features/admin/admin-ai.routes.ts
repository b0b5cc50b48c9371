import type { FastifyInstance } from 'fastify';
import { adminAiRoutes } from '@app/contracts';
import { AppError } from '../../lib/app-error.ts';
import { mountRoute } from '../../lib/routes.ts';
import {
  adminCategories,
  adminCategory,
  adminProduct,
  adminProducts,
  createCategory,
  createProduct,
  deleteCategory,
  deleteProduct,
  deleteProductExample,
  setProductExample,
  updateCategory,
  updateProduct,
} from './admin-ai.service.ts';
import {
  adminModel,
  adminModels,
  adminProvider,
  adminProviders,
  createModel,
  createProvider,
  deleteModel,
  deleteProvider,
  updateModel,
  updateProvider,
} from './admin-ai-models.service.ts';
import { testProvider } from './provider-test.ts';

/** The admin's AI catalogue (tabs 2–4 and 14): products, categories, models, provider connections. */
export default async function adminAiRoutesPlugin(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  const r = adminAiRoutes;

  mountRoute(app, r.products, ({ query }) => adminProducts(ctx, query));
  mountRoute(app, r.product, ({ params }) => adminProduct(ctx.db, params.id));
  mountRoute(app, r.createProduct, ({ viewer, body }) => createProduct(ctx, viewer, body));
  mountRoute(app, r.updateProduct, ({ viewer, params, body }) => updateProduct(ctx, viewer, params.id, body));
  mountRoute(app, r.deleteProduct, ({ viewer, params }) => deleteProduct(ctx, viewer, params.id));
  mountRoute(app, r.uploadExample, ({ viewer, params, files }) => {
    const image = files.image?.[0];
    if (!image) throw new AppError('VALIDATION', { image: ['Прикрепите файл'] });
    return setProductExample(ctx, viewer, params.id, image);
  });
  mountRoute(app, r.deleteExample, ({ viewer, params }) => deleteProductExample(ctx, viewer, params.id));

  mountRoute(app, r.categories, ({ query }) => adminCategories(ctx, query));
  mountRoute(app, r.category, ({ params }) => adminCategory(ctx.db, params.id));
  mountRoute(app, r.createCategory, ({ viewer, body }) => createCategory(ctx, viewer, body));
  mountRoute(app, r.updateCategory, ({ viewer, params, body }) => updateCategory(ctx, viewer, params.id, body));
  mountRoute(app, r.deleteCategory, ({ viewer, params }) => deleteCategory(ctx, viewer, params.id));

  mountRoute(app, r.models, ({ query }) => adminModels(ctx, query));
  mountRoute(app, r.model, ({ params }) => adminModel(ctx.db, params.id));
  mountRoute(app, r.createModel, ({ viewer, body }) => createModel(ctx, viewer, body));
  mountRoute(app, r.updateModel, ({ viewer, params, body }) => updateModel(ctx, viewer, params.id, body));
  mountRoute(app, r.deleteModel, ({ viewer, params }) => deleteModel(ctx, viewer, params.id));

  mountRoute(app, r.providers, ({ query }) => adminProviders(ctx, query));
  mountRoute(app, r.provider, ({ params }) => adminProvider(ctx, ctx.db, params.id));
  mountRoute(app, r.createProvider, ({ viewer, body }) => createProvider(ctx, viewer, body));
  mountRoute(app, r.updateProvider, ({ viewer, params, body }) => updateProvider(ctx, viewer, params.id, body));
  mountRoute(app, r.deleteProvider, ({ viewer, params }) => deleteProvider(ctx, viewer, params.id));
  mountRoute(app, r.testProvider, ({ params, body }) => testProvider(ctx, params.id, body));
}
