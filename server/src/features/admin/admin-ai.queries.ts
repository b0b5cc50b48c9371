import { sql, type Insertable, type SelectQueryBuilder, type Updateable } from 'kysely';
import { ADMIN_PAGE_SIZE, type ProductVariant } from '@app/contracts';
import type { Executor, Tx } from '../../db/database.ts';
import type { AiModelsTable, ModelKind, ProviderConnectionsTable } from '../ai/ai.table.ts';
import type { AiCategoriesTable, AiProductsTable } from '../catalog/catalog.table.ts';
import { containing, pageOffset } from './admin-list.ts';

/* Every statement of the admin's AI catalogue: categories, products, models and provider connections. */

type Dir = 'asc' | 'desc';
interface ListOptions<S extends string> {
  q: string;
  sort: S;
  dir: Dir;
  page: number;
}

/** One page of an ordered list (20 rows) and how many rows the whole list has. */
async function onePage<D, TB extends keyof D, O>(query: SelectQueryBuilder<D, TB, O>, page: number): Promise<{ rows: O[]; total: number }> {
  const { total } = await query
    .clearSelect()
    .clearOrderBy()
    .select(sql<string>`count(*)`.as('total'))
    .$castTo<{ total: string }>()
    .executeTakeFirstOrThrow();
  const rows = await query.limit(ADMIN_PAGE_SIZE).offset(pageOffset(page)).execute();
  return { rows, total: Number(total) };
}

// Categories

const categories = (db: Executor) =>
  db
    .selectFrom('ai_categories as c')
    .select(['c.id', 'c.name', 'c.description', 'c.sort', 'c.active', 'c.created_at', 'c.updated_at'])
    .select(sql<number>`(select count(*)::int from ai_products p where p.category_id = c.id)`.as('products'));
export type CategoryRow = NonNullable<Awaited<ReturnType<typeof findCategory>>>;

export async function listCategories(db: Executor, opts: ListOptions<'id' | 'name' | 'sort' | 'created_at'>) {
  let query = categories(db);
  if (opts.q) query = query.where('c.name', 'ilike', containing(opts.q));
  return onePage(query.orderBy(`c.${opts.sort}`, opts.dir).orderBy('c.id', opts.dir), opts.page);
}

export const findCategory = (db: Executor, id: number) => categories(db).where('c.id', '=', id).executeTakeFirst();

export const lockCategory = (tx: Tx, id: number) => tx.selectFrom('ai_categories').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();

/** Products in a category, whatever their state. */
export const categoryProducts = async (db: Executor, id: number) =>
  Number((await db.selectFrom('ai_products').select((eb) => eb.fn.countAll<string>().as('n')).where('category_id', '=', id).executeTakeFirstOrThrow()).n);

export const categoryExists = async (db: Executor, id: number) => (await db.selectFrom('ai_categories').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

// Products

const products = (db: Executor) =>
  db
    .selectFrom('ai_products as p')
    .innerJoin('ai_categories as c', 'c.id', 'p.category_id')
    .innerJoin('ai_models as m', 'm.id', 'p.model_id')
    .innerJoin('provider_connections as pc', 'pc.id', 'm.connection_id')
    .select([
      'p.id',
      'p.category_id',
      'c.name as category',
      'c.active as category_active',
      'm.active as model_active',
      'pc.active as connection_active',
      'pc.name as connection',
      'p.variant',
      'p.name',
      'p.description',
      'p.prompt_template',
      'p.fields',
      'p.model_id',
      'm.name as model',
      'm.kind as model_kind',
      'm.words_per_token',
      'm.max_output_tokens',
      'm.media_price_tenths',
      'm.media_per_second_tenths',
      'm.setting',
      'p.example_file_id',
      'p.sort',
      'p.active',
      'p.created_at',
      'p.updated_at',
    ]);
export type ProductListRow = NonNullable<Awaited<ReturnType<typeof findProduct>>>;

export async function listProducts(db: Executor, opts: ListOptions<'id' | 'name' | 'sort' | 'created_at'> & { category_id?: number | undefined; variant?: ProductVariant | undefined }) {
  let query = products(db);
  if (opts.q) query = query.where('p.name', 'ilike', containing(opts.q));
  if (opts.category_id !== undefined) query = query.where('p.category_id', '=', opts.category_id);
  if (opts.variant !== undefined) query = query.where('p.variant', '=', opts.variant);
  return onePage(query.orderBy(`p.${opts.sort}`, opts.dir).orderBy('p.id', opts.dir), opts.page);
}

export const findProduct = (db: Executor, id: number) => products(db).where('p.id', '=', id).executeTakeFirst();

export const lockProduct = (tx: Tx, id: number) => tx.selectFrom('ai_products').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();

/** Runs that name the product (their history keeps its name either way). */
export const productRuns = async (db: Executor, id: number) =>
  Number((await db.selectFrom('generations').select((eb) => eb.fn.countAll<string>().as('n')).where('product_id', '=', id).executeTakeFirstOrThrow()).n);

// Models

const models = (db: Executor) =>
  db
    .selectFrom('ai_models as m')
    .innerJoin('provider_connections as pc', 'pc.id', 'm.connection_id')
    .selectAll('m')
    .select(['pc.name as connection', 'pc.protocol'])
    .select(sql<number>`(select count(*)::int from ai_products p where p.model_id = m.id)`.as('products'));
export type ModelListRow = NonNullable<Awaited<ReturnType<typeof findModel>>>;

export async function listModels(db: Executor, opts: ListOptions<'id' | 'name' | 'kind' | 'sort' | 'created_at'> & { kind?: ModelKind | undefined; connection_id?: number | undefined }) {
  let query = models(db);
  if (opts.q) {
    const like = containing(opts.q);
    query = query.where((eb) => eb.or([eb('m.name', 'ilike', like), eb('m.provider_model', 'ilike', like)]));
  }
  if (opts.kind !== undefined) query = query.where('m.kind', '=', opts.kind);
  if (opts.connection_id !== undefined) query = query.where('m.connection_id', '=', opts.connection_id);
  return onePage(query.orderBy(`m.${opts.sort}`, opts.dir).orderBy('m.id', opts.dir), opts.page);
}

export const findModel = (db: Executor, id: number) => models(db).where('m.id', '=', id).executeTakeFirst();

export const lockModel = (tx: Tx, id: number) => tx.selectFrom('ai_models').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();

export const findModelKind = (db: Executor, id: number) => db.selectFrom('ai_models').select(['id', 'kind', 'name']).where('id', '=', id).executeTakeFirst();

/** The variants of the products running on a model. */
export const modelProductVariants = async (db: Executor, id: number) =>
  (await db.selectFrom('ai_products').select('variant').where('model_id', '=', id).execute()).map((r) => r.variant);

/** Whether runs, chats or chat messages name the model (deleting it would blank their model). */
export async function modelHasHistory(db: Executor, id: number): Promise<boolean> {
  const { rows } = await sql<{ used: boolean }>`select exists (select 1 from generations where model_id = ${id})
    or exists (select 1 from chats where model_id = ${id})
    or exists (select 1 from chat_messages where model_id = ${id}) as used`.execute(db);
  return rows[0]?.used === true;
}

// Provider connections

const providers = (db: Executor) =>
  db
    .selectFrom('provider_connections as pc')
    .selectAll('pc')
    .select(sql<number>`(select count(*)::int from ai_models m where m.connection_id = pc.id)`.as('models'));
export type ProviderListRow = NonNullable<Awaited<ReturnType<typeof findProvider>>>;

export async function listProviders(db: Executor, opts: ListOptions<'id' | 'name' | 'created_at'>) {
  let query = providers(db);
  if (opts.q) query = query.where('pc.name', 'ilike', containing(opts.q));
  return onePage(query.orderBy(`pc.${opts.sort}`, opts.dir).orderBy('pc.id', opts.dir), opts.page);
}

export const findProvider = (db: Executor, id: number) => providers(db).where('pc.id', '=', id).executeTakeFirst();

export const lockProvider = (tx: Tx, id: number) => tx.selectFrom('provider_connections').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();

/** Another connection of that name (names are unique). */
export const providerNamed = (db: Executor, name: string, exceptId = 0) =>
  db.selectFrom('provider_connections').select('id').where('name', '=', name).where('id', '<>', exceptId).executeTakeFirst();

/** The kinds of the models on a connection, one a model. */
export const connectionModelKinds = async (db: Executor, id: number) =>
  (await db.selectFrom('ai_models').select('kind').where('connection_id', '=', id).execute()).map((r) => r.kind);

/** The provider model of the connection's first chat or text model (active ones first), to test it with. */
export const firstTalkingModel = async (db: Executor, connectionId: number) =>
  (
    await db
      .selectFrom('ai_models')
      .select('provider_model')
      .where('connection_id', '=', connectionId)
      .where('kind', 'in', ['chat', 'text'])
      .orderBy('active', 'desc')
      .orderBy('sort')
      .orderBy('id')
      .executeTakeFirst()
  )?.provider_model;

// Writes (each in the caller's transaction, which holds the record's lock and writes the audit)

/** The catalogue's tables that admins edit: each record has an `id` and an `updated_at`. */
type CatalogTable = 'ai_categories' | 'ai_products' | 'ai_models' | 'provider_connections';

export const insertCategory = (db: Executor, values: Insertable<AiCategoriesTable>) => db.insertInto('ai_categories').values(values).returningAll().executeTakeFirstOrThrow();

export const insertProduct = (db: Executor, values: Insertable<AiProductsTable>) => db.insertInto('ai_products').values(values).returningAll().executeTakeFirstOrThrow();

export const insertModel = (db: Executor, values: Insertable<AiModelsTable>) => db.insertInto('ai_models').values(values).returningAll().executeTakeFirstOrThrow();

export const insertProvider = (db: Executor, values: Insertable<ProviderConnectionsTable>) => db.insertInto('provider_connections').values(values).returningAll().executeTakeFirstOrThrow();

/** Changes a category, stamping `updated_at`. */
export const updateCategoryRow = (db: Executor, id: number, values: Updateable<AiCategoriesTable>) =>
  db.updateTable('ai_categories').set({ ...values, updated_at: new Date() }).where('id', '=', id).execute();

/** Changes a product (its fields, or its example image alone), stamping `updated_at`. */
export const updateProductRow = (db: Executor, id: number, values: Updateable<AiProductsTable>) =>
  db.updateTable('ai_products').set({ ...values, updated_at: new Date() }).where('id', '=', id).execute();

/** Changes a model, stamping `updated_at`. */
export const updateModelRow = (db: Executor, id: number, values: Updateable<AiModelsTable>) =>
  db.updateTable('ai_models').set({ ...values, updated_at: new Date() }).where('id', '=', id).execute();

/** Changes a connection, stamping `updated_at` (every process then builds its adapter anew). */
export const updateProviderRow = (db: Executor, id: number, values: Updateable<ProviderConnectionsTable>) =>
  db.updateTable('provider_connections').set({ ...values, updated_at: new Date() }).where('id', '=', id).execute();

/** Switches a product or model off, stamping `updated_at`. */
export const deactivateRow = (db: Executor, table: 'ai_products' | 'ai_models', id: number) =>
  db.updateTable(table).set({ active: false, updated_at: new Date() }).where('id', '=', id).execute();

export const deleteCatalogRow = (db: Executor, table: CatalogTable, id: number) => db.deleteFrom(table).where('id', '=', id).execute();
