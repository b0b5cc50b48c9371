import { SUBSCRIPTION_STATUSES, type AdminSubscription, type AdminSubscriptionDetail } from '@app/contracts/admin';
import { Button, LazyDialog, formatAmount, useRouteQuery } from '@app/kit';
import type { Column } from '../AdminList.tsx';
import type { AdminApi } from '../api.ts';
import { when } from '../texts.ts';
import { LogEvent } from './LogTab.tsx';
import { BillingList } from './BillingList.tsx';
import { OPEN, paymentHref, useListAddress } from './list.ts';
import { billingStatus, causeLabel, PAYMENT_KIND_LABELS, rub } from './texts.ts';
import { At, Facts, Lines, Loading, RoutedLink, StatusBadge, UserLink } from './ui.tsx';

const PATH = '/admin/subscriptions';
const FALLBACK_SORT = 'id';

type Navigate = (href: string, options?: { replace?: boolean }) => void;

/** A moment of a record's facts, or null (left out) when it has not happened. */
const optional = (iso: string | null) => (iso ? when(iso) : null);

export function subscriptionColumns(navigate: Navigate): readonly Column<AdminSubscription>[] {
  return [
    { key: 'id', label: '№', sortable: true, numeric: true, render: (s) => s.id },
    { key: 'email', label: 'Пользователь', render: (s) => <UserLink id={s.user_id} email={s.email} navigate={navigate} /> },
    { key: 'name', label: 'Тариф', render: (s) => s.name },
    {
      key: 'status',
      label: 'Статус',
      render: (s) => (
        <span className="admin-badges">
          <StatusBadge status={s.status} />
          {s.is_trial && <span className="admin-badge">Пробный период</span>}
        </span>
      ),
    },
    { key: 'amount', label: 'Сумма в месяц', sortable: true, numeric: true, render: (s) => formatAmount(s.amount, s.currency_provider) },
    { key: 'paid_at', label: 'Оплачена', sortable: true, render: (s) => <At iso={s.paid_at} /> },
    { key: 'period_end', label: 'Оплачена до', sortable: true, render: (s) => <At iso={s.period_end} /> },
    { key: 'created_at', label: 'Создана', sortable: true, render: (s) => <At iso={s.created_at} /> },
  ];
}

export const SUBSCRIPTION_STATUS_OPTIONS = SUBSCRIPTION_STATUSES.map((value) => ({ value, label: billingStatus(value) }));

/** «Подписки»: every user's subscriptions by status; one opens in a window with its log and payments (`?subscription=7`). */
export function SubscriptionsTab({ api, search, navigate }: { api: AdminApi; search: string; navigate: Navigate }) {
  const columns = subscriptionColumns(navigate);
  const address = useListAddress({ path: PATH, search, fallbackSort: FALLBACK_SORT, columns, filters: ['status'], navigate });
  const { query } = address;
  const status = SUBSCRIPTION_STATUSES.find((s) => s === address.filters.status);
  const list = useRouteQuery(api.subscriptions, { query: { q: query.q, status, sort: address.sort as 'id', dir: query.dir, page: query.page } }, { placeholderData: (prev) => prev });
  return (
    <BillingList
      title="Подписки"
      columns={columns}
      list={list}
      address={address}
      search={search}
      navigate={navigate}
      searchLabel="Поиск по email"
      empty={status ? `Подписок со статусом «${billingStatus(status)}» нет` : 'Подписок пока нет'}
      filter={{ name: 'status', label: 'Статус', options: SUBSCRIPTION_STATUS_OPTIONS }}
      dialog={{ param: OPEN.subscription, render: (id, onClose) => <SubscriptionDialog api={api} id={id} navigate={navigate} onClose={onClose} /> }}
    />
  );
}

/** One subscription in a window: its terms, dates, status log and payments. */
export function SubscriptionDialog({ api, id, navigate, onClose }: { api: AdminApi; id: number; navigate: Navigate; onClose: () => void }) {
  const subscription = useRouteQuery(api.subscription, { params: { id } });
  return (
    <LazyDialog
      title={subscription.data ? `Подписка №${String(id)} · ${subscription.data.name}` : `Подписка №${String(id)}`}
      className="admin-dialog"
      onClose={onClose}
      footer={
        <Button variant="secondary" onClick={onClose}>
          Закрыть
        </Button>
      }
    >
      <Loading query={subscription}>{() => subscription.data && <SubscriptionDetail subscription={subscription.data} navigate={navigate} />}</Loading>
    </LazyDialog>
  );
}

export function SubscriptionDetail({ subscription: s, navigate }: { subscription: AdminSubscriptionDetail; navigate: Navigate }) {
  const money = (n: number) => formatAmount(n, s.currency_provider);
  return (
    <div className="admin-detail">
      <Facts
        items={[
          ['Пользователь', <UserLink id={s.user_id} email={s.email} navigate={navigate} />],
          ['Статус', <StatusBadge status={s.status} />],
          ['Сумма в месяц', money(s.amount)],
          ['Первый платёж', `${money(s.first_amount)}${s.is_trial ? ' (пробный период)' : ''}`],
          ['Создана', when(s.created_at)],
          ['Оплачена', optional(s.paid_at)],
          ['Оплачена до', optional(s.period_end)],
          ['Отменена', optional(s.cancelled_at)],
          ['Закончилась', optional(s.ended_at)],
          ['Подписка CloudPayments', s.cp_subscription_id],
        ]}
      />
      <Lines title="Журнал" head={['Когда', 'Событие', 'Причина']} rows={s.log} rowKey={(l) => `${l.kind}:${String(l.id)}`} empty="Записей нет">
        {(l) => [<At iso={l.created_at} />, <LogEvent entry={l} />, causeLabel(l.cause)]}
      </Lines>
      <Lines title="Платежи" head={['№', 'Вид', 'Статус', 'Сумма', 'Возвращено', 'Создан']} rows={s.payments} rowKey={(p) => p.id} empty="Платежей нет">
        {(p) => [
          <RoutedLink href={paymentHref(p.id)} navigate={navigate}>
            {p.id}
          </RoutedLink>,
          PAYMENT_KIND_LABELS[p.kind] ?? p.kind,
          <StatusBadge status={p.status} />,
          formatAmount(p.amount, p.currency),
          p.refunded > 0 ? rub(p.refunded) : '—',
          <At iso={p.created_at} />,
        ]}
      </Lines>
    </div>
  );
}
