import { isDeepStrictEqual } from 'node:util';
import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/database.ts';
import { ADMIN_PAGE_SIZE } from '@app/contracts';
import { containing, pageOffset } from './admin-list.ts';

export interface AuditRecord {
  /** Null for a command run on the server (`admin:reset-2fa`). */
  actorId: number | null;
  action: string;
  entity: string;
  entityId: string | number;
  before: unknown;
  after: unknown;
}

/** Writes what staff changed, in the transaction of the change itself (a change and its record exist together). */
export async function recordAudit(tx: Tx, record: AuditRecord): Promise<void> {
  await tx
    .insertInto('audit_log')
    .values({
      actor_id: record.actorId,
      action: record.action,
      entity: record.entity,
      entity_id: String(record.entityId),
      before: record.before === undefined ? null : JSON.stringify(record.before),
      after: record.after === undefined ? null : JSON.stringify(record.after),
    })
    .execute();
}

/** Records an update only when it changed something (saving the same values leaves no record); answers whether it recorded. */
export async function recordChange(tx: Tx, record: AuditRecord): Promise<boolean> {
  if (isDeepStrictEqual(record.before, record.after)) return false;
  await recordAudit(tx, record);
  return true;
}

/** A page of the audit log; `q` matches the action, the entity (`user`, `user:42`) or the actor's email. */
export async function listAudit(db: Executor, opts: { q: string; sort: 'id' | 'created_at'; dir: 'asc' | 'desc'; page: number }) {
  let query = db.selectFrom('audit_log as a').leftJoin('users as u', 'u.id', 'a.actor_id');
  if (opts.q) {
    const like = containing(opts.q);
    query = query.where((eb) => eb.or([eb('a.action', 'ilike', like), eb(sql<string>`a.entity || ':' || a.entity_id`, 'ilike', like), eb('u.email', 'ilike', like)]));
  }
  const { total } = await query.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow();
  const rows = await query
    .select(['a.id', 'a.actor_id', 'u.email as actor_email', 'a.action', 'a.entity', 'a.entity_id', 'a.before', 'a.after', 'a.created_at'])
    .orderBy(opts.sort === 'created_at' ? 'a.created_at' : 'a.id', opts.dir)
    .orderBy('a.id', opts.dir)
    .limit(ADMIN_PAGE_SIZE)
    .offset(pageOffset(opts.page))
    .execute();
  return { rows, total: Number(total) };
}

/** Fields of the log's values that hold the id of a record with a name, and that record's table. */
const NAMED_REFS = { category_id: 'ai_categories', model_id: 'ai_models', connection_id: 'provider_connections' } as const;

/**
 * What the records the entries' values refer to are called now, per entry (`category_id:1` →
 * «Фото»), so the log names a product's category, model or connection instead of a number.
 * One statement per kind of record on the page.
 */
export async function auditNames(db: Executor, entries: readonly { before: unknown; after: unknown }[]): Promise<Record<string, string>[]> {
  const idsOf = (entry: { before: unknown; after: unknown }) =>
    [entry.before, entry.after].flatMap((side) =>
      side && typeof side === 'object'
        ? Object.entries(side as Record<string, unknown>).flatMap(([key, value]) => (key in NAMED_REFS && Number.isSafeInteger(value) ? [{ key: key as keyof typeof NAMED_REFS, id: value as number }] : []))
        : [],
    );
  const wanted = new Map<keyof typeof NAMED_REFS, Set<number>>();
  for (const entry of entries) for (const { key, id } of idsOf(entry)) wanted.set(key, (wanted.get(key) ?? new Set()).add(id));
  const known = new Map<string, string>();
  for (const [key, ids] of wanted) {
    const rows = await db.selectFrom(NAMED_REFS[key]).select(['id', 'name']).where('id', 'in', [...ids]).execute();
    for (const row of rows) known.set(`${key}:${String(row.id)}`, row.name);
  }
  return entries.map((entry) => Object.fromEntries(idsOf(entry).flatMap(({ key, id }) => {
    const name = known.get(`${key}:${String(id)}`);
    return name === undefined ? [] : [[`${key}:${String(id)}`, name]];
  })));
}
