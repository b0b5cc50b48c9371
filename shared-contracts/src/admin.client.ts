/**
 * The admin panel's contracts as the browser gets them (`@app/contracts/admin`): its endpoints
 * typed by their contracts, page size and sort columns. Plain data (no schema), bundled into
 * the admin widget, the one widget that uses it (a host module would add its loader entry to
 * every page's boot chunk).
 */
import type { adminRoutes } from './admin.contract.ts';
import { adminPaths } from './admin.browser.ts';
import type { ClientRoutes } from './route.ts';

export * from './admin.browser.ts';
export type { AdminUser, AdminUserDetail, AuditEntry, JobFailure } from './admin.contract.ts';

export const adminEndpoints: ClientRoutes<typeof adminRoutes> = adminPaths;
