import type { Endpoint } from './route.ts';

/* What of the catalogue contract the browser needs: variants, endpoints and texts. */

/**
 * A product's variant picks its screen (PRODUCT.md): `img` text to image; `img_2` from the
 * user's example image; `img_3` a template whose fields the user fills in; `img_4` the product's
 * example image as a style applied to the user's photo; `mask` inpainting; `text_1` a text
 * product; `video` text or image to video.
 */
export const PRODUCT_VARIANTS = ['img', 'img_2', 'img_3', 'img_4', 'mask', 'text_1', 'video'] as const;
export type ProductVariant = (typeof PRODUCT_VARIANTS)[number];

/** What each variant's screen asks of the user. */
export const VARIANT_INPUTS: Record<ProductVariant, { prompt: boolean; fields: boolean; image: 'none' | 'optional' | 'required'; mask: boolean }> = {
  img: { prompt: true, fields: false, image: 'none', mask: false },
  img_2: { prompt: true, fields: false, image: 'required', mask: false },
  img_3: { prompt: false, fields: true, image: 'none', mask: false },
  img_4: { prompt: false, fields: false, image: 'required', mask: false },
  mask: { prompt: true, fields: false, image: 'required', mask: true },
  text_1: { prompt: false, fields: true, image: 'none', mask: false },
  video: { prompt: true, fields: false, image: 'optional', mask: false },
};

export const catalogPaths = {
  products: { method: 'GET', path: '/api/new/ai-products', access: 'user' },
  product: { method: 'GET', path: '/api/new/ai-products/:id', access: 'user' },
  example: { method: 'GET', path: '/api/new/ai-products/:id/example', access: 'user' },
} as const satisfies Record<string, Endpoint>;

export const CATALOG_TEXTS = {
  productNotFound: 'Продукт не найден',
} as const;
