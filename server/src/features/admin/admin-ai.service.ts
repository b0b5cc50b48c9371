import { isDeepStrictEqual } from 'node:util';
import {
  ADMIN_AI_TEXTS,
  MODEL_KIND_LABELS,
  VARIANT_INPUTS,
  VARIANT_MODEL_KIND,
  type AdminAiCategory,
  type AdminAiProduct,
  type AdminDeleteResult,
  type ProductField,
  type ProductVariant,
} from '@app/contracts';
import type { AppContext } from '../../context.ts';
import type { Executor, Tx } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import type { UploadedFile } from '../../lib/multipart.ts';
import type { Viewer } from '../accounts/viewer.ts';
import type { AiProductRow } from '../catalog/catalog.table.ts';
import { readProductFields } from '../catalog/product-fields.ts';
import { catalogPrice } from '../catalog/catalog.service.ts';
import { storeFiles } from '../files/files.service.ts';
import { deleteFileById } from '../files/files.queries.ts';
import { lastPage } from './admin-list.ts';
import { FieldErrors, applyChange, audit, defined, iso, removeBlob, switchOff, type ListQuery } from './admin-ai-edits.ts';
import {
  categoryExists,
  categoryProducts,
  deleteCatalogRow,
  findCategory,
  findModelKind,
  findProduct,
  insertCategory,
  insertProduct,
  listCategories,
  listProducts,
  lockCategory,
  lockProduct,
  productRuns,
  updateCategoryRow,
  updateProductRow,
  type CategoryRow,
  type ProductListRow,
} from './admin-ai.queries.ts';

/* The admin's generation catalogue: categories and products (with their example images). */

// Categories

const toCategory = (r: CategoryRow): AdminAiCategory => ({
  id: r.id,
  name: r.name,
  description: r.description,
  sort: r.sort,
  active: r.active,
  products: r.products,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

type CategoryState = Pick<CategoryRow, 'name' | 'description' | 'sort' | 'active'>;
const categoryState = (r: CategoryState): CategoryState => ({ name: r.name, description: r.description, sort: r.sort, active: r.active });

export async function adminCategories(ctx: AppContext, query: ListQuery<'id' | 'name' | 'sort' | 'created_at'>) {
  const { rows, total } = await listCategories(ctx.db, query);
  return { data: rows.map(toCategory), last_page: lastPage(total) };
}

export async function adminCategory(db: Executor, id: number): Promise<AdminAiCategory> {
  const row = await findCategory(db, id);
  if (!row) throw new AppError('NOT_FOUND', ADMIN_AI_TEXTS.categoryNotFound);
  return toCategory(row);
}

export async function createCategory(ctx: AppContext, actor: Viewer, body: CategoryState): Promise<AdminAiCategory> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await insertCategory(tx, categoryState(body));
    await audit(tx, actor, 'ai_category', row.id, 'create', null, categoryState(row));
    return adminCategory(tx, row.id);
  });
}

export async function updateCategory(ctx: AppContext, actor: Viewer, id: number, change: Partial<CategoryState>): Promise<AdminAiCategory> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await lockCategory(tx, id);
    if (!row) throw new AppError('NOT_FOUND', ADMIN_AI_TEXTS.categoryNotFound);
    const before = categoryState(row);
    const after = categoryState({ ...before, ...defined(change) });
    await applyChange(tx, actor, 'ai_category', id, before, after, () => updateCategoryRow(tx, id, after));
    return adminCategory(tx, id);
  });
}

/** Deletes a category; one that still has products is refused (they would have nowhere to be). */
export async function deleteCategory(ctx: AppContext, actor: Viewer, id: number): Promise<AdminDeleteResult> {
  return ctx.db.transaction().execute(async (tx) => {
    // The lock waits for products being added to it (their foreign key check shares the row).
    const row = await lockCategory(tx, id);
    if (!row) throw new AppError('NOT_FOUND', ADMIN_AI_TEXTS.categoryNotFound);
    const products = await categoryProducts(tx, id);
    if (products > 0) throw new AppError('IN_USE', `В категории есть продукты (${String(products)}): перенесите их в другую категорию или удалите, затем удалите категорию`);
    await deleteCatalogRow(tx, 'ai_categories', id);
    await audit(tx, actor, 'ai_category', id, 'delete', categoryState(row), null);
    return { outcome: 'deleted' };
  });
}

// Products

/** Placeholders of a prompt template, as `fillTemplate` replaces them. */
const placeholders = (template: string) => [...template.matchAll(/\{([a-z][a-z0-9_]*)\}/g)].map((m) => m[1] ?? '');

const toProduct = (r: ProductListRow): AdminAiProduct => ({
  id: r.id,
  category_id: r.category_id,
  category: r.category,
  variant: r.variant,
  name: r.name,
  description: r.description,
  prompt_template: r.prompt_template,
  fields: readProductFields(r.fields),
  model_id: r.model_id,
  model: r.model,
  model_kind: r.model_kind,
  price: catalogPrice(r),
  connection: r.connection,
  hidden_because: !r.active ? null : !r.category_active ? 'category' : !r.model_active ? 'model' : !r.connection_active ? 'connection' : null,
  example_url: r.example_file_id === null ? null : `/api/new/files/${String(r.example_file_id)}`,
  sort: r.sort,
  active: r.active,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

interface ProductState {
  category_id: number;
  variant: ProductVariant;
  name: string;
  description: string;
  prompt_template: string;
  fields: ProductField[];
  model_id: number;
  sort: number;
  active: boolean;
}
const productState = (r: Pick<AiProductRow, keyof ProductState>): ProductState => ({
  category_id: r.category_id,
  variant: r.variant,
  name: r.name,
  description: r.description,
  prompt_template: r.prompt_template,
  fields: readProductFields(r.fields),
  model_id: r.model_id,
  sort: r.sort,
  active: r.active,
});

export async function adminProducts(ctx: AppContext, query: ListQuery<'id' | 'name' | 'sort' | 'created_at'> & { category_id?: number | undefined; variant?: ProductVariant | undefined }) {
  const { rows, total } = await listProducts(ctx.db, query);
  return { data: rows.map(toProduct), last_page: lastPage(total) };
}

export async function adminProduct(db: Executor, id: number): Promise<AdminAiProduct> {
  const row = await findProduct(db, id);
  if (!row) throw new AppError('NOT_FOUND', ADMIN_AI_TEXTS.productNotFound);
  return toProduct(row);
}

/** The template's fields checked by the runtime's reader: each must be read back exactly as given. */
function checkFields(fields: ProductField[], errors: FieldErrors): void {
  const read = readProductFields(fields);
  const seen = new Set<string>();
  for (const field of fields) {
    if (seen.has(field.name)) {
      errors.add('fields', `Поле «${field.name}» повторяется`);
      continue;
    }
    seen.add(field.name);
    const kept = read.find((f) => f.name === field.name);
    if (!kept || !isDeepStrictEqual(kept, field)) errors.add('fields', `Поле «${field.name}» не читается так, как задано`);
  }
}

/**
 * What one field's schema cannot see: the category and the model exist, the model is of the
 * variant's kind, and a template variant's fields are exactly its placeholders (other variants
 * take no fields). `touched` limits the checks to what the change concerns, so an old record
 * can still be renamed.
 */
async function checkProduct(tx: Tx, state: ProductState, touched: ReadonlySet<keyof ProductState> | 'all'): Promise<void> {
  const errors = new FieldErrors();
  const has = (...keys: (keyof ProductState)[]) => touched === 'all' || keys.some((k) => touched.has(k));
  if (has('category_id') && !(await categoryExists(tx, state.category_id))) errors.add('category_id', 'Такой категории нет');
  if (has('model_id', 'variant')) {
    const model = await findModelKind(tx, state.model_id);
    const needed = VARIANT_MODEL_KIND[state.variant];
    if (!model) errors.add('model_id', 'Такой модели нет');
    else if (model.kind !== needed) errors.add('model_id', `Варианту «${state.variant}» нужна модель типа «${MODEL_KIND_LABELS[needed]}», а «${model.name}» — типа «${MODEL_KIND_LABELS[model.kind]}»`);
  }
  if (has('fields', 'prompt_template', 'variant')) {
    checkFields(state.fields, errors);
    if (VARIANT_INPUTS[state.variant].fields) {
      const used = new Set(placeholders(state.prompt_template));
      const names = new Set(state.fields.map((f) => f.name));
      if (!state.prompt_template.trim()) errors.add('prompt_template', 'Этому варианту нужен шаблон запроса с полями вида {имя}');
      if (!state.fields.length) errors.add('fields', 'Этому варианту нужно хотя бы одно поле');
      for (const name of used) if (!names.has(name)) errors.add('prompt_template', `В шаблоне есть {${name}}, но такого поля нет`);
      for (const name of names) if (!used.has(name)) errors.add('fields', `Поле «${name}» не используется в шаблоне`);
    } else if (state.fields.length) {
      errors.add('fields', `Варианту «${state.variant}» поля не нужны: пользователь вводит запрос сам`);
    }
  }
  errors.throwIfAny();
}

const productValues = (s: ProductState) => ({ ...s, fields: JSON.stringify(s.fields) });

export async function createProduct(ctx: AppContext, actor: Viewer, body: ProductState): Promise<AdminAiProduct> {
  return ctx.db.transaction().execute(async (tx) => {
    await checkProduct(tx, body, 'all');
    const row = await insertProduct(tx, productValues(body));
    await audit(tx, actor, 'ai_product', row.id, 'create', null, productState(row));
    return adminProduct(tx, row.id);
  });
}

export async function updateProduct(ctx: AppContext, actor: Viewer, id: number, change: Partial<ProductState>): Promise<AdminAiProduct> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await lockProduct(tx, id);
    if (!row) throw new AppError('NOT_FOUND', ADMIN_AI_TEXTS.productNotFound);
    const given = defined(change);
    const before = productState(row);
    // The given fields as they came: the reader's check below must see them unread.
    const after: ProductState = { ...before, ...given };
    await checkProduct(tx, after, new Set(Object.keys(given) as (keyof ProductState)[]));
    await applyChange(tx, actor, 'ai_product', id, before, after, () => updateProductRow(tx, id, productValues(after)));
    return adminProduct(tx, id);
  });
}

/**
 * Deletes a product with its example image. A product that runs refer to is switched off instead:
 * users' histories keep linking to it, and nothing of it is lost.
 */
export async function deleteProduct(ctx: AppContext, actor: Viewer, id: number): Promise<AdminDeleteResult> {
  let blob: string | undefined;
  const result = await ctx.db.transaction().execute(async (tx): Promise<AdminDeleteResult> => {
    // The lock waits for runs being started on it (their foreign key check shares the row), so they are counted.
    const row = await lockProduct(tx, id);
    if (!row) throw new AppError('NOT_FOUND', ADMIN_AI_TEXTS.productNotFound);
    if ((await productRuns(tx, id)) > 0) return switchOff(tx, actor, 'ai_products', 'ai_product', row);
    await deleteCatalogRow(tx, 'ai_products', id);
    if (row.example_file_id !== null) blob = (await deleteFileById(tx, row.example_file_id))?.storage_key;
    await audit(tx, actor, 'ai_product', id, 'delete', { ...productState(row), example_file_id: row.example_file_id }, null);
    return { outcome: 'deleted' };
  });
  await removeBlob(ctx, blob);
  return result;
}

/**
 * Sets a product's example image: stored as the service's own file (no owner, purpose
 * `product_example`) in the transaction that points the product at it; the previous example's
 * row goes in that transaction and its blob after it. A refused request stores nothing.
 */
export async function setProductExample(ctx: AppContext, actor: Viewer, id: number, image: UploadedFile): Promise<AdminAiProduct> {
  let replaced: string | undefined;
  const result = await storeFiles(
    ctx.db,
    ctx.storage,
    async (tx, save) => {
      const row = await lockProduct(tx, id);
      if (!row) throw new AppError('NOT_FOUND', ADMIN_AI_TEXTS.productNotFound);
      const file = await save({ ownerId: null, purpose: 'product_example', body: image.data, contentType: image.mime, originalName: image.name });
      await updateProductRow(tx, id, { example_file_id: file.id });
      if (row.example_file_id !== null) replaced = (await deleteFileById(tx, row.example_file_id))?.storage_key;
      const after = { example_file_id: file.id, name: file.original_name, content_type: file.content_type, size: file.size };
      await audit(tx, actor, 'ai_product', id, 'example', { example_file_id: row.example_file_id }, after);
      return adminProduct(tx, id);
    },
    { log: ctx.log },
  );
  await removeBlob(ctx, replaced);
  return result;
}

/** Removes a product's example image (nothing to remove: the product as it is). */
export async function deleteProductExample(ctx: AppContext, actor: Viewer, id: number): Promise<AdminAiProduct> {
  let blob: string | undefined;
  const result = await ctx.db.transaction().execute(async (tx) => {
    const row = await lockProduct(tx, id);
    if (!row) throw new AppError('NOT_FOUND', ADMIN_AI_TEXTS.productNotFound);
    if (row.example_file_id !== null) {
      await updateProductRow(tx, id, { example_file_id: null });
      blob = (await deleteFileById(tx, row.example_file_id))?.storage_key;
      await audit(tx, actor, 'ai_product', id, 'example', { example_file_id: row.example_file_id }, { example_file_id: null });
    }
    return adminProduct(tx, id);
  });
  await removeBlob(ctx, blob);
  return result;
}
