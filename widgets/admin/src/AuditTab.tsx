import { useCallback } from 'react';
import { AUDIT_SORTS, type AuditEntry } from '@app/contracts/admin';
import { queryState, useRouteQuery } from '@app/kit';
import { AdminList, type Column } from './AdminList.tsx';
import type { AdminApi } from './api.ts';
import { listHref, type ListQuery } from './routes.ts';
import { ACTION_LABELS, when } from './texts.ts';

const PATH = '/admin/audit';

const show = (v: unknown) => (v === undefined || v === null ? '—' : typeof v === 'string' ? v : JSON.stringify(v));

/** The fields a change touched, each as «before → after». */
export function changes(before: unknown, after: unknown): { field: string; before: string; after: string }[] {
  const b = before && typeof before === 'object' ? (before as Record<string, unknown>) : {};
  const a = after && typeof after === 'object' ? (after as Record<string, unknown>) : {};
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return fields.filter((f) => JSON.stringify(b[f]) !== JSON.stringify(a[f])).map((field) => ({ field, before: show(b[field]), after: show(a[field]) }));
}

export const AUDIT_COLUMNS: readonly Column<AuditEntry>[] = [
  { key: 'created_at', label: 'Когда', sortable: true, render: (e) => when(e.created_at) },
  { key: 'actor', label: 'Кто', render: (e) => e.actor_email ?? (e.actor_id === null ? 'удалённый аккаунт' : `#${String(e.actor_id)}`) },
  { key: 'action', label: 'Действие', render: (e) => ACTION_LABELS[e.action] ?? e.action },
  { key: 'entity', label: 'Объект', render: (e) => `${e.entity} #${e.entity_id}` },
  {
    key: 'changes',
    label: 'Было → стало',
    render: (e) => (
      <ul className="admin-changes">
        {changes(e.before, e.after).map((c) => (
          <li key={c.field}>
            <code>{c.field}</code>: {c.before} → <strong>{c.after}</strong>
          </li>
        ))}
      </ul>
    ),
  },
];

/** «Журнал действий»: who changed what, when, before and after; search by action, object (`user:42`) or email. */
export function AuditTab({ api, query, navigate }: { api: AdminApi; query: ListQuery; navigate: (href: string, options?: { replace?: boolean }) => void }) {
  const sort = (AUDIT_SORTS as readonly string[]).includes(query.sort) ? (query.sort as (typeof AUDIT_SORTS)[number]) : 'id';
  const list = useRouteQuery(api.audit, { query: { q: query.q, sort, dir: query.dir, page: query.page } }, { placeholderData: (prev) => prev });
  const onQuery = useCallback((next: ListQuery) => navigate(listHref(PATH, next, 'id'), { replace: true }), [navigate]);
  return (
    <AdminList
      title="Журнал действий"
      columns={AUDIT_COLUMNS}
      state={list.isPlaceholderData ? { status: 'loading' } : queryState(list)}
      query={{ ...query, sort }}
      onQuery={onQuery}
      onRetry={() => void list.refetch()}
      searchLabel="Поиск: действие, объект (user:42) или email"
      rowKey={(e) => e.id}
      navigate={navigate}
      empty="Изменений пока не было"
    />
  );
}
