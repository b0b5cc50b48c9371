import type { AdminAiCategory, AdminAiModel, AdminAiProduct, AdminProvider } from '@app/contracts/admin';
import type { RequestOf, ResponseOf, RouteContract } from '@app/contracts/browser';
import { ApiError, routeCall, type RouteCall } from '@app/kit';
import { aiApi } from './api.ts';
import { CATEGORIES, EXAMPLE_URL, MODELS, PRODUCTS, PROVIDERS } from './fixtures.ts';

type AiApi = typeof aiApi;
type RouteOf<C> = C extends RouteCall<infer R> ? R : never;
type Fetcher<R extends RouteContract> = (request: RequestOf<R>) => Promise<ResponseOf<R>>;

/** Calls a story or test answers its own way (loading, a failure, other data); the rest answer from the fixtures. */
export type FakeAiOptions = { [K in keyof AiApi]?: Fetcher<RouteOf<AiApi[K]>> };

const page = <T,>(rows: readonly T[]) => Promise.resolve({ data: [...rows], last_page: 1 });
const named = (q: unknown) => (row: { name: string }) => typeof q !== 'string' || row.name.toLowerCase().includes(q.toLowerCase());
const found = <T extends { id: number }>(rows: readonly T[], id: number, message: string): Promise<T> => {
  const row = rows.find((r) => r.id === id);
  return row ? Promise.resolve(row) : Promise.reject(new ApiError(404, 'NOT_FOUND', message));
};
/** A JSON body (the panel never sends forms to these routes). */
const json = <T extends object>(body: T | FormData): T => {
  if (body instanceof FormData) throw new Error('a JSON body was expected');
  return body;
};
const FIELD_DEFAULTS = { placeholder: '', multiline: false, required: true, max_length: 500 };
const stamp = { created_at: '2026-11-20T12:00:00.000Z', updated_at: '2026-11-20T12:00:00.000Z' };

/** The AI catalogue tabs answered from fixtures (stories; tests wrap them in mocks). */
export function fakeAiApi(options: FakeAiOptions = {}): AiApi {
  const fake = <K extends keyof AiApi>(key: K, fallback: Fetcher<RouteOf<AiApi[K]>>) => routeCall(aiApi[key].route as never, (options[key] ?? fallback) as never) as AiApi[K];
  const product = (id: number) => found(PRODUCTS, id, 'Продукт не найден');
  const category = (id: number) => found(CATEGORIES, id, 'Категория не найдена');
  const model = (id: number) => found(MODELS, id, 'Модель не найдена');
  const provider = (id: number) => found(PROVIDERS, id, 'Подключение не найдено');
  const withModel = (p: AdminAiProduct): AdminAiProduct => {
    const model = MODELS.find((m) => m.id === p.model_id);
    const category = CATEGORIES.find((c) => c.id === p.category_id);
    return { ...p, model: model?.name ?? p.model, model_kind: model?.kind ?? p.model_kind, category: category?.name ?? p.category };
  };
  const withConnection = (m: AdminAiModel): AdminAiModel => {
    const connection = PROVIDERS.find((c) => c.id === m.connection_id);
    return connection ? { ...m, connection: connection.name, protocol: connection.protocol } : m;
  };
  return {
    aiProducts: fake('aiProducts', ({ query }) => page(PRODUCTS.filter(named(query.q)).filter((p) => (!query.variant || p.variant === query.variant) && (!query.category_id || p.category_id === Number(query.category_id))))),
    aiProduct: fake('aiProduct', ({ params }) => product(Number(params.id))),
    createAiProduct: fake('createAiProduct', ({ body }) => {
      const sent = json(body);
      const created: AdminAiProduct = { ...(PRODUCTS[0] as AdminAiProduct), description: '', prompt_template: '', sort: 0, active: true, example_url: null, id: 100, ...stamp, ...sent, fields: (sent.fields ?? []).map((f) => ({ ...FIELD_DEFAULTS, ...f })) };
      return Promise.resolve(withModel(created));
    }),
    updateAiProduct: fake('updateAiProduct', async ({ params, body }) => {
      const sent = json(body);
      const before = await product(Number(params.id));
      return withModel({ ...before, ...sent, fields: sent.fields ? sent.fields.map((f) => ({ ...FIELD_DEFAULTS, ...f })) : before.fields });
    }),
    deleteAiProduct: fake('deleteAiProduct', () => Promise.resolve({ outcome: 'deleted' })),
    uploadAiExample: fake('uploadAiExample', async ({ params }) => ({ ...(await product(Number(params.id))), example_url: EXAMPLE_URL })),
    deleteAiExample: fake('deleteAiExample', async ({ params }) => ({ ...(await product(Number(params.id))), example_url: null })),
    aiCategories: fake('aiCategories', ({ query }) => page(CATEGORIES.filter(named(query.q)))),
    aiCategory: fake('aiCategory', ({ params }) => category(Number(params.id))),
    createAiCategory: fake('createAiCategory', ({ body }) => Promise.resolve<AdminAiCategory>({ id: 100, description: '', sort: 0, active: true, products: 0, ...stamp, ...json(body) })),
    updateAiCategory: fake('updateAiCategory', async ({ params, body }) => ({ ...(await category(Number(params.id))), ...json(body) })),
    deleteAiCategory: fake('deleteAiCategory', () => Promise.resolve({ outcome: 'deleted' })),
    aiModels: fake('aiModels', ({ query }) => page(MODELS.filter(named(query.q)).filter((m) => (!query.kind || m.kind === query.kind) && (!query.connection_id || m.connection_id === Number(query.connection_id))))),
    aiModel: fake('aiModel', ({ params }) => model(Number(params.id))),
    createAiModel: fake('createAiModel', ({ body }) => Promise.resolve(withConnection({ ...(MODELS[0] as AdminAiModel), description: '', sort: 0, active: true, id: 100, products: 0, ...stamp, ...json(body) }))),
    updateAiModel: fake('updateAiModel', async ({ params, body }) => withConnection({ ...(await model(Number(params.id))), ...json(body) })),
    deleteAiModel: fake('deleteAiModel', () => Promise.resolve({ outcome: 'deleted' })),
    providers: fake('providers', ({ query }) => page(PROVIDERS.filter(named(query.q)))),
    provider: fake('provider', ({ params }) => provider(Number(params.id))),
    createProvider: fake('createProvider', ({ body }) => Promise.resolve<AdminProvider>({ id: 100, base_url: null, api_key_env: null, key_set: false, timeout_seconds: 60, active: true, models: 0, ...stamp, ...json(body) })),
    updateProvider: fake('updateProvider', async ({ params, body }) => ({ ...(await provider(Number(params.id))), ...json(body) })),
    deleteProvider: fake('deleteProvider', () => Promise.resolve({ outcome: 'deleted' })),
    testProvider: fake('testProvider', () => Promise.resolve({ ok: true, latency_ms: 42, model: 'demo', answer: 'Связь есть: демо-провайдер отвечает.', error: null })),
  };
}

