import type { Endpoint } from './route.ts';

/* What of the admin contract the browser needs: endpoints. */

export const adminPaths = {
  jobFailures: { method: 'GET', path: '/api/admin/jobs/failures', access: 'admin' },
  users: { method: 'GET', path: '/api/admin/users', access: 'admin' },
  user: { method: 'GET', path: '/api/admin/users/:id', access: 'admin' },
  updateUser: { method: 'PATCH', path: '/api/admin/users/:id', access: 'admin' },
  adjustBalance: { method: 'POST', path: '/api/admin/users/:id/balance', access: 'admin' },
  audit: { method: 'GET', path: '/api/admin/audit', access: 'admin' },
} as const satisfies Record<string, Endpoint>;

/** Rows of an admin list a page. */
export const ADMIN_PAGE_SIZE = 20;

/** The columns each admin list sorts by. */
export const USER_SORTS = ['id', 'email', 'created_at'] as const;
export const AUDIT_SORTS = ['id', 'created_at'] as const;
