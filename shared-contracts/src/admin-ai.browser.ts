import type { ProductVariant } from './catalog.browser.ts';
import type { Endpoint, MultipartSpec } from './route.ts';

/* What of the admin's AI catalogue contract (tabs 2–4 and 14) the browser needs: endpoints, rules the editors share with the server, texts. */

/** The model kinds of the one model table (PRODUCT.md). */
export const MODEL_KINDS = ['chat', 'text', 'image', 'video'] as const;
export type ModelKindName = (typeof MODEL_KINDS)[number];

/** The most of a chat's latest messages sent to a chat model with a new one (the service's window; staff may set fewer per model). */
export const HISTORY_MAX_MESSAGES = 20;

/** The kinds as the panel names them. */
export const MODEL_KIND_LABELS: Record<ModelKindName, string> = { chat: 'чат', text: 'текст', image: 'изображения', video: 'видео' };

/** The protocols provider connections speak (the registry's adapters). */
export const PROVIDER_PROTOCOLS = ['openai', 'replicate', 'demo'] as const;
export type ProviderProtocolName = (typeof PROVIDER_PROTOCOLS)[number];

/** The kind of model each product variant runs on: text products on text models, video on video, the rest on image models. */
export const VARIANT_MODEL_KIND: Record<ProductVariant, Exclude<ModelKindName, 'chat'>> = {
  img: 'image',
  img_2: 'image',
  img_3: 'image',
  img_4: 'image',
  mask: 'image',
  text_1: 'text',
  video: 'video',
};

/**
 * The protocols that can run each kind: Replicate's protocol has no chat, the OpenAI protocol
 * no predictions (OpenAI's own video API is gone); the demo runs everything.
 */
export const KIND_PROTOCOLS: Record<ModelKindName, readonly ProviderProtocolName[]> = {
  chat: ['openai', 'demo'],
  text: ['openai', 'demo'],
  image: ['openai', 'replicate', 'demo'],
  video: ['replicate', 'demo'],
};

/**
 * The environment variables a connection may take its key from: names ending in `_API_KEY` or
 * `_API_TOKEN` (the server reads only those; the database URL or the app secret never qualify).
 */
export const PROVIDER_KEY_ENV = /^[A-Z][A-Z0-9_]*_(API_KEY|API_TOKEN)$/;

/** Largest example image of a product, in bytes. */
export const PRODUCT_EXAMPLE_MAX_BYTES = 10 * 1024 * 1024;

/** A product's example image: one PNG, JPEG or WebP (by content) in `image`. */
export const PRODUCT_EXAMPLE_UPLOAD = {
  files: { image: { accept: ['png', 'jpeg', 'webp'], maxBytes: PRODUCT_EXAMPLE_MAX_BYTES, required: true } },
  maxFiles: 1,
  maxTotalBytes: PRODUCT_EXAMPLE_MAX_BYTES,
} as const satisfies MultipartSpec;

export const adminAiPaths = {
  products: { method: 'GET', path: '/api/admin/ai-products', access: 'admin' },
  product: { method: 'GET', path: '/api/admin/ai-products/:id', access: 'admin' },
  createProduct: { method: 'POST', path: '/api/admin/ai-products', access: 'admin' },
  updateProduct: { method: 'PATCH', path: '/api/admin/ai-products/:id', access: 'admin' },
  deleteProduct: { method: 'DELETE', path: '/api/admin/ai-products/:id', access: 'admin' },
  uploadExample: { method: 'POST', path: '/api/admin/ai-products/:id/example', access: 'admin', multipart: PRODUCT_EXAMPLE_UPLOAD },
  deleteExample: { method: 'DELETE', path: '/api/admin/ai-products/:id/example', access: 'admin' },
  categories: { method: 'GET', path: '/api/admin/ai-categories', access: 'admin' },
  category: { method: 'GET', path: '/api/admin/ai-categories/:id', access: 'admin' },
  createCategory: { method: 'POST', path: '/api/admin/ai-categories', access: 'admin' },
  updateCategory: { method: 'PATCH', path: '/api/admin/ai-categories/:id', access: 'admin' },
  deleteCategory: { method: 'DELETE', path: '/api/admin/ai-categories/:id', access: 'admin' },
  models: { method: 'GET', path: '/api/admin/ai-models', access: 'admin' },
  model: { method: 'GET', path: '/api/admin/ai-models/:id', access: 'admin' },
  createModel: { method: 'POST', path: '/api/admin/ai-models', access: 'admin' },
  updateModel: { method: 'PATCH', path: '/api/admin/ai-models/:id', access: 'admin' },
  deleteModel: { method: 'DELETE', path: '/api/admin/ai-models/:id', access: 'admin' },
  providers: { method: 'GET', path: '/api/admin/providers', access: 'admin' },
  provider: { method: 'GET', path: '/api/admin/providers/:id', access: 'admin' },
  createProvider: { method: 'POST', path: '/api/admin/providers', access: 'admin' },
  updateProvider: { method: 'PATCH', path: '/api/admin/providers/:id', access: 'admin' },
  deleteProvider: { method: 'DELETE', path: '/api/admin/providers/:id', access: 'admin' },
  testProvider: { method: 'POST', path: '/api/admin/providers/:id/test', access: 'admin' },
} as const satisfies Record<string, Endpoint>;

export const ADMIN_AI_TEXTS = {
  productNotFound: 'Продукт не найден',
  categoryNotFound: 'Категория не найдена',
  modelNotFound: 'Модель не найдена',
  providerNotFound: 'Подключение не найдено',
  deleted: 'Удалено',
  /** A product or model that runs or chats already refer to is switched off instead: the history keeps it. */
  deactivated: 'По записи уже есть генерации или чаты: она отключена, история сохранена',
} as const;
