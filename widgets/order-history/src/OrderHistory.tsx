import { useState } from 'react';
import { Card, EmptyState, LoadError, Skeleton, formatDate, queryState, useRouteQuery, type LoadState } from '@app/kit';
import { Pagination } from '@app/kit/pagination';
import { Tabs } from '@app/kit/tabs';
import { orderHistoryApi, type OrderHistoryApi } from './api.ts';
import { ORDER_TABS, autoChargeRow, packageRow, subscriptionRow, type OrderRow, type OrdersTab } from './order-rows.ts';

export interface OrdersPage {
  rows: OrderRow[];
  lastPage: number;
}

export interface OrderHistoryViewProps {
  tab: OrdersTab;
  page: number;
  /** Page count of the tab as last known: pagination stays in place while a page loads. */
  lastPage: number;
  state: LoadState<OrdersPage>;
  paymentUrl: string;
  onTabChange: (tab: OrdersTab) => void;
  onPageChange: (page: number) => void;
  onRetry: () => void;
}

function OrderRecord({ row }: { row: OrderRow }) {
  return (
    <article className="order-record">
      <header className="order-record__head">
        <h3 className="order-record__name">{row.name}</h3>
        <span className="order-record__amount">{row.amount}</span>
      </header>
      <ul className="order-record__statuses" aria-label="Статус">
        {row.statuses.map((s) => (
          <li key={s.label} className={`status-badge status-badge--${s.tone}`}>
            {s.label}
          </li>
        ))}
      </ul>
      {row.notes.map((note) => (
        <p key={note} className="order-record__note">
          {note}
        </p>
      ))}
      <dl className="order-record__dates">
        <div>
          <dt>Создано</dt>
          <dd>
            <time dateTime={row.created_at}>{formatDate(row.created_at)}</time>
          </dd>
        </div>
        <div>
          <dt>Обновлено</dt>
          <dd>
            <time dateTime={row.updated_at}>{formatDate(row.updated_at)}</time>
          </dd>
        </div>
      </dl>
    </article>
  );
}

function Empty({ tab, paymentUrl }: { tab: OrdersTab; paymentUrl: string }) {
  if (tab === 'subscriptions') {
    return (
      <EmptyState title="У вас пока нет подписок">
        <p>Оформите подписку, чтобы каждый месяц получать слова и медиа токены.</p>
        <a className="btn btn-primary" href={paymentUrl}>
          Выбрать тариф
        </a>
      </EmptyState>
    );
  }
  if (tab === 'packages') {
    return (
      <EmptyState title="Пакетов пока не было">
        <p>Пакеты токенов докупаются к действующей подписке на странице тарифов.</p>
        <a className="btn btn-secondary" href={paymentUrl}>
          К тарифам
        </a>
      </EmptyState>
    );
  }
  return (
    <EmptyState title="Автосписаний пока не было">
      <p>Здесь появятся ежемесячные списания за подписку.</p>
    </EmptyState>
  );
}

/** The tabs of the order history (the seed's two and «Пакеты»), every state driven by props. */
export function OrderHistoryView({ tab, page, lastPage, state, paymentUrl, onTabChange, onPageChange, onRetry }: OrderHistoryViewProps) {
  const pages = state.status === 'ready' ? state.data.lastPage : lastPage;
  const hasRows = state.status !== 'ready' || state.data.rows.length > 0;
  return (
    <Card className="orders">
      <Tabs tabs={ORDER_TABS} current={tab} onChange={onTabChange} label="История заказов">
        <div className="orders__panel" aria-busy={state.status === 'loading' || undefined}>
        {state.status === 'loading' && <Skeleton lines={4} />}
        {state.status === 'error' && <LoadError message={state.message} onRetry={onRetry} />}
        {state.status === 'ready' && (state.data.rows.length ? state.data.rows.map((row) => <OrderRecord key={row.id} row={row} />) : <Empty tab={tab} paymentUrl={paymentUrl} />)}
        {hasRows && pages > 1 && state.status !== 'error' && (
          <>
            <p className="orders__position">
              Запись {page} из {pages}
            </p>
            <Pagination page={page} lastPage={pages} onChange={onPageChange} disabled={state.status === 'loading'} />
          </>
        )}
        </div>
      </Tabs>
    </Card>
  );
}

const PAYMENT_URL = '/dashboard/user/payment';

/** Order history (seed §2): «Подписки», «Авто списания» and the one-off «Пакеты», one record per page. */
export function OrderHistory({ api = orderHistoryApi }: { api?: OrderHistoryApi }) {
  const [tab, setTab] = useState<OrdersTab>('subscriptions');
  const [pages, setPages] = useState<Record<OrdersTab, number>>({ subscriptions: 1, payments: 1, packages: 1 });
  const [lastPages, setLastPages] = useState<Record<OrdersTab, number>>({ subscriptions: 1, payments: 1, packages: 1 });
  const page = pages[tab];

  const toPage = <T,>(toRow: (record: T) => OrderRow) => (r: { data: T[]; last_page: number }): OrdersPage => ({ rows: r.data.map(toRow), lastPage: r.last_page });
  // Both tabs keep their queries (switching back shows the cached page); only the shown one is enabled.
  const subscriptions = useRouteQuery(api.subscriptions, { query: { page: pages.subscriptions } }, { enabled: tab === 'subscriptions', select: toPage(subscriptionRow), placeholderData: (previous) => previous });
  const payments = useRouteQuery(api.autoCharges, { query: { page: pages.payments } }, { enabled: tab === 'payments', select: toPage(autoChargeRow), placeholderData: (previous) => previous });
  const packages = useRouteQuery(api.packages, { query: { page: pages.packages } }, { enabled: tab === 'packages', select: toPage(packageRow), placeholderData: (previous) => previous });
  const shown = { subscriptions, payments, packages }[tab];
  const state: LoadState<OrdersPage> = shown.isPlaceholderData ? { status: 'loading' } : queryState(shown);
  const known = shown.data?.lastPage;
  if (known !== undefined && known !== lastPages[tab]) setLastPages((pagesKnown) => ({ ...pagesKnown, [tab]: known }));

  return (
    <OrderHistoryView
      tab={tab}
      page={page}
      lastPage={lastPages[tab]}
      state={state}
      paymentUrl={PAYMENT_URL}
      onTabChange={setTab}
      onPageChange={(p) => setPages((known) => ({ ...known, [tab]: p }))}
      onRetry={() => void shown.refetch()}
    />
  );
}
