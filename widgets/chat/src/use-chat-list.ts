import { useState } from 'react';
import type { ChatListItem } from '@app/contracts/browser';
import { routeCall, routeKey, useKitQueryClient, useRouteQuery } from '@app/kit';
import type { ChatApi } from './api.ts';
import { callFailure } from './chat-utils.ts';
import type { ChatEntry, ChatListState } from './types.ts';

/** Chats read at a time: one page of `per_page` ten (the seed's pages hold one chat; the list asks for ten at once). */
export const LIST_CHUNK = 10;

type ListPage = { data: ChatListItem[]; last_page: number };

/** Updates a chat in every cached list (the pages and the merged list have the same shape). */
export const mapListItems = (data: ListPage | undefined, update: (items: ChatListItem[]) => ChatListItem[]): ListPage | undefined => data && { ...data, data: update(data.data) };

/**
 * The sidebar's chats: the first page of `LIST_CHUNK`, then one more page at each `loadMore`.
 * Each page is cached on its own under the key of its request (the page's server reads the first
 * for it), so loading more fetches only the new page; the merged list is one query keyed by how
 * many pages it covers (`last_page` its pages of `LIST_CHUNK`). Invalidating the route's key
 * refreshes both.
 */
export function useChatList(api: ChatApi) {
  const client = useKitQueryClient();
  const [wanted, setWanted] = useState(1);
  const [merged] = useState(() =>
    routeCall(api.list.route, async (request): Promise<ListPage> => {
      const upTo = Number(request.query.page);
      const page = (n: number) => {
        const pageRequest = { query: { page: n, per_page: LIST_CHUNK } };
        return client.query({ queryKey: routeKey(api.list.route, pageRequest), queryFn: () => api.list(pageRequest), staleTime: 30_000 });
      };
      const first = await page(1);
      const last = Math.min(first.last_page, upTo);
      const rest = await Promise.all(Array.from({ length: Math.max(0, last - 1) }, (_, i) => page(i + 2)));
      // Pages shift while they are read (a chat added or deleted meanwhile): a chat is listed once.
      const seen = new Set<number>();
      const data = [first, ...rest].flatMap((p) => p.data).filter((c) => !seen.has(c.id) && Boolean(seen.add(c.id)));
      return { data, last_page: first.last_page };
    }),
  );
  const query = useRouteQuery(merged, { query: { page: wanted } }, { placeholderData: (previous) => previous });
  let state: ChatListState;
  if (query.data) {
    const items: ChatEntry[] = query.data.data.map((c) => ({ id: c.id, text: c.text }));
    state = { status: 'ready', items, hasMore: wanted < query.data.last_page, loadingMore: query.isPlaceholderData };
  } else if (query.isError) {
    state = { status: 'error', message: callFailure(query.error) };
  } else {
    state = { status: 'loading' };
  }
  return {
    state,
    loadMore: () => {
      if (query.data && wanted < query.data.last_page && !query.isPlaceholderData) setWanted((n) => n + 1);
    },
    retry: () => void query.refetch(),
    /** Reads the list again (a chat was added or deleted: every page shifts). */
    refresh: () => client.invalidateQueries({ queryKey: routeKey(api.list.route) }),
    /** Puts a renamed chat in place in every cached page. */
    replace: (item: ChatListItem) => client.setQueriesData<ListPage>({ queryKey: routeKey(api.list.route) }, (data) => mapListItems(data, (items) => items.map((c) => (c.id === item.id ? item : c)))),
  };
}
