import { useMemo } from 'react';
import type { RequestOf, ResponseOf, RouteContract } from '@app/contracts/browser';
import { routeCall, useRouteQuery, type RouteCall } from '@app/kit';
import type { AdminApi } from '../api.ts';

/** The most pages of choices read for a select (20 a page): catalogues are far smaller. */
const MAX_PAGES = 10;

type Listed<T> = { data: T[]; last_page: number };

/**
 * Every row of a catalogue list, for the choices of a select or a filter: the list's route with
 * its pages read one after another into one. Its request leaves out `q`, which every list's
 * request has, so the two never share a cache entry; a change that makes lists stale makes this
 * stale too (same route).
 */
function useEveryRow<R extends RouteContract>(call: RouteCall<R>, request: RequestOf<R>) {
  const everyPage = useMemo(
    () =>
      routeCall(call.route, async (req) => {
        const ask = (page: number) => (call as unknown as (r: unknown) => Promise<Listed<unknown>>)({ ...req, query: { ...(req as { query: object }).query, page } });
        const first = await ask(1);
        const rest = await Promise.all(Array.from({ length: Math.min(first.last_page, MAX_PAGES) - 1 }, (_, i) => ask(i + 2)));
        return { data: [first, ...rest].flatMap((p) => p.data), last_page: 1 } as ResponseOf<R>;
      }),
    [call],
  );
  return useRouteQuery(everyPage, request);
}

/** Every category, in the catalogue's order. */
export const useCategories = (api: AdminApi) => useEveryRow(api.aiCategories, { query: { sort: 'sort', dir: 'asc', page: 1 } });
/** Every model, in the catalogue's order. */
export const useModels = (api: AdminApi) => useEveryRow(api.aiModels, { query: { sort: 'sort', dir: 'asc', page: 1 } });
/** Every provider connection, by name. */
export const useProviders = (api: AdminApi) => useEveryRow(api.providers, { query: { sort: 'name', dir: 'asc', page: 1 } });
