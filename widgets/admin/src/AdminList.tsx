import { useEffect, useId, useState, type ReactNode } from 'react';
import { EmptyState, LoadError, type LoadState } from '@app/kit';
import { Pagination } from '@app/kit/pagination';
import { routedClick } from '@app/kit/routing';
import type { ListQuery } from './routes.ts';
import { ScrollArea } from './ScrollArea.tsx';

export interface Column<T> {
  key: string;
  label: string;
  /** A column the server sorts by (its name in `sort`). */
  sortable?: boolean;
  render: (row: T) => ReactNode;
  /** Right-aligned (numbers). */
  numeric?: boolean;
}

export interface AdminListProps<T> {
  title: string;
  columns: readonly Column<T>[];
  state: LoadState<{ data: readonly T[]; last_page: number }>;
  query: ListQuery;
  onQuery: (next: ListQuery) => void;
  onRetry: () => void;
  searchLabel: string;
  /** The row's single screen, when the list has one. */
  rowHref?: (row: T) => string;
  navigate: (href: string) => void;
  rowKey: (row: T) => string | number;
  empty: string;
  /** Above the table, beside the search (filters, «Создать»…). */
  tools?: ReactNode;
}

/** How long the search waits after the last key before it asks the server. */
export const SEARCH_DELAY_MS = 300;

/**
 * An admin list: search, sorting and pages all on the server (the query lives in the address,
 * so a link or back and forward show the same page), with loading, empty and error states.
 */
export function AdminList<T>({ title, columns, state, query, onQuery, onRetry, searchLabel, rowHref, navigate, rowKey, empty, tools }: AdminListProps<T>) {
  const searchId = useId();
  const [typed, setTyped] = useState(query.q);
  const [shownQ, setShownQ] = useState(query.q);
  // The address changed from outside (back, a link): the box shows its search.
  if (shownQ !== query.q) {
    setShownQ(query.q);
    setTyped(query.q);
  }
  useEffect(() => {
    if (typed === query.q) return;
    const timer = setTimeout(() => onQuery({ ...query, q: typed.trim(), page: 1 }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, query, onQuery]);
  const sortBy = (key: string) => onQuery({ ...query, sort: key, dir: query.sort === key && query.dir === 'desc' ? 'asc' : 'desc', page: 1 });
  const rows = state.status === 'ready' ? state.data.data : [];
  return (
    <section className="admin-list" aria-label={title}>
      <div className="admin-list__tools">
        <label className="visually-hidden" htmlFor={searchId}>
          {searchLabel}
        </label>
        <input id={searchId} className="field__input admin-list__search" type="search" placeholder={searchLabel} value={typed} maxLength={200} onChange={(e) => setTyped(e.target.value)} />
        {tools}
      </div>
      {state.status === 'error' && <LoadError message={state.message} onRetry={onRetry} />}
      {state.status !== 'error' && (
        <ScrollArea label={title}>
          <table className="admin-table" aria-busy={state.status === 'loading'}>
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c.key} scope="col" className={c.numeric ? 'is-numeric' : undefined} aria-sort={query.sort === c.key ? (query.dir === 'asc' ? 'ascending' : 'descending') : undefined}>
                    {c.sortable ? (
                      <button type="button" className="admin-table__sort" onClick={() => sortBy(c.key)}>
                        {c.label}
                        <span aria-hidden="true">{query.sort === c.key ? (query.dir === 'asc' ? ' ↑' : ' ↓') : ' ↕'}</span>
                      </button>
                    ) : (
                      c.label
                    )}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {state.status === 'loading' &&
                [0, 1, 2, 3, 4].map((i) => (
                  <tr key={`s${String(i)}`} className="admin-table__skeleton">
                    {columns.map((c) => (
                      <td key={c.key}>
                        <span className="skeleton__line" />
                      </td>
                    ))}
                  </tr>
                ))}
              {rows.map((row) => {
                const href = rowHref?.(row);
                return (
                  <tr key={rowKey(row)} className={href ? 'is-link' : undefined}>
                    {columns.map((c, i) => (
                      <td key={c.key} className={c.numeric ? 'is-numeric' : undefined}>
                        {href && i === 0 ? (
                          <a href={href} onClick={routedClick(navigate, href)}>
                            {c.render(row)}
                          </a>
                        ) : (
                          c.render(row)
                        )}
                      </td>
                    ))}
                  </tr>
                );
              })}
            </tbody>
          </table>
          {state.status === 'ready' && rows.length === 0 && <EmptyState title={query.q ? `Ничего не найдено по запросу «${query.q}»` : empty} />}
        </ScrollArea>
      )}
      {state.status === 'ready' && <Pagination page={query.page} lastPage={state.data.last_page} onChange={(page) => onQuery({ ...query, page })} />}
    </section>
  );
}
