import type { AdminUser, AdminUserDetail } from '@app/contracts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import { AppError, fieldError } from '../../lib/app-error.ts';
import type { Viewer } from '../accounts/viewer.ts';
import { secondFactorForRole } from '../accounts/second-factor.service.ts';
import { revokeUserSessions } from '../accounts/sessions.queries.ts';
import { credit, debitUpTo } from '../wallet/wallet.queries.ts';
import { recordAudit } from './audit.queries.ts';
import { lastPage } from './admin-list.ts';
import {
  findUser,
  ledgerLineOwner,
  listUsers,
  lockAdmins,
  lockUserAccess,
  lockUserForAdjustment,
  lockWalletBalance,
  otherActiveAdmins,
  setUserAccess,
  userActivity,
} from './admin-users.queries.ts';

type UserRowWithBalances = NonNullable<Awaited<ReturnType<typeof findUser>>>;

const toAdminUser = (r: Omit<UserRowWithBalances, 'telegram_id'>): AdminUser => ({
  id: r.id,
  email: r.email,
  role: r.role,
  email_confirmed: r.email_confirmed_at !== null,
  blocked: r.blocked_at !== null,
  balances: { words: Number(r.words), media: Number(r.media_tenths) / 10 },
  created_at: r.created_at.toISOString(),
});

export async function adminUsers(ctx: AppContext, query: { q: string; sort: 'id' | 'email' | 'created_at'; dir: 'asc' | 'desc'; page: number }) {
  const { rows, total } = await listUsers(ctx.db, query);
  return { data: rows.map(toAdminUser), last_page: lastPage(total) };
}

/** One user with their activity, as the admin's user screen shows them. */
export async function adminUser(db: Executor, id: number): Promise<AdminUserDetail> {
  const row = await findUser(db, id);
  if (!row) throw new AppError('NOT_FOUND', 'Пользователь не найден');
  const activity = await userActivity(db, id);
  return {
    ...toAdminUser(row),
    telegram_linked: row.telegram_id !== null,
    subscriptions: activity.subscriptions.map((s) => ({ id: s.id, tariff: s.name, status: s.status, amount: s.amount_kopecks / 100, created_at: s.created_at.toISOString() })),
    payments: activity.payments.map((p) => ({ id: p.id, kind: p.kind, status: p.status, amount: p.amount_kopecks / 100, currency: p.currency, created_at: p.created_at.toISOString() })),
    generations: activity.generations.map((g) => ({ id: g.id, product: g.product, status: g.status, created_at: g.created_at.toISOString() })),
    chats: activity.chats.map((c) => ({ id: c.id, title: c.title, messages: c.messages, updated_at: c.updated_at.toISOString() })),
    ledger: activity.ledger.map((l) => ({ id: l.id, kind: l.kind, amount: l.kind === 'media' ? l.amount / 10 : l.amount, reason: l.reason, note: l.note, created_at: l.created_at.toISOString() })),
  };
}

/**
 * Changes a user's role or blocks/unblocks them, in one transaction with its audit record. The
 * admins' rows are locked first, so two admins demoting each other at once cannot leave none.
 */
export async function updateUser(ctx: AppContext, actor: Viewer, id: number, change: { role?: 'user' | 'admin' | undefined; blocked?: boolean | undefined }): Promise<AdminUserDetail> {
  const detail = await ctx.db.transaction().execute(async (tx) => {
    await lockAdmins(tx);
    const user = await lockUserAccess(tx, id);
    if (!user) throw new AppError('NOT_FOUND', 'Пользователь не найден');
    const before = { role: user.role, blocked: user.blocked_at !== null };
    const after = { role: change.role ?? before.role, blocked: change.blocked ?? before.blocked };
    if (after.blocked && !before.blocked && id === actor.id) throw new AppError('SELF_BLOCK');
    const losesAdmin = before.role === 'admin' && !before.blocked && (after.role !== 'admin' || after.blocked);
    if (losesAdmin && (await otherActiveAdmins(tx, id)) === 0) throw new AppError('LAST_ADMIN');
    if (after.role !== before.role || after.blocked !== before.blocked) {
      await setUserAccess(tx, id, { role: after.role, blocked_at: after.blocked ? (user.blocked_at ?? new Date()) : null });
      // A new role is a new set of rights: the account signs in again (staff first enrol a second factor).
      if (after.role !== before.role) {
        await secondFactorForRole(tx, id, after.role);
        await revokeUserSessions(tx, id);
      }
      await recordAudit(tx, { actorId: actor.id, action: 'user.update', entity: 'user', entityId: id, before, after });
    }
    return adminUser(tx, id);
  });
  // This process's next request of that user sees the change at once (others by the trigger's NOTIFY).
  ctx.viewers.forgetUser(id);
  return detail;
}

/**
 * Adds to or takes from a wallet through the ledger with the admin's reason, once per
 * `request_id` (a repeated submit changes nothing); taking more than the balance is refused.
 */
export async function adjustBalance(
  ctx: AppContext,
  actor: Viewer,
  id: number,
  adjustment: { wallet: 'words' | 'media'; amount: number; reason: string; request_id: string },
): Promise<AdminUserDetail> {
  const units = adjustment.wallet === 'media' ? Math.round(adjustment.amount * 10) : adjustment.amount;
  if (!Number.isInteger(units)) throw fieldError('amount', 'Слова — целое число');
  const key = `admin-adjust:${adjustment.request_id}`;
  return ctx.db.transaction().execute(async (tx) => {
    const user = await lockUserForAdjustment(tx, id);
    if (!user) throw new AppError('NOT_FOUND', 'Пользователь не найден');
    const done = await ledgerLineOwner(tx, key);
    if (done) {
      if (done.user_id !== id) throw fieldError('request_id', 'Этот запрос уже применён к другому пользователю');
      return adminUser(tx, id);
    }
    const wallet = await lockWalletBalance(tx, id, adjustment.wallet);
    const before = wallet?.balance ?? 0;
    const entry = { userId: id, kind: adjustment.wallet, reason: 'admin_adjustment' as const, idempotencyKey: key, refType: 'admin', refId: actor.id, note: adjustment.reason };
    if (units > 0) await credit(tx, entry, units);
    else {
      if (before < -units) throw new AppError('BALANCE_TOO_LOW');
      await debitUpTo(tx, entry, -units);
    }
    const scale = adjustment.wallet === 'media' ? 10 : 1;
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'user.balance',
      entity: 'user',
      entityId: id,
      before: { wallet: adjustment.wallet, balance: before / scale },
      after: { wallet: adjustment.wallet, balance: (before + units) / scale, amount: adjustment.amount, reason: adjustment.reason },
    });
    return adminUser(tx, id);
  });
}
