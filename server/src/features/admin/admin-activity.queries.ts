import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { GenerationStatus } from '../generations/generations.table.ts';
import { containing } from './admin-list.ts';
import { direction, pageOf } from './admin-page.queries.ts';

type Dir = 'asc' | 'desc';

/** The longest prompt a list line carries (the whole run is the owner's to read). */
const PROMPT_CHARS = 500;

const GENERATION_ORDER = { id: 'g.id', created_at: 'g.created_at', cost: 'g.cost' } as const;

/** Every user's runs: searched by email, product or model, filtered by status; outputs as file ids. */
export function listGenerations(db: Executor, opts: { q: string; status?: GenerationStatus | undefined; sort: keyof typeof GENERATION_ORDER; dir: Dir; page: number }) {
  let query = db.selectFrom('generations as g').innerJoin('users as u', 'u.id', 'g.user_id');
  if (opts.status) query = query.where('g.status', '=', opts.status);
  if (opts.q) {
    const like = containing(opts.q);
    query = query.where((eb) => eb.or([eb('u.email', 'ilike', like), eb('g.product_name', 'ilike', like), eb('g.model_name', 'ilike', like)]));
  }
  return pageOf(
    query,
    (q) =>
      q
        .select([
          'g.id',
          'g.user_id',
          'u.email',
          'g.product_name',
          'g.model_name',
          'g.variant',
          'g.status',
          'g.wallet',
          'g.cost',
          sql<string>`left(g.prompt, ${PROMPT_CHARS})`.as('prompt'),
          'g.error',
          'g.error_detail',
          'g.created_at',
          'g.finished_at',
          sql<(string | number)[]>`coalesce((select array_agg(f.file_id order by f.position) from generation_files f where f.generation_id = g.id and f.role = 'output'), '{}')`.as('outputs'),
        ])
        .orderBy(GENERATION_ORDER[opts.sort], direction(opts.dir))
        .orderBy('g.id', opts.dir),
    opts.page,
  );
}

const CHAT_ORDER = { id: 'c.id', created_at: 'c.created_at', updated_at: 'c.updated_at' } as const;

/** Chats deleted by their user while an answer was being written are gone for admins too. */
const chats = (db: Executor) => db.selectFrom('chats as c').innerJoin('users as u', 'u.id', 'c.user_id').where('c.deleted_at', 'is', null);

const CHAT_FIELDS = [
  'c.id',
  'c.user_id',
  'u.email',
  'c.title',
  'c.created_at',
  'c.updated_at',
  sql<number>`(select count(*) from chat_messages m where m.chat_id = c.id)`.as('message_count'),
  sql<number>`(select coalesce(sum(m.words), 0) from chat_messages m where m.chat_id = c.id)`.as('words'),
] as const;

/** Every user's chats, searched by email or title, with how many messages and words each took. */
export function listChats(db: Executor, opts: { q: string; sort: keyof typeof CHAT_ORDER; dir: Dir; page: number }) {
  let query = chats(db);
  if (opts.q) {
    const like = containing(opts.q);
    query = query.where((eb) => eb.or([eb('u.email', 'ilike', like), eb('c.title', 'ilike', like)]));
  }
  return pageOf(query, (q) => q.select(CHAT_FIELDS).orderBy(CHAT_ORDER[opts.sort], direction(opts.dir)).orderBy('c.id', opts.dir), opts.page);
}

export const findChatRow = (db: Executor, id: number) => chats(db).select(CHAT_FIELDS).where('c.id', '=', id).executeTakeFirst();
export type AdminChatRow = NonNullable<Awaited<ReturnType<typeof findChatRow>>>;

/** The chat's latest `limit` messages (before the message `before`, when given), oldest first, with their images' file ids. */
export async function chatMessages(db: Executor, chatId: number, limit: number, before?: number) {
  const rows = await db
    .selectFrom('chat_messages as m')
    .select([
      'm.id',
      'm.role',
      'm.text',
      'm.model_name',
      'm.status',
      'm.words',
      'm.input_tokens',
      'm.output_tokens',
      'm.error',
      'm.created_at',
      'm.off_path',
      sql<(string | number)[]>`coalesce((select array_agg(f.file_id order by f.position) from chat_message_files f where f.message_id = m.id), '{}')`.as('files'),
    ])
    .where('m.chat_id', '=', chatId)
    .$if(before !== undefined, (q) => q.where('m.id', '<', before ?? 0))
    .orderBy('m.id', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse();
}
