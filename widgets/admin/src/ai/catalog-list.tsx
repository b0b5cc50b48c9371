import { useCallback, useId, useMemo, type ReactNode } from 'react';
import { Alert, type LoadState } from '@app/kit';
import { routedClick } from '@app/kit/routing';
import { AdminList, type Column } from '../AdminList.tsx';
import { listHref, readListQuery, type ListQuery } from '../routes.ts';
import { useFlash } from './record.tsx';

type Navigate = (href: string, options?: { replace?: boolean }) => void;

/** A filter of a list kept in the address beside its search, sort and page: its name in the query and the values it takes. */
export interface FilterSpec<F extends string> {
  name: F;
  label: string;
  /** «Все …»: the filter off. */
  all: string;
  options: readonly { value: string; label: string }[];
  /** Whether a value from the address is one this filter takes (anything else counts as off). */
  valid: (value: string) => boolean;
}

/** Digits of a positive id. */
export const isId = (value: string) => /^[1-9]\d{0,9}$/.test(value);

/**
 * A catalogue list's state in the address: `?q=&sort=&dir=&page=` and its filters; a change
 * replaces the address (the list asks the server again), a filter returns to the first page.
 */
export function useListAddress<S extends string, F extends string>(path: string, search: string, sorts: readonly S[], filters: readonly Pick<FilterSpec<F>, 'name' | 'valid'>[], navigate: Navigate) {
  return useMemo(() => {
    const read = readListQuery(search, 'id');
    const sort = ((sorts as readonly string[]).includes(read.sort) ? read.sort : 'id') as S;
    const params = new URLSearchParams(search);
    const values = Object.fromEntries(
      filters.map((f) => {
        const value = params.get(f.name) ?? '';
        return [f.name, f.valid(value) ? value : ''];
      }),
    ) as Record<F, string>;
    const href = (query: ListQuery, next: Record<F, string>) => {
      const base = listHref(path, query, 'id');
      const extra = new URLSearchParams(Object.entries<string>(next).filter(([, v]) => v !== ''));
      if (!extra.size) return base;
      return `${base}${base.includes('?') ? '&' : '?'}${extra.toString()}`;
    };
    const query = { ...read, sort };
    return {
      query,
      filters: values,
      onQuery: (next: ListQuery) => navigate(href(next, values), { replace: true }),
      setFilter: (name: F, value: string) => navigate(href({ ...query, page: 1 }, { ...values, [name]: value }), { replace: true }),
    };
    // `filters` and `sorts` are constants of each list.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [path, search, navigate]);
}

export interface CatalogListProps<T, F extends string> {
  title: string;
  path: string;
  columns: readonly Column<T>[];
  state: LoadState<{ data: readonly T[]; last_page: number }>;
  address: ReturnType<typeof useListAddress<string, F>>;
  filters?: readonly FilterSpec<F>[];
  onRetry: () => void;
  searchLabel: string;
  empty: string;
  /** The «Создать» link's label (`{path}?new=1`). */
  createLabel: string;
  navigate: Navigate;
  /** Under the list (a note). */
  footer?: ReactNode;
}

/** A catalogue list: AdminList with its filters and «Создать» beside the search, and the message of what was just done (a deletion). */
export function CatalogList<T extends { id: number }, F extends string = never>({ title, path, columns, state, address, filters = [], onRetry, searchLabel, empty, createLabel, navigate, footer }: CatalogListProps<T, F>) {
  const id = useId();
  const flash = useFlash();
  const newHref = `${path}?new=1`;
  const onQuery = useCallback((next: ListQuery) => address.onQuery(next), [address]);
  const tools = (
    <>
      {filters.map((f) => (
        <span key={f.name} className="ai-filter">
          <label className="visually-hidden" htmlFor={`${id}-${f.name}`}>
            {f.label}
          </label>
          <select id={`${id}-${f.name}`} className="field__input" value={address.filters[f.name]} onChange={(e) => address.setFilter(f.name, e.target.value)}>
            <option value="">{f.all}</option>
            {f.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </span>
      ))}
      <a className="btn btn-primary ai-create" href={newHref} onClick={routedClick(navigate, newHref)}>
        {createLabel}
      </a>
    </>
  );
  const filtered = filters.some((f) => address.filters[f.name] !== '');
  return (
    <>
      {flash && <Alert tone="success">{flash}</Alert>}
      <AdminList
        title={title}
        columns={columns}
        state={state}
        query={address.query}
        onQuery={onQuery}
        onRetry={onRetry}
        searchLabel={searchLabel}
        rowHref={(row) => `${path}/${String(row.id)}`}
        rowKey={(row) => row.id}
        navigate={navigate}
        empty={filtered ? 'С такими условиями ничего нет' : empty}
        tools={tools}
      />
      {footer}
    </>
  );
}
