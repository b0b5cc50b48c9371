import { useEffect, type ReactNode } from 'react';
import { preloadDialogKit, queryState } from '@app/kit';
import { AdminList, type AdminListProps } from '../AdminList.tsx';
import { idParam, type ListAddress } from './list.ts';
import { Filter, RoutedLink } from './ui.tsx';

type Navigate = (href: string, options?: { replace?: boolean }) => void;

/** What a list's query gives (a `useRouteQuery` of a paginated route). */
interface ListQueryResult<T> {
  isPlaceholderData: boolean;
  status: 'pending' | 'error' | 'success';
  data: { data: readonly T[]; last_page: number } | undefined;
  error: unknown;
  refetch: () => unknown;
}

export interface BillingListProps<T extends { id: number }, F extends string> extends Pick<AdminListProps<T>, 'title' | 'columns' | 'searchLabel' | 'empty'> {
  list: ListQueryResult<T>;
  address: ListAddress<F>;
  search: string;
  navigate: Navigate;
  /** A filter kept in the address (`?status=paid`). */
  filter?: { name: F; label: string; options: readonly { value: string; label: string }[] };
  /** Each record's own screen (`/admin/tariff/3`) and the way to a new one. */
  screens?: { path: string; newLabel: string };
  /** Each record opens in a window over the list, by an address parameter (`?payment=15`). */
  dialog?: { param: string; render: (id: number, onClose: () => void) => ReactNode };
  /** Rows whose ids repeat (the log's two kinds) need their own key. */
  rowKey?: (row: T) => string | number;
}

/**
 * A billing tab's list: the admin list over its query, with the search, sort, page and filter of
 * the address; its records open on their own screens or in a window kept in the address.
 */
export function BillingList<T extends { id: number }, F extends string>({ list, address, search, navigate, filter, screens, dialog, rowKey = (row) => row.id, ...rest }: BillingListProps<T, F>) {
  const hasDialog = dialog !== undefined;
  // The window's chunk is fetched while the list shows, so a record opens at once.
  useEffect(() => {
    if (hasDialog) preloadDialogKit();
  }, [hasDialog]);
  const open = dialog ? idParam(search, dialog.param) : null;
  const tools = (
    <>
      {filter && <Filter label={filter.label} value={address.filters[filter.name]} options={filter.options} onChange={(v) => address.setFilter(filter.name, v)} />}
      {screens && (
        <RoutedLink className="btn btn-primary" href={`${screens.path}?new=1`} navigate={navigate}>
          {screens.newLabel}
        </RoutedLink>
      )}
    </>
  );
  const rowHref = dialog ? (row: T) => address.href({ [dialog.param]: row.id }) : screens ? (row: T) => `${screens.path}/${String(row.id)}` : undefined;
  return (
    <>
      <AdminList
        {...rest}
        state={list.isPlaceholderData ? { status: 'loading' } : queryState(list)}
        query={address.query}
        onQuery={address.onQuery}
        onRetry={() => void list.refetch()}
        rowHref={rowHref}
        rowKey={rowKey}
        // A window opens over the list: the address is replaced, the list keeps its place.
        navigate={dialog ? (href) => navigate(href, { replace: true }) : navigate}
        tools={tools}
      />
      {dialog && open !== null && dialog.render(open, () => navigate(address.href(), { replace: true }))}
    </>
  );
}
