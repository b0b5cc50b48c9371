import { accountEndpoints, billingEndpoints, type SubscribeCheck, type User } from '@app/contracts/browser';
import { catalogEndpoints, generationEndpoints, type CatalogCategory, type Generation, type ProductDetail, type ProductVariant } from '@app/contracts/generation';
import { ApiError, routeCall } from '@app/kit';
import { pending } from '@app/kit/stories';
import type { ProductsApi, RunEventsFn } from './api.ts';
import { CATEGORIES, PLAN_CHECK, USER, detail } from './fixtures.ts';

export interface FakeApiOptions {
  categories?: CatalogCategory[] | (() => Promise<{ categories: CatalogCategory[] }>);
  product?: (id: number) => Promise<ProductDetail>;
  user?: User;
  /** The user's plan (`GET /api/new/subscribe/check`): on a plan by default. */
  check?: SubscribeCheck;
  start?: () => Promise<Generation>;
  events?: RunEventsFn;
  status?: () => Promise<Generation>;
  cancel?: () => Promise<Generation>;
}

const VARIANT_BY_ID: Record<number, ProductVariant> = { 1: 'img', 2: 'img_2', 3: 'img_3', 4: 'img_4', 5: 'mask', 6: 'video', 7: 'text_1' };

/** The product with this fixture id, or the server's 404. */
export function productById(id: number): Promise<ProductDetail> {
  const variant = VARIANT_BY_ID[id];
  return variant ? Promise.resolve(detail(variant)) : Promise.reject(new ApiError(404, 'NOT_FOUND', 'Продукт не найден'));
}

/** The widget's calls answered from fixtures (stories; tests wrap these in mocks). */
export function fakeProductsApi(options: FakeApiOptions = {}): ProductsApi {
  const { categories = CATEGORIES } = options;
  return {
    products: routeCall(catalogEndpoints.products, (request) =>
      typeof categories === 'function'
        ? categories()
        : Promise.resolve({
            categories: categories.map((c) => ({
              ...c,
              products: c.products.filter((p) => {
                const type = request.query.type;
                if (!type) return true;
                return type === 'video' ? p.variant === 'video' : type === 'text' ? p.variant === 'text_1' : p.variant !== 'video' && p.variant !== 'text_1';
              }),
            })),
          }),
    ),
    product: routeCall(catalogEndpoints.product, (request) => (options.product ?? productById)(Number(request.params.id))),
    start: routeCall(generationEndpoints.start, () => (options.start ? options.start() : pending())),
    status: routeCall(generationEndpoints.status, () => (options.status ? options.status() : pending())),
    cancel: routeCall(generationEndpoints.cancel, () => (options.cancel ? options.cancel() : pending())),
    user: routeCall(accountEndpoints.user, () => Promise.resolve(options.user ?? USER)),
    check: routeCall(billingEndpoints.subscribeCheck, () => Promise.resolve(options.check ?? PLAN_CHECK)),
    events: options.events ?? (() => pending()),
  };
}

