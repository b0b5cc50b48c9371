import { sql, type Kysely } from 'kysely';

/**
 * The generation catalogue and its runs (PRODUCT.md "AI catalogue and generation"): categories,
 * products (a variant picking the screen, a prompt template with its fields, an example image,
 * the model that runs it), generations (owner, product, model, inputs, status, progress, cost
 * and its hold, outputs, why it failed) and their files (inputs, the mask, outputs).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ai_categories')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('name', 'text', (c) => c.notNull().check(sql`length(name) between 1 and 100`))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('ai_products')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('category_id', 'integer', (c) => c.notNull().references('ai_categories.id').onDelete('restrict'))
    .addColumn('variant', 'text', (c) => c.notNull().check(sql`variant in ('img', 'img_2', 'img_3', 'img_4', 'mask', 'text_1', 'video')`))
    .addColumn('name', 'text', (c) => c.notNull().check(sql`length(name) between 1 and 100`))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('prompt_template', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('fields', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('example_file_id', 'bigint', (c) => c.references('files.id').onDelete('set null'))
    .addColumn('model_id', 'integer', (c) => c.notNull().references('ai_models.id').onDelete('restrict'))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('ai_products_category_idx').on('ai_products').columns(['category_id', 'active', 'sort']).execute();

  await db.schema
    .createTable('generations')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('product_id', 'integer', (c) => c.references('ai_products.id').onDelete('set null'))
    .addColumn('model_id', 'integer', (c) => c.references('ai_models.id').onDelete('set null'))
    .addColumn('variant', 'text', (c) => c.notNull())
    .addColumn('product_name', 'text', (c) => c.notNull())
    .addColumn('model_name', 'text', (c) => c.notNull())
    .addColumn('prompt', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('inputs', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued').check(sql`status in ('queued', 'running', 'succeeded', 'failed', 'cancelled')`))
    .addColumn('progress', 'smallint', (c) => c.notNull().defaultTo(0).check(sql`progress between 0 and 100`))
    .addColumn('wallet', 'text', (c) => c.notNull().check(sql`wallet in ('words', 'media')`))
    .addColumn('cost', 'integer', (c) => c.notNull().defaultTo(0).check(sql`cost >= 0`))
    .addColumn('hold_id', 'bigint', (c) => c.references('wallet_holds.id'))
    .addColumn('provider_ref', 'text')
    .addColumn('text_result', 'text')
    .addColumn('error', 'text')
    .addColumn('error_detail', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('generations_user_idx').on('generations').columns(['user_id', 'id']).execute();
  await sql`create index generations_active_idx on generations (user_id) where status in ('queued', 'running')`.execute(db);

  await db.schema
    .createTable('generation_files')
    .addColumn('generation_id', 'bigint', (c) => c.notNull().references('generations.id').onDelete('cascade'))
    .addColumn('file_id', 'bigint', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('input', 'mask', 'output')`))
    .addColumn('position', 'smallint', (c) => c.notNull().check(sql`position between 0 and 9`))
    .addPrimaryKeyConstraint('generation_files_pk', ['generation_id', 'role', 'position'])
    .execute();
  await db.schema.createIndex('generation_files_file_idx').on('generation_files').column('file_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('generation_files').execute();
  await db.schema.dropTable('generations').execute();
  await db.schema.dropTable('ai_products').execute();
  await db.schema.dropTable('ai_categories').execute();
}
