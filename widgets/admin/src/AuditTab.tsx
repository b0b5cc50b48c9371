import { useCallback } from 'react';
import { AUDIT_SORTS, type AuditEntry } from '@app/contracts/admin';
import { queryState, useRouteQuery } from '@app/kit';
import { routedClick } from '@app/kit/routing';
import { AdminList, type Column } from './AdminList.tsx';
import type { AdminApi } from './api.ts';
import { MAX_VALUE_LENGTH, SERVER_ACTIONS, actionLabel, changeLines, entityLabel, entryKind } from './audit-texts.ts';
import { At } from './billing/ui.tsx';
import { listHref, type ListQuery } from './routes.ts';

const PATH = '/admin/audit';

type Navigate = (href: string, options?: { replace?: boolean }) => void;

/** A value in the table: a long one is cut, the whole of it in its title. */
function Value({ text, strong = false }: { text: string; strong?: boolean }) {
  const cut = text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;
  const title = cut === text ? undefined : text;
  return strong ? <strong title={title}>{cut}</strong> : <span title={title}>{cut}</span>;
}

/** The fields of an entry: «Цена: 990 ₽ → 1 290 ₽», or a value alone (a new record, the wallet of a balance, a refund’s reason). */
export function Changes({ entry }: { entry: Pick<AuditEntry, 'entity' | 'before' | 'after' | 'names'> }) {
  const lines = changeLines(entry.entity, entry.before, entry.after, entry.names);
  const kind = entryKind(entry.before, entry.after);
  if (lines.length === 0) return <span className="admin-muted">Без подробностей</span>;
  return (
    <ul className={`admin-changes admin-changes--${kind}`}>
      {lines.map((line) => (
        <li key={line.field}>
          <span className="admin-changes__field">{line.label}:</span>{' '}
          {line.before === null ? (
            <Value text={line.after} strong={kind !== 'deleted'} />
          ) : (
            <>
              <Value text={line.before} /> → <Value text={line.after} strong />
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

export function auditColumns(navigate: Navigate): readonly Column<AuditEntry>[] {
  return [
    { key: 'created_at', label: 'Когда', sortable: true, render: (e) => <At iso={e.created_at} /> },
    { key: 'actor', label: 'Кто', render: (e) => e.actor_email ?? (e.actor_id === null ? (SERVER_ACTIONS.has(e.action) ? 'команда на сервере' : 'удалённый аккаунт') : `Пользователь №${String(e.actor_id)}`) },
    { key: 'action', label: 'Действие', render: (e) => actionLabel(e.action) },
    {
      key: 'entity',
      label: 'Объект',
      render: (e) => {
        const { text, href } = entityLabel(e.entity, e.entity_id);
        return href ? (
          <a href={href} onClick={routedClick(navigate, href)}>
            {text}
          </a>
        ) : (
          text
        );
      },
    },
    { key: 'changes', label: 'Что изменилось', render: (e) => <Changes entry={e} /> },
  ];
}

/** «Журнал действий»: who changed what, when, before and after; search by email or object (`user:42`; the server also matches an action's code). */
export function AuditTab({ api, query, navigate }: { api: AdminApi; query: ListQuery; navigate: Navigate }) {
  const sort = (AUDIT_SORTS as readonly string[]).includes(query.sort) ? (query.sort as (typeof AUDIT_SORTS)[number]) : 'id';
  const list = useRouteQuery(api.audit, { query: { q: query.q, sort, dir: query.dir, page: query.page } }, { placeholderData: (prev) => prev });
  const onQuery = useCallback((next: ListQuery) => navigate(listHref(PATH, next, 'id'), { replace: true }), [navigate]);
  return (
    <AdminList
      title="Журнал действий"
      columns={auditColumns(navigate)}
      state={list.isPlaceholderData ? { status: 'loading' } : queryState(list)}
      query={{ ...query, sort }}
      onQuery={onQuery}
      onRetry={() => void list.refetch()}
      searchLabel="Поиск: email или объект (user:42)"
      rowKey={(e) => e.id}
      navigate={navigate}
      empty="Изменений пока не было"
    />
  );
}
