import type { Endpoint } from './route.ts';

/* What of the balance contract the browser needs: the endpoint and the page size. */

export const balancePaths = {
  history: { method: 'GET', path: '/api/new/balance/history', access: 'user' },
} as const satisfies Record<string, Endpoint>;

/** Lines of the balance history a page. */
export const BALANCE_HISTORY_PAGE_SIZE = 20;
