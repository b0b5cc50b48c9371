import { adminAiEndpoints } from '@app/contracts/admin';
import { routeCall } from '@app/kit';

/** The calls of the AI catalogue tabs: 2 «Аи продукты», 3 «Аи категории продуктов», 4 «Аи модели», 14 «Провайдеры». */
export const aiApi = {
  /** GET /api/admin/ai-products?q=&sort=&dir=&page=&category_id=&variant= */
  aiProducts: routeCall(adminAiEndpoints.products),
  /** GET /api/admin/ai-products/:id */
  aiProduct: routeCall(adminAiEndpoints.product),
  /** POST /api/admin/ai-products */
  createAiProduct: routeCall(adminAiEndpoints.createProduct),
  /** PATCH /api/admin/ai-products/:id (only the fields that changed) */
  updateAiProduct: routeCall(adminAiEndpoints.updateProduct),
  /** DELETE /api/admin/ai-products/:id: deleted, or switched off when runs refer to it. */
  deleteAiProduct: routeCall(adminAiEndpoints.deleteProduct),
  /** POST /api/admin/ai-products/:id/example (multipart `image`) */
  uploadAiExample: routeCall(adminAiEndpoints.uploadExample),
  /** DELETE /api/admin/ai-products/:id/example */
  deleteAiExample: routeCall(adminAiEndpoints.deleteExample),
  /** GET /api/admin/ai-categories?q=&sort=&dir=&page= */
  aiCategories: routeCall(adminAiEndpoints.categories),
  /** GET /api/admin/ai-categories/:id */
  aiCategory: routeCall(adminAiEndpoints.category),
  /** POST /api/admin/ai-categories */
  createAiCategory: routeCall(adminAiEndpoints.createCategory),
  /** PATCH /api/admin/ai-categories/:id */
  updateAiCategory: routeCall(adminAiEndpoints.updateCategory),
  /** DELETE /api/admin/ai-categories/:id: 409 IN_USE while it has products. */
  deleteAiCategory: routeCall(adminAiEndpoints.deleteCategory),
  /** GET /api/admin/ai-models?q=&sort=&dir=&page=&kind=&connection_id= */
  aiModels: routeCall(adminAiEndpoints.models),
  /** GET /api/admin/ai-models/:id */
  aiModel: routeCall(adminAiEndpoints.model),
  /** POST /api/admin/ai-models */
  createAiModel: routeCall(adminAiEndpoints.createModel),
  /** PATCH /api/admin/ai-models/:id */
  updateAiModel: routeCall(adminAiEndpoints.updateModel),
  /** DELETE /api/admin/ai-models/:id: 409 IN_USE while products run on it; switched off when runs or chats refer to it. */
  deleteAiModel: routeCall(adminAiEndpoints.deleteModel),
  /** GET /api/admin/providers?q=&sort=&dir=&page= */
  providers: routeCall(adminAiEndpoints.providers),
  /** GET /api/admin/providers/:id */
  provider: routeCall(adminAiEndpoints.provider),
  /** POST /api/admin/providers */
  createProvider: routeCall(adminAiEndpoints.createProvider),
  /** PATCH /api/admin/providers/:id */
  updateProvider: routeCall(adminAiEndpoints.updateProvider),
  /** DELETE /api/admin/providers/:id: 409 IN_USE while models are on it. */
  deleteProvider: routeCall(adminAiEndpoints.deleteProvider),
  /** POST /api/admin/providers/:id/test {model?}: latency, model, answer or error. */
  testProvider: routeCall(adminAiEndpoints.testProvider),
};
