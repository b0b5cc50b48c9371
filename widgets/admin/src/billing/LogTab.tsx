import type { SubscriptionLogEntry } from '@app/contracts/admin';
import { useRouteQuery } from '@app/kit';
import type { Column } from '../AdminList.tsx';
import { BillingList } from './BillingList.tsx';
import type { AdminApi } from '../api.ts';
import { subscriptionHref, useListAddress } from './list.ts';
import { causeLabel, rub } from './texts.ts';
import { At, RoutedLink, StatusBadge, UserLink } from './ui.tsx';

const PATH = '/admin/log';
const FALLBACK_SORT = 'created_at';

type Navigate = (href: string, options?: { replace?: boolean }) => void;

/** A line of the log as an event: a status change (`Активна → Отменена`) or a renewal charge that went through or not. */
export function LogEvent({ entry: e }: { entry: SubscriptionLogEntry }) {
  if (e.kind === 'charge') {
    return (
      <span className="admin-event">
        Списание {e.amount === null ? '' : rub(e.amount)} <StatusBadge status={e.success ? 'paid' : 'failed'} label={e.success ? 'прошло' : 'не прошло'} />
        {e.failure_reason && <span className="admin-muted"> {e.failure_reason}</span>}
      </span>
    );
  }
  const to = e.to_status ?? '';
  if (e.from_status === null || e.from_status === to) return <StatusBadge status={to} />;
  // A retry after a decline: the checkout closed by the decline, not a plan that ran out.
  const from = e.cause === 'paid_after_decline' ? <StatusBadge status="failed" label="Оплата отклонена" /> : <StatusBadge status={e.from_status} />;
  return (
    <span className="admin-event">
      {from} → <StatusBadge status={to} />
    </span>
  );
}

export function logColumns(navigate: Navigate): readonly Column<SubscriptionLogEntry>[] {
  return [
    { key: 'created_at', label: 'Когда', sortable: true, render: (e) => <At iso={e.created_at} /> },
    { key: 'email', label: 'Пользователь', render: (e) => <UserLink id={e.user_id} email={e.email} navigate={navigate} /> },
    {
      key: 'subscription',
      label: 'Подписка',
      render: (e) => (
        <RoutedLink href={subscriptionHref(e.subscription_id)} navigate={navigate}>
          №{e.subscription_id} · {e.plan}
        </RoutedLink>
      ),
    },
    { key: 'event', label: 'Событие', render: (e) => <LogEvent entry={e} /> },
    { key: 'cause', label: 'Причина', render: (e) => (e.kind === 'charge' ? 'Продление' : causeLabel(e.cause)) },
    { key: 'ref', label: 'Транзакция или ссылка', render: (e) => e.transaction_id ?? e.ref ?? '—' },
  ];
}

const KIND_OPTIONS = [
  { value: 'status', label: 'Смены статуса' },
  { value: 'charge', label: 'Списания за продление' },
] as const;

/** «Лог подписок»: status changes and renewal charges in one list, newest first. */
export function LogTab({ api, search, navigate }: { api: AdminApi; search: string; navigate: Navigate }) {
  const columns = logColumns(navigate);
  const address = useListAddress({ path: PATH, search, fallbackSort: FALLBACK_SORT, columns, filters: ['kind'], navigate });
  const { query } = address;
  const kind = KIND_OPTIONS.find((k) => k.value === address.filters.kind)?.value;
  const list = useRouteQuery(api.subscriptionLog, { query: { q: query.q, kind, sort: 'created_at', dir: query.dir, page: query.page } }, { placeholderData: (prev) => prev });
  return (
    <BillingList
      title="Лог подписок"
      columns={columns}
      list={list}
      address={address}
      search={search}
      navigate={navigate}
      searchLabel="Поиск: email, тариф, причина или транзакция"
      rowKey={(e) => `${e.kind}:${String(e.id)}`}
      empty={kind === 'charge' ? 'Списаний за продление ещё не было' : 'Записей пока нет'}
      filter={{ name: 'kind', label: 'Вид', options: KIND_OPTIONS }}
    />
  );
}
