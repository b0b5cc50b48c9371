import { QueryClient, QueryClientContext, QueryClientProvider, useMutation, useQuery, type QueryKey, type UseMutationOptions, type UseQueryOptions } from '@tanstack/react-query';
import { useContext, type ReactNode } from 'react';
import { UNKNOWN_ERROR_MESSAGE, type ClientRoute, type RequestOf, type ResponseOf, type RouteContract } from '@app/contracts/browser';
import { ApiError, call, type CallOptions } from './api.ts';

/** The message to show for a failure: the server's (seed §8) or «Произошла ошибка». */
export const failureMessage = (err: unknown): string => (err instanceof ApiError ? err.message : UNKNOWN_ERROR_MESSAGE);

/** Like `failureMessage`, but only a reply the server actually sent counts: a network failure or a thrown bug reads as «Произошла ошибка». */
export const serverMessage = (err: unknown): string => (err instanceof ApiError && err.status > 0 ? err.message : UNKNOWN_ERROR_MESSAGE);

/** The arguments of a route's call: the request may be left out when the route takes none. */
type RequestArgs<R extends RouteContract> = object extends RequestOf<R> ? [request?: RequestOf<R>] : [request: RequestOf<R>];

/**
 * One contract route bound to its fetcher: what a widget's `api` object holds. Queries and
 * mutations take these, so their keys come from the route; tests replace the function
 * (`routeCall(route, fake)`) and keep the route.
 */
export interface RouteCall<R extends RouteContract> {
  (...args: RequestArgs<R>): Promise<ResponseOf<R>>;
  readonly route: ClientRoute<R>;
}

/** The route's call through `kit.call`, or through `fetcher` (a fake in tests and stories). */
export function routeCall<R extends RouteContract>(route: ClientRoute<R>, fetcher?: (request: RequestOf<R>) => Promise<ResponseOf<R>>, options?: CallOptions): RouteCall<R> {
  const fn = (request?: RequestOf<R>) => (fetcher ? fetcher(request ?? ({} as RequestOf<R>)) : call(route, request, options));
  return Object.assign(fn, { route });
}

/** Query key of a route: `[method, path]`, then the request (`[method, path, request]`). A key of the first two matches every request of the route. */
export function routeKey<R extends RouteContract>(route: ClientRoute<R>, request?: RequestOf<R>): QueryKey {
  return request === undefined ? [route.method, route.path] : [route.method, route.path, request];
}

/** Network failures and the server's 5xx may pass: try twice more; a 4xx answer is final. */
export function shouldRetry(failures: number, err: unknown): boolean {
  if (failures >= 2) return false;
  return err instanceof ApiError && (err.status === 0 || err.status >= 500);
}

/**
 * The defaults every widget's queries run with: retries only for network and server failures,
 * no refetch on window focus (a widget that shows data changing elsewhere, like balances,
 * opts in), data fresh for 30 s (widgets of one page asking the same route share one call).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, retryDelay: (attempt) => Math.min(500 * 2 ** attempt, 4000), refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

/** One client per page: the kit is supplied once by the loader, so every widget of a page shares this cache. */
export const pageQueryClient = createQueryClient();

/** A reply the page's server read for a widget (`<script id="page-data">`): a GET route's path, the request as its key holds it, the reply and when it was read. */
export interface PageReply {
  path: string;
  request: object;
  json: unknown;
  at: number;
}

/**
 * Puts the replies the server read while rendering the page into the query cache under the keys
 * the widgets' `useRouteQuery` will ask (`routeKey`), as of when they were read: a widget mounts
 * with its data (fresh for the usual `staleTime`), not with a request to make. Anything
 * malformed is skipped (the widget then asks itself).
 */
export function seedPageReplies(client: QueryClient, source: string | null | undefined): number {
  let replies: unknown;
  try {
    replies = JSON.parse(source ?? '[]');
  } catch {
    return 0;
  }
  if (!Array.isArray(replies)) return 0;
  let seeded = 0;
  for (const r of replies as unknown[]) {
    if (!isReply(r)) continue;
    client.setQueryData(['GET', r.path, r.request], r.json, { updatedAt: Math.min(r.at, Date.now()) });
    seeded++;
  }
  return seeded;
}

function isReply(value: unknown): value is PageReply {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<keyof PageReply, unknown>;
  return typeof r.path === 'string' && typeof r.request === 'object' && r.request !== null && typeof r.at === 'number' && r.json !== undefined;
}

/** Gives its children a query client (the page's unless one is passed: tests and stories pass their own). */
export function QueryProvider({ client = pageQueryClient, children }: { client?: QueryClient; children: ReactNode }) {
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/** The query client of the tree (a `QueryProvider`'s), or the page's: a component works without a provider (tests, stories). */
export function useKitQueryClient(): QueryClient {
  return useContext(QueryClientContext) ?? pageQueryClient;
}

type QueryExtras<R extends RouteContract, T> = Omit<UseQueryOptions<ResponseOf<R>, ApiError, T>, 'queryKey' | 'queryFn'>;

/**
 * Reads a route: `useRouteQuery(api.tariffs, { query: { frontend: '1' } })`. The key is the
 * route and request, the fetcher the `RouteCall`; `options` are TanStack Query's (`enabled`,
 * `refetchInterval`, `select`…).
 */
export function useRouteQuery<R extends RouteContract, T = ResponseOf<R>>(routeFn: RouteCall<R>, request?: RequestOf<R>, options: QueryExtras<R, T> = {}) {
  return useQuery<ResponseOf<R>, ApiError, T>(
    {
      queryKey: routeKey(routeFn.route, request ?? ({} as RequestOf<R>)),
      queryFn: () => (routeFn as unknown as (request?: RequestOf<R>) => Promise<ResponseOf<R>>)(request),
      ...options,
    },
    useKitQueryClient(),
  );
}

type MutationExtras<R extends RouteContract> = Omit<UseMutationOptions<ResponseOf<R>, ApiError, RequestOf<R>>, 'mutationKey' | 'mutationFn'> & {
  /** Routes whose queries are stale once this call succeeds (refetched if shown). */
  invalidates?: readonly { readonly route: ClientRoute }[];
};

/** Changes something through a route: `useRouteMutation(api.cancel, { invalidates: [api.check] })`. */
export function useRouteMutation<R extends RouteContract>(routeFn: RouteCall<R>, { invalidates = [], onSuccess, ...options }: MutationExtras<R> = {}) {
  const client = useKitQueryClient();
  return useMutation<ResponseOf<R>, ApiError, RequestOf<R>>(
    {
    mutationKey: routeKey(routeFn.route),
    mutationFn: (request) => (routeFn as unknown as (request?: RequestOf<R>) => Promise<ResponseOf<R>>)(request),
    ...options,
    onSuccess: async (...args) => {
      await Promise.all(invalidates.map((r) => client.invalidateQueries({ queryKey: routeKey(r.route) })));
      await onSuccess?.(...args);
    },
    },
    client,
  );
}

/** What a widget shows while reading its data: views take this, so every state has a story. */
export type LoadState<T> = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; data: T };

interface QueryLike {
  status: 'pending' | 'error' | 'success';
  data: unknown;
  error: unknown;
}
type DataOf<Q extends readonly QueryLike[]> = { [K in keyof Q]: Exclude<Q[K]['data'], undefined> };

/** The state of one or more queries as a view shows it: an error as soon as one fails, ready when all have data. */
export function combineQueries<const Q extends readonly QueryLike[], T>(queries: Q, combine: (data: DataOf<Q>) => T): LoadState<T> {
  const failed = queries.find((q) => q.status === 'error');
  if (failed) return { status: 'error', message: failureMessage(failed.error) };
  if (queries.some((q) => q.data === undefined)) return { status: 'loading' };
  return { status: 'ready', data: combine(queries.map((q) => q.data) as DataOf<Q>) };
}

/** The state of one query as a view shows it. */
export const queryState = <T,>(query: { status: 'pending' | 'error' | 'success'; data: T | undefined; error: unknown }): LoadState<T> => combineQueries([query] as const, ([data]) => data as T);
