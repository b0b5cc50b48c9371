import { z } from './zod-ru.ts';
import { defineRoute } from './route.ts';
import { PageQuerySchema, TimestampSchema, paginated } from './envelope.ts';
import { AUDIT_SORTS, USER_SORTS, adminPaths } from './admin.browser.ts';
import { IdSchema, storableText } from './fields.ts';
import { AdminUserUpdateSchema, BalanceAdjustmentSchema } from './admin-inputs.ts';
import { BalancesSchema, RoleSchema } from './accounts.contract.ts';

/** A background job that failed every attempt (mail, payment calls, generations…). */
export const JobFailureSchema = z.object({
  id: z.number().int(),
  job_id: z.string(),
  queue: z.string(),
  payload: z.unknown(),
  error: z.string(),
  attempts: z.number().int(),
  failed_at: TimestampSchema,
  resolved_at: TimestampSchema.nullable(),
});
export type JobFailure = z.infer<typeof JobFailureSchema>;

export const JobFailuresQuerySchema = PageQuerySchema.extend({
  /** `1`: only the ones nobody has dealt with yet. */
  unresolved: z.enum(['0', '1'], { error: 'Параметр unresolved должен быть 0 или 1' }).default('0'),
});

/**
 * What every admin list takes: the page, a search (`q`), and a sort — a column the list names
 * and a direction. Unknown columns are refused, so a sort is always by an indexed, known field.
 */
export const adminListQuery = <const C extends readonly [string, ...string[]]>(columns: C, fallback: C[number]) =>
  PageQuerySchema.extend({
    q: z.string().trim().max(200, 'Не длиннее 200 символов').check(storableText()).default(''),
    sort: z.enum(columns, { error: `Сортировка: ${columns.join(', ')}` }).default(fallback),
    dir: z.enum(['asc', 'desc'], { error: 'Направление: asc или desc' }).default('desc'),
  });

/** A user in the admin's list. */
export const AdminUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  role: RoleSchema,
  email_confirmed: z.boolean(),
  blocked: z.boolean(),
  balances: BalancesSchema,
  created_at: TimestampSchema,
});
export type AdminUser = z.infer<typeof AdminUserSchema>;

/** One user with what staff look at: their plan, payments, runs and chats (latest first). */
export const AdminUserDetailSchema = AdminUserSchema.extend({
  telegram_linked: z.boolean(),
  subscriptions: z.array(z.object({ id: z.number().int(), tariff: z.string(), status: z.string(), amount: z.number(), created_at: TimestampSchema })),
  payments: z.array(z.object({ id: z.number().int(), kind: z.string(), status: z.string(), amount: z.number(), currency: z.string(), created_at: TimestampSchema })),
  generations: z.array(z.object({ id: z.number().int(), product: z.string(), status: z.string(), created_at: TimestampSchema })),
  chats: z.array(z.object({ id: z.number().int(), title: z.string(), messages: z.number().int(), updated_at: TimestampSchema })),
  /** Ledger lines of both wallets, newest first. */
  ledger: z.array(z.object({ id: z.number().int(), kind: z.enum(['words', 'media']), amount: z.number(), reason: z.string(), note: z.string().nullable(), created_at: TimestampSchema })),
});
export type AdminUserDetail = z.infer<typeof AdminUserDetailSchema>;

/** A change staff made: who, what, when, and the record before and after. */
export const AuditEntrySchema = z.object({
  id: z.number().int(),
  actor_id: z.number().int().nullable(),
  actor_email: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entity_id: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  created_at: TimestampSchema,
  /** What the records its values refer to are called now (`category_id:1` → «Фото»; a deleted one is missing). */
  names: z.record(z.string(), z.string()).optional(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

const UserIdParams = z.object({ id: IdSchema });

/** Admin calls (`/api/admin/*`): admins only, 401 for guests, 403 for everyone else. */
export const adminRoutes = {
  jobFailures: defineRoute({
    ...adminPaths.jobFailures,
    summary: 'Background jobs that failed every attempt, newest first, 20 a page',
    tags: ['admin'],
    query: JobFailuresQuerySchema,
    response: paginated(JobFailureSchema),
  }),
  users: defineRoute({
    ...adminPaths.users,
    summary: 'Users, 20 a page: search by email (q), sort by id, email or created_at',
    tags: ['admin'],
    query: adminListQuery(USER_SORTS, 'id'),
    response: paginated(AdminUserSchema),
  }),
  user: defineRoute({
    ...adminPaths.user,
    summary: 'One user with balances, subscriptions, payments, runs, chats and ledger',
    tags: ['admin'],
    params: UserIdParams,
    response: AdminUserDetailSchema,
  }),
  updateUser: defineRoute({
    ...adminPaths.updateUser,
    summary: 'Changes a user’s role or blocks/unblocks them (never the last admin, never oneself); written to the audit log',
    tags: ['admin'],
    params: UserIdParams,
    body: AdminUserUpdateSchema,
    response: AdminUserDetailSchema,
  }),
  adjustBalance: defineRoute({
    ...adminPaths.adjustBalance,
    summary: 'Adds to or takes from a wallet through the ledger, with a required reason; once per request_id; written to the audit log',
    tags: ['admin'],
    params: UserIdParams,
    body: BalanceAdjustmentSchema,
    response: AdminUserDetailSchema,
  }),
  audit: defineRoute({
    ...adminPaths.audit,
    summary: 'The audit log: who changed what, when, before and after; search by entity, action or actor email',
    tags: ['admin'],
    query: adminListQuery(AUDIT_SORTS, 'id'),
    response: paginated(AuditEntrySchema),
  }),
} as const;
