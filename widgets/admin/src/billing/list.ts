import { useCallback } from 'react';
import type { Column } from '../AdminList.tsx';
import { listHref, readListQuery, type ListQuery } from '../routes.ts';

/** A parameter of the address (`?status=paid`), or null. */
export const param = (search: string, name: string): string | null => new URLSearchParams(search).get(name) || null;

/** A positive whole id from the address, or null. */
export function idParam(search: string, name: string): number | null {
  const value = param(search, name);
  return value && /^\d{1,12}$/.test(value) && Number(value) > 0 ? Number(value) : null;
}

/** A list's address: its search, sort and page, then its filters and the record open in a window (`?status=paid&payment=15`). */
export function billingHref(path: string, query: ListQuery, fallbackSort: string, extra: Readonly<Record<string, string | number | null>> = {}): string {
  const base = listHref(path, query, fallbackSort);
  const params = new URLSearchParams(base.slice(path.length + 1));
  for (const [name, value] of Object.entries(extra)) if (value !== null && value !== '') params.set(name, String(value));
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}

export interface ListAddress<F extends string> {
  /** Search, sort (one the list's columns sort by) and page. */
  query: ListQuery;
  /** The sort as the server takes it. */
  sort: string;
  /** Each filter's value, or null. */
  filters: Record<F, string | null>;
  /** Goes to another search, sort or page (the filters kept, the open record closed); replaces the address. */
  onQuery: (next: ListQuery) => void;
  /** Sets or clears a filter (back to the first page). */
  setFilter: (name: F, value: string | null) => void;
  /** The list's address with the filters and `extra` (a record to open). */
  href: (extra?: Readonly<Record<string, string | number | null>>) => string;
}

/**
 * The state of a billing list kept in the address: `?q=&sort=&dir=&page=`, its filters and the
 * record open in a window; every change replaces the address (a list is one history entry).
 */
export function useListAddress<T, F extends string>(opts: {
  path: string;
  search: string;
  fallbackSort: string;
  columns: readonly Column<T>[];
  filters: readonly F[];
  navigate: (href: string, options?: { replace?: boolean }) => void;
}): ListAddress<F> {
  const { path, search, fallbackSort, columns, navigate } = opts;
  const read = readListQuery(search, fallbackSort);
  const sort = columns.some((c) => c.sortable && c.key === read.sort) ? read.sort : fallbackSort;
  const query = { ...read, sort };
  const filters = Object.fromEntries(opts.filters.map((name) => [name, param(search, name)])) as Record<F, string | null>;
  const filtersKey = JSON.stringify(filters);
  const onQuery = useCallback((next: ListQuery) => navigate(billingHref(path, next, fallbackSort, JSON.parse(filtersKey) as Record<string, string | null>), { replace: true }), [navigate, path, fallbackSort, filtersKey]);
  return {
    query,
    sort,
    filters,
    onQuery,
    setFilter: (name, value) => navigate(billingHref(path, { ...query, page: 1 }, fallbackSort, { ...filters, [name]: value }), { replace: true }),
    href: (extra = {}) => billingHref(path, query, fallbackSort, { ...filters, ...extra }),
  };
}

/** A number typed in a Russian form: `1 990,50` → 1990.5; null when it is not one. */
export function typedNumber(text: string): number | null {
  const cleaned = text.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.');
  if (cleaned === '') return null;
  const n = Number(cleaned);
  return Number.isFinite(n) ? n : null;
}

/** The address parameters of a subscription and a payment open in a window over their lists. */
export const OPEN = { subscription: 'subscription', payment: 'payment' } as const;
export const subscriptionHref = (id: number) => `/admin/subscriptions?${OPEN.subscription}=${String(id)}`;
export const paymentHref = (id: number) => `/admin/payments?${OPEN.payment}=${String(id)}`;
