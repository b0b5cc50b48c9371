import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { IdSchema } from './fields.ts';
import { PRODUCT_VARIANTS, catalogPaths } from './catalog.browser.ts';

export * from './catalog.browser.ts';

/**
 * What a run costs, shown before it runs: media tokens (one decimal) for images and video,
 * words for text products. `up_to`: the most it may cost (text: charged by the tokens used).
 */
export const ProductPriceSchema = z.object({
  wallet: z.enum(['words', 'media']),
  amount: z.number(),
  up_to: z.boolean(),
});
export type ProductPrice = z.infer<typeof ProductPriceSchema>;

/** A product in the list. */
export const CatalogProductSchema = z.object({
  id: z.number().int(),
  category_id: z.number().int(),
  variant: z.enum(PRODUCT_VARIANTS),
  name: z.string(),
  description: z.string(),
  /** The product's example image (`/api/new/ai-products/{id}/example`, for any signed-in user), or null. */
  example_url: z.string().nullable(),
  model: z.string(),
  /** «Демо» for the offline demo provider. */
  provider: z.string(),
  /** With the first parameter choice. */
  price: ProductPriceSchema,
});
export type CatalogProduct = z.infer<typeof CatalogProductSchema>;

export const CatalogCategorySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  products: z.array(CatalogProductSchema),
});
export type CatalogCategory = z.infer<typeof CatalogCategorySchema>;

/** A field of a template product: its value replaces `{name}` in the prompt template. */
export const ProductFieldSchema = z.object({
  name: z.string(),
  label: z.string(),
  placeholder: z.string(),
  multiline: z.boolean(),
  required: z.boolean(),
  max_length: z.number().int(),
});
export type ProductField = z.infer<typeof ProductFieldSchema>;

/** One product with what its screen needs: its fields, parameter choices (each with its price) and inputs. */
export const ProductDetailSchema = CatalogProductSchema.extend({
  category: z.string(),
  fields: z.array(ProductFieldSchema),
  params: z.array(z.object({ value: z.string(), label: z.string(), price: ProductPriceSchema })),
  inputs: z.object({ prompt: z.boolean(), fields: z.boolean(), image: z.enum(['none', 'optional', 'required']), mask: z.boolean() }),
});
export type ProductDetail = z.infer<typeof ProductDetailSchema>;

export const CatalogQuerySchema = z.object({
  /** `video`: only video products (seed: /ai-products?type=video); `image`: images; `text`: text products. */
  type: z.enum(['video', 'image', 'text'], { error: 'Тип: video, image или text' }).optional(),
});

export const catalogRoutes = {
  products: defineRoute({
    ...catalogPaths.products,
    summary: 'Categories with their active products (?type=video for video products), each product with its price',
    tags: ['catalog'],
    query: CatalogQuerySchema,
    response: z.object({ categories: z.array(CatalogCategorySchema) }),
  }),
  product: defineRoute({
    ...catalogPaths.product,
    summary: 'One active product: its fields, parameter choices with their prices, and the inputs its screen asks for',
    tags: ['catalog'],
    params: z.object({ id: IdSchema }),
    response: ProductDetailSchema,
  }),
  example: defineRoute({
    ...catalogPaths.example,
    raw: true,
    summary: 'The example image of an active product, to any signed-in user (404 without one)',
    tags: ['catalog'],
    params: z.object({ id: IdSchema }),
    response: z.unknown().meta({ description: 'The image’s bytes (not JSON), with its Content-Type' }),
  }),
} as const;
