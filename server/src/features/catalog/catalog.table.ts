import type { ColumnType, Generated, Selectable } from 'kysely';
import type { ProductVariant } from '@app/contracts';

export interface AiCategoriesTable {
  id: Generated<number>;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  sort: ColumnType<number, number | undefined, number>;
  active: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** A product: its variant picks the screen; `fields` fill `{name}` placeholders of `prompt_template`. */
export interface AiProductsTable {
  id: Generated<number>;
  category_id: number;
  variant: ProductVariant;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  prompt_template: ColumnType<string, string | undefined, string>;
  /** `[{name, label, placeholder?, multiline?, required?, max_length?}]`, read by `product-fields.ts`. */
  fields: ColumnType<unknown, string | undefined, string>;
  example_file_id: number | null;
  model_id: number;
  sort: ColumnType<number, number | undefined, number>;
  active: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}
export type AiProductRow = Selectable<AiProductsTable>;

export interface CatalogTables {
  ai_categories: AiCategoriesTable;
  ai_products: AiProductsTable;
}
