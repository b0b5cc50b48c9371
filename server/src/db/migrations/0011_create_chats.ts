import { sql, type Kysely } from 'kysely';

/**
 * Chats and their messages. An answer is written into its row as it arrives (`generating`),
 * so a reload shows it as far as it went; `hold_id` is the words held for it until it is done,
 * stopped (settled for what was written) or failed (released).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('chats')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull().check(sql`length(title) between 1 and 200`))
    .addColumn('model_id', 'integer', (c) => c.references('ai_models.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('chats_user_idx').on('chats').columns(['user_id', 'updated_at', 'id']).execute();

  await db.schema
    .createTable('chat_messages')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('chat_id', 'bigint', (c) => c.notNull().references('chats.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('user', 'assistant')`))
    .addColumn('text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('model_id', 'integer', (c) => c.references('ai_models.id').onDelete('set null'))
    .addColumn('model_name', 'text')
    .addColumn('param', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('done').check(sql`status in ('done', 'generating', 'stopped', 'failed')`))
    .addColumn('words', 'integer', (c) => c.notNull().defaultTo(0).check(sql`words >= 0`))
    .addColumn('input_tokens', 'integer')
    .addColumn('output_tokens', 'integer')
    .addColumn('hold_id', 'bigint', (c) => c.references('wallet_holds.id'))
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('chat_messages_chat_idx').on('chat_messages').columns(['chat_id', 'id']).execute();
  await sql`create index chat_messages_generating_idx on chat_messages (updated_at) where status = 'generating'`.execute(db);

  await db.schema
    .createTable('chat_message_files')
    .addColumn('message_id', 'bigint', (c) => c.notNull().references('chat_messages.id').onDelete('cascade'))
    .addColumn('file_id', 'bigint', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('position', 'smallint', (c) => c.notNull().check(sql`position between 0 and 9`))
    .addPrimaryKeyConstraint('chat_message_files_pk', ['message_id', 'position'])
    .execute();
  await db.schema.createIndex('chat_message_files_file_idx').on('chat_message_files').column('file_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('chat_message_files').execute();
  await db.schema.dropTable('chat_messages').execute();
  await db.schema.dropTable('chats').execute();
}
