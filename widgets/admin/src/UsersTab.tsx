import { useCallback } from 'react';
import { USER_SORTS, type AdminUser } from '@app/contracts/admin';
import { formatMedia, formatWords, queryState, useRouteQuery } from '@app/kit';
import { AdminList, type Column } from './AdminList.tsx';
import type { AdminApi } from './api.ts';
import { listHref, type ListQuery } from './routes.ts';
import { ROLE_LABELS, when } from './texts.ts';
import { UserScreen } from './UserScreen.tsx';

const PATH = '/admin/users';

export const USER_COLUMNS: readonly Column<AdminUser>[] = [
  { key: 'email', label: 'Email', sortable: true, render: (u) => u.email },
  { key: 'id', label: 'ID', sortable: true, numeric: true, render: (u) => u.id },
  {
    key: 'role',
    label: 'Роль',
    render: (u) => (
      <span className="admin-badges">
        <span className={`admin-badge admin-badge--${u.role}`}>{ROLE_LABELS[u.role]}</span>
        {u.blocked && <span className="admin-badge admin-badge--danger">Заблокирован</span>}
        {!u.email_confirmed && <span className="admin-badge">Почта не подтверждена</span>}
      </span>
    ),
  },
  { key: 'words', label: 'Слова', numeric: true, render: (u) => formatWords(u.balances.words) },
  { key: 'media', label: 'Медиа', numeric: true, render: (u) => formatMedia(u.balances.media) },
  { key: 'created_at', label: 'Регистрация', sortable: true, render: (u) => when(u.created_at) },
];

export interface UsersTabProps {
  api: AdminApi;
  id: number | null;
  query: ListQuery;
  navigate: (href: string, options?: { replace?: boolean }) => void;
}

/** «Пользователи»: the list searched by email, and one user's screen. */
export function UsersTab({ api, id, query, navigate }: UsersTabProps) {
  if (id !== null) return <UserScreen api={api} id={id} navigate={navigate} />;
  return <UsersList api={api} query={query} navigate={navigate} />;
}

function UsersList({ api, query, navigate }: Omit<UsersTabProps, 'id'>) {
  const sort = (USER_SORTS as readonly string[]).includes(query.sort) ? (query.sort as (typeof USER_SORTS)[number]) : 'id';
  const list = useRouteQuery(api.users, { query: { q: query.q, sort, dir: query.dir, page: query.page } }, { placeholderData: (prev) => prev });
  const onQuery = useCallback((next: ListQuery) => navigate(listHref(PATH, next, 'id'), { replace: true }), [navigate]);
  return (
    <AdminList
      title="Пользователи"
      columns={USER_COLUMNS}
      state={list.isPlaceholderData ? { status: 'loading' } : queryState(list)}
      query={{ ...query, sort }}
      onQuery={onQuery}
      onRetry={() => void list.refetch()}
      searchLabel="Поиск по email"
      rowHref={(u) => `${PATH}/${String(u.id)}`}
      rowKey={(u) => u.id}
      navigate={navigate}
      empty="Пользователей пока нет"
    />
  );
}
