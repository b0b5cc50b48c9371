import type { CatalogCategory, CatalogProduct, ProductDetail, ProductPrice, ProductVariant } from '@app/contracts';
import { VARIANT_INPUTS } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { DEMO_LABEL } from '../../providers/demo/demo.provider.ts';
import { readModelSetting, type ModelParam } from '../ai/model-setting.ts';
import { inputTokensBound, wordsFor } from '../chat/chat-pricing.ts';
import { mediaToWire } from '../wallet/wallet.queries.ts';
import { findActiveProduct, listActiveProducts, type ProductRow } from './catalog.queries.ts';
import { readProductFields } from './product-fields.ts';

/** Products of each `?type=`. */
const TYPE_VARIANTS: Record<'video' | 'image' | 'text', readonly ProductVariant[]> = {
  video: ['video'],
  image: ['img', 'img_2', 'img_3', 'img_4', 'mask'],
  text: ['text_1'],
};

/** Images a parameter asks for (`provider.n`), 1–4. */
const imageCount = (param: ModelParam | undefined) => {
  const n = Number(param?.provider?.n ?? 1);
  return Number.isInteger(n) && n >= 1 && n <= 4 ? n : 1;
};

/** Seconds of video a parameter asks for (`provider.duration`), or null. */
const videoSeconds = (param: ModelParam | undefined) => {
  const seconds = Number(param?.provider?.duration);
  return Number.isFinite(seconds) && seconds > 0 && seconds <= 600 ? seconds : null;
};

/**
 * What a run of `product` with `param` costs, in the wallet's own units (words, or tenths of a
 * media token): a text product holds the most its answer may cost (the bound of the prompt sent —
 * `prompt`, the template with the user's fields, or the bare template for a price shown before
 * anything is typed — and the model's answer limit, at its rate per token); images cost the
 * model's price per image; video its price per second of the asked duration where it has one,
 * else per generation. Runs hold exactly this.
 */
export function runCost(
  product: Pick<ProductRow, 'variant' | 'prompt_template' | 'words_per_token' | 'max_output_tokens' | 'media_price_tenths' | 'media_per_second_tenths'>,
  param: ModelParam | undefined,
  prompt = product.prompt_template,
): { wallet: 'words' | 'media'; amount: number; upTo: boolean } {
  if (product.variant === 'text_1') {
    const maxOutput = Math.min(product.max_output_tokens, param?.max_output_tokens ?? Infinity);
    return { wallet: 'words', amount: wordsFor(inputTokensBound('openai', [{ role: 'user', text: prompt }]) + maxOutput, product.words_per_token), upTo: true };
  }
  if (product.variant === 'video') {
    const seconds = videoSeconds(param);
    const amount = seconds !== null && product.media_per_second_tenths > 0 ? Math.ceil(product.media_per_second_tenths * seconds) : product.media_price_tenths;
    return { wallet: 'media', amount, upTo: false };
  }
  return { wallet: 'media', amount: product.media_price_tenths * imageCount(param), upTo: false };
}

const priceOf = (cost: ReturnType<typeof runCost>): ProductPrice => ({ wallet: cost.wallet, amount: cost.wallet === 'media' ? mediaToWire(cost.amount) : cost.amount, up_to: cost.upTo });

/** The price the catalogue shows for a product: a run with its model's first parameter choice. */
export const catalogPrice = (row: Parameters<typeof runCost>[0] & Pick<ProductRow, 'setting'>): ProductPrice => priceOf(runCost(row, readModelSetting(row.setting).model.params[0]));

function toProduct(row: ProductRow): CatalogProduct {
  const [first] = readModelSetting(row.setting).model.params;
  return {
    id: row.id,
    category_id: row.category_id,
    variant: row.variant,
    name: row.name,
    description: row.description,
    example_url: row.example_file_id === null ? null : `/api/new/ai-products/${String(row.id)}/example`,
    model: row.model_name,
    provider: row.protocol === 'demo' ? DEMO_LABEL : row.connection_name,
    price: priceOf(runCost(row, first)),
  };
}

/** Categories with their active products, in order (only those of `type`); categories left empty are not listed. */
export async function catalog(ctx: AppContext, type: keyof typeof TYPE_VARIANTS | undefined): Promise<{ categories: CatalogCategory[] }> {
  const rows = await listActiveProducts(ctx.db, type ? TYPE_VARIANTS[type] : undefined);
  const categories = new Map<number, CatalogCategory>();
  for (const row of rows) {
    let category = categories.get(row.category_id);
    if (!category) {
      category = { id: row.category_id, name: row.category_name, description: row.category_description, products: [] };
      categories.set(row.category_id, category);
    }
    category.products.push(toProduct(row));
  }
  return { categories: [...categories.values()] };
}

/** One active product with its fields, parameter choices (each priced) and the inputs its screen asks for. */
export async function productDetail(ctx: AppContext, id: number): Promise<ProductDetail> {
  const row = await findActiveProduct(ctx.db, id);
  if (!row) throw new AppError('NOT_FOUND', 'Продукт не найден');
  const params = readModelSetting(row.setting).model.params;
  return {
    ...toProduct(row),
    category: row.category_name,
    fields: VARIANT_INPUTS[row.variant].fields ? readProductFields(row.fields) : [],
    params: params.map((p) => ({ value: p.value, label: p.label, price: priceOf(runCost(row, p)) })),
    inputs: VARIANT_INPUTS[row.variant],
  };
}
