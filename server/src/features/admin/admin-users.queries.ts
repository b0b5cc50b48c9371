import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/database.ts';
import { preparedByShape } from '../../db/prepared.ts';
import { ADMIN_PAGE_SIZE } from '@app/contracts';
import { containing, pageOffset } from './admin-list.ts';

const LATEST = 20;

export interface UserListOptions {
  q: string;
  sort: 'id' | 'email' | 'created_at';
  dir: 'asc' | 'desc';
  page: number;
}

/** The two statements of a page of users: how many match, and the page with both balances (raw: media in tenths), searched by email, sorted by a known column. */
export function usersListQueries(db: Executor, opts: UserListOptions) {
  let query = db.selectFrom('users as u');
  if (opts.q) query = query.where('u.email', 'ilike', containing(opts.q));
  return {
    count: query.select((eb) => eb.fn.countAll<string>().as('total')),
    page: query
      .select(['u.id', 'u.email', 'u.role', 'u.email_confirmed_at', 'u.blocked_at', 'u.created_at'])
      .select(BALANCES)
      .orderBy(`u.${opts.sort}`, opts.dir)
      .orderBy('u.id', opts.dir)
      .limit(ADMIN_PAGE_SIZE)
      .offset(pageOffset(opts.page)),
  };
}

const searchValues = (opts: UserListOptions) => (opts.q ? [containing(opts.q)] : []);
// The list as staff turn its pages: each shape (a search or none, the sort) built once.
const countUsers = preparedByShape((db, opts: UserListOptions) => usersListQueries(db, opts).count, searchValues, (opts) => (opts.q ? 'q' : ''));
const usersPage = preparedByShape(
  (db, opts: UserListOptions) => usersListQueries(db, opts).page,
  (opts) => [...searchValues(opts), ADMIN_PAGE_SIZE, pageOffset(opts.page)],
  (opts) => `${opts.q ? 'q' : ''}|${opts.sort}|${opts.dir}`,
);

export async function listUsers(db: Executor, opts: UserListOptions) {
  const [[count], rows] = await Promise.all([countUsers(db, opts), usersPage(db, opts)]);
  return { rows, total: Number(count?.total ?? 0) };
}

/** The user's two balances as columns `words` and `media_tenths` (of `users as u`). */
const BALANCES = [
  sql<string | number>`coalesce((select balance from wallets w where w.user_id = u.id and w.kind = 'words'), 0)`.as('words'),
  sql<string | number>`coalesce((select balance from wallets w where w.user_id = u.id and w.kind = 'media'), 0)`.as('media_tenths'),
] as const;

export async function findUser(db: Executor, id: number) {
  return db
    .selectFrom('users as u')
    .select(['u.id', 'u.email', 'u.role', 'u.email_confirmed_at', 'u.blocked_at', 'u.created_at', 'u.telegram_id'])
    .select(BALANCES)
    .where('u.id', '=', id)
    .executeTakeFirst();
}

/** What staff see of a user besides the account: the latest subscriptions, payments, runs, chats and ledger lines. */
export async function userActivity(db: Executor, id: number) {
  const [subscriptions, payments, generations, chats, ledger] = await Promise.all([
    db.selectFrom('subscriptions').select(['id', 'name', 'status', 'amount_kopecks', 'created_at']).where('user_id', '=', id).orderBy('id', 'desc').limit(LATEST).execute(),
    db.selectFrom('invoices').select(['id', 'kind', 'status', 'amount_kopecks', 'currency', 'created_at']).where('user_id', '=', id).orderBy('id', 'desc').limit(LATEST).execute(),
    db
      .selectFrom('generations as g')
      .leftJoin('ai_products as p', 'p.id', 'g.product_id')
      .select(['g.id', 'g.status', 'g.created_at', sql<string>`coalesce(p.name, '—')`.as('product')])
      .where('g.user_id', '=', id)
      .orderBy('g.id', 'desc')
      .limit(LATEST)
      .execute(),
    db
      .selectFrom('chats as c')
      .select(['c.id', 'c.title', 'c.updated_at', sql<number>`(select count(*)::int from chat_messages m where m.chat_id = c.id)`.as('messages')])
      .where('c.user_id', '=', id)
      .where('c.deleted_at', 'is', null)
      .orderBy('c.id', 'desc')
      .limit(LATEST)
      .execute(),
    db.selectFrom('wallet_ledger').select(['id', 'kind', 'amount', 'reason', 'note', 'created_at']).where('user_id', '=', id).orderBy('id', 'desc').limit(LATEST).execute(),
  ]);
  return { subscriptions, payments, generations, chats, ledger };
}

/** Admins other than `exceptId` who are not blocked. */
export async function otherActiveAdmins(db: Executor, exceptId: number): Promise<number> {
  const { n } = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('role', '=', 'admin')
    .where('blocked_at', 'is', null)
    .where('id', '<>', exceptId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Locks every admin's row (by id, the one order every caller takes), so the last unblocked admin cannot be demoted or blocked by two admins at once. */
export async function lockAdmins(tx: Tx): Promise<void> {
  await tx.selectFrom('users').select('id').where('role', '=', 'admin').orderBy('id').forUpdate().execute();
}

/** Locks a user's row for a change of role or blocking. */
export const lockUserAccess = (tx: Tx, id: number) => tx.selectFrom('users').select(['id', 'role', 'blocked_at']).where('id', '=', id).forUpdate().executeTakeFirst();

export const setUserAccess = (db: Executor, id: number, access: { role: 'user' | 'admin'; blocked_at: Date | null }) =>
  db.updateTable('users').set({ ...access, updated_at: new Date() }).where('id', '=', id).execute();

/**
 * Locks a user's row for a balance adjustment. NO KEY UPDATE: a plain FOR UPDATE blocks every
 * ledger or hold insert of this user (their user_id foreign key) and deadlocks with a refund
 * that has locked the wallet and is about to write its ledger row.
 */
export const lockUserForAdjustment = (tx: Tx, id: number) => tx.selectFrom('users').select('id').where('id', '=', id).forNoKeyUpdate().executeTakeFirst();

/** Whose ledger line an idempotency key already wrote, if any. */
export const ledgerLineOwner = (db: Executor, idempotencyKey: string) => db.selectFrom('wallet_ledger').select(['user_id']).where('idempotency_key', '=', idempotencyKey).executeTakeFirst();

/** Locks one of a user's wallets and reads its balance. */
export const lockWalletBalance = (tx: Tx, userId: number, kind: 'words' | 'media') =>
  tx.selectFrom('wallets').select('balance').where('user_id', '=', userId).where('kind', '=', kind).forUpdate().executeTakeFirst();
