import { ADMIN_PAGE_SIZE } from '@app/contracts';

/** An `ILIKE` pattern for a substring typed into a search: `%` and `_` match themselves (backslash is Postgres's escape). */
export const containing = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Where a page of an admin list starts. */
export const pageOffset = (page: number) => (page - 1) * ADMIN_PAGE_SIZE;

/** The last page of a list of `total` rows (1 when empty). */
export const lastPage = (total: number) => Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE));
