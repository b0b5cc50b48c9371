import type { Executor } from '../../db/database.ts';
import type { ProductVariant } from '@app/contracts';

const productColumns = [
  'p.id',
  'p.category_id',
  'p.variant',
  'p.name',
  'p.description',
  'p.prompt_template',
  'p.fields',
  'p.example_file_id',
  'p.model_id',
  'c.name as category_name',
  'm.name as model_name',
  'm.kind as model_kind',
  'm.setting',
  'm.words_per_token',
  'm.media_price_tenths',
  'm.media_per_second_tenths',
  'm.max_output_tokens',
  'pc.protocol',
  'pc.name as connection_name',
] as const;

/** Products that can run: active, in an active category, with an active model on an active connection. */
const activeProducts = (db: Executor) =>
  db
    .selectFrom('ai_products as p')
    .innerJoin('ai_categories as c', 'c.id', 'p.category_id')
    .innerJoin('ai_models as m', 'm.id', 'p.model_id')
    .innerJoin('provider_connections as pc', 'pc.id', 'm.connection_id')
    .select([...productColumns, 'c.description as category_description', 'c.sort as category_sort'])
    .where('p.active', '=', true)
    .where('c.active', '=', true)
    .where('m.active', '=', true)
    .where('pc.active', '=', true);

/** Active products, in order; only `variants` when given. */
export const listActiveProducts = (db: Executor, variants?: readonly ProductVariant[]) => {
  const query = activeProducts(db);
  return (variants ? query.where('p.variant', 'in', variants) : query).orderBy('c.sort').orderBy('c.id').orderBy('p.sort').orderBy('p.id').execute();
};
export type ProductRow = Awaited<ReturnType<typeof listActiveProducts>>[number];

/** One active product (as listed), or undefined. */
export const findActiveProduct = (db: Executor, id: number) => activeProducts(db).where('p.id', '=', id).executeTakeFirst();
