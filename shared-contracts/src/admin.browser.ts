import type { Endpoint } from './route.ts';

/* What of the admin contract the browser needs: endpoints. */

export const adminPaths = {
  jobFailures: { method: 'GET', path: '/api/admin/jobs/failures', access: 'admin' },
} as const satisfies Record<string, Endpoint>;
