import { sql, type Kysely } from 'kysely';

/**
 * The AI catalogue's base: provider connections (where a model runs, with its key named by an
 * environment variable, never stored) and models (chat, text, image and video in one table:
 * kind, connection, the provider's model name, prices, and `setting.model.params` — stored as
 * an object or, as the seed allows, a JSON string).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('provider_connections')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('name', 'text', (c) => c.notNull().unique().check(sql`length(name) between 1 and 100`))
    .addColumn('protocol', 'text', (c) => c.notNull().check(sql`protocol in ('openai', 'replicate', 'demo')`))
    .addColumn('base_url', 'text', (c) => c.check(sql`base_url ~ '^https?://'`))
    .addColumn('api_key_env', 'text', (c) => c.check(sql`api_key_env ~ '^[A-Z][A-Z0-9_]{0,99}$'`))
    .addColumn('timeout_seconds', 'integer', (c) => c.notNull().defaultTo(60).check(sql`timeout_seconds between 1 and 3600`))
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('provider_connections_remote_has_url', sql`protocol = 'demo' or base_url is not null`)
    .execute();

  await db.schema
    .createTable('ai_models')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('name', 'text', (c) => c.notNull().check(sql`length(name) between 1 and 100`))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('chat', 'text', 'image', 'video')`))
    .addColumn('connection_id', 'integer', (c) => c.notNull().references('provider_connections.id').onDelete('restrict'))
    .addColumn('provider_model', 'text', (c) => c.notNull().check(sql`length(provider_model) between 1 and 200`))
    .addColumn('words_per_token', 'numeric(12, 4)', (c) => c.notNull().defaultTo(1).check(sql`words_per_token >= 0`))
    .addColumn('media_price_tenths', 'integer', (c) => c.notNull().defaultTo(0).check(sql`media_price_tenths >= 0`))
    .addColumn('media_per_second_tenths', 'integer', (c) => c.notNull().defaultTo(0).check(sql`media_per_second_tenths >= 0`))
    .addColumn('max_output_tokens', 'integer', (c) => c.notNull().defaultTo(2048).check(sql`max_output_tokens between 1 and 200000`))
    .addColumn('setting', 'jsonb', (c) => c.notNull().defaultTo(sql`'{"model":{"params":[]}}'::jsonb`))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('ai_models_kind_idx').on('ai_models').columns(['kind', 'active', 'sort']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ai_models').execute();
  await db.schema.dropTable('provider_connections').execute();
}
