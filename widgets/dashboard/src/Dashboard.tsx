import { useId } from 'react';
import { BILLING_TEXTS, type Balances, type DashboardCard, type UserSubscriptionStatus, type WidgetProps } from '@app/contracts/browser';
import { Card, EmptyState, LoadError, MediaIcon, Skeleton, WordsIcon, combineQueries, formatMedia, formatWords, plural, useRouteQuery, type LoadState } from '@app/kit';
import { dashboardApi, type DashboardApi } from './api.ts';
import { NewsCard } from './NewsCard.tsx';

export interface DashboardData {
  subscription: UserSubscriptionStatus;
  balances: Balances;
  cards: DashboardCard[];
}

/** The balance history: every change of the balances, in words. */
export const BALANCE_URL = '/dashboard/balance';

export interface DashboardViewProps {
  state: LoadState<DashboardData>;
  paymentUrl: string;
  /** The balance history. */
  balanceUrl: string;
  onRetry: () => void;
}

const DAYS = ['день', 'дня', 'дней'] as const;
const days = (n: number) => `${String(n)} ${plural(n, DAYS)}`;

/** Said instead of the days to renewal while the last renewal charge has failed. */
export const PAST_DUE_NOTE = BILLING_TEXTS.pastDue;

/** Subscription block (seed §4): the plan and days to renewal, or no subscription with what to do. */
export function SubscriptionSummary({ subscription, paymentUrl }: { subscription: UserSubscriptionStatus; paymentUrl: string }) {
  const name = subscription.subscription?.name;
  if (subscription.status) {
    return (
      <div className="dashboard-sub dashboard-sub--active">
        <p className="dashboard-sub__label">Ваш тариф</p>
        <p className="dashboard-sub__name">{name ?? 'Подписка активна'}</p>
        {subscription.past_due ? (
          <p className="dashboard-sub__note dashboard-sub__note--warning">{PAST_DUE_NOTE}</p>
        ) : (
          <p className="dashboard-sub__note">{subscription.days_left > 0 ? `Автопродление через ${days(subscription.days_left)}` : 'Автопродление сегодня'}</p>
        )}
        <a className="btn btn-secondary" href={paymentUrl}>
          Сменить тариф
        </a>
      </div>
    );
  }
  return (
    <div className="dashboard-sub dashboard-sub--none">
      {subscription.days_left > 0 ? (
        <>
          <p className="dashboard-sub__label">Подписка отменена</p>
          <p className="dashboard-sub__name">{name ?? 'Подписка'}</p>
          <p className="dashboard-sub__note">Автопродление отключено. Действует ещё {days(subscription.days_left)}.</p>
        </>
      ) : (
        <>
          <p className="dashboard-sub__name">Нет активной подписки</p>
          <p className="dashboard-sub__note">Купите подписку, чтобы каждый месяц получать слова и медиа токены.</p>
        </>
      )}
      <a className="btn btn-primary" href={paymentUrl}>
        Выбрать тариф
      </a>
    </div>
  );
}

export function BalanceSummary({ balances }: { balances: Balances }) {
  return (
    <ul className="balances">
      <li className="balances__item">
        <WordsIcon />
        <span className="balances__value">{formatWords(balances.words)}</span>{' '}
        <span className="balances__label">{plural(balances.words, ['слово', 'слова', 'слов'])}</span>
      </li>
      <li className="balances__item">
        <MediaIcon />
        <span className="balances__value">{formatMedia(balances.media)}</span>{' '}
        {/* A number with a decimal part takes the genitive singular: «3,0 медиа токена». */}
        <span className="balances__label">медиа токена</span>
      </li>
    </ul>
  );
}

function DashboardSkeleton() {
  return (
    <div className="dashboard" aria-busy="true">
      <div className="dashboard__top">
        <Card title="Подписка">
          <Skeleton lines={3} />
        </Card>
        <Card title="Баланс">
          <Skeleton lines={2} />
        </Card>
      </div>
      <Card title="Новости и возможности">
        <Skeleton lines={4} />
      </Card>
    </div>
  );
}

/** The dashboard: subscription, balances and news cards, every state driven by props. */
export function DashboardView({ state, paymentUrl, balanceUrl, onRetry }: DashboardViewProps) {
  const newsTitleId = useId();
  if (state.status === 'loading') return <DashboardSkeleton />;
  if (state.status === 'error') {
    return (
      <Card className="dashboard-error">
        <LoadError message={state.message} onRetry={onRetry} />
      </Card>
    );
  }
  const { subscription, balances, cards } = state.data;
  // Packages are bought to a current, renewing plan (seed §4, §5): without one, tokens come with a plan.
  const buyUrl = subscription.status ? `${paymentUrl}#packages` : paymentUrl;
  return (
    <div className="dashboard">
      <div className="dashboard__top">
        <Card title="Подписка">
          <SubscriptionSummary subscription={subscription} paymentUrl={paymentUrl} />
        </Card>
        <Card title="Баланс">
          <BalanceSummary balances={balances} />
          <div className="dashboard__links">
            <a href={buyUrl}>Купить токены</a>
            <a href={balanceUrl}>История баланса</a>
          </div>
        </Card>
      </div>
      <section className="card dashboard-news" aria-labelledby={newsTitleId}>
        <h2 className="card__title" id={newsTitleId}>
          Новости и возможности
        </h2>
        {cards.length ? (
          <ul className="news-grid">
            {cards.map((card) => (
              <NewsCard key={card.id} card={card} />
            ))}
          </ul>
        ) : (
          <EmptyState title="Новостей пока нет">
            <p>Здесь появятся новости сервиса и новые нейросети.</p>
          </EmptyState>
        )}
      </section>
    </div>
  );
}

/**
 * Dashboard (seed §4): the subscription status, the balances and the news cards. The user (with
 * the balances) is the page's shared query: another widget that changes the balances (the
 * welcome gift) updates it, and it is read again when the tab comes back into view (tokens are
 * spent in other tabs).
 */
export function Dashboard({ paymentUrl, balanceUrl = BALANCE_URL, api = dashboardApi }: WidgetProps<'dashboard'> & { balanceUrl?: string; api?: DashboardApi }) {
  const subscription = useRouteQuery(api.subscriptionStatus);
  const user = useRouteQuery(api.user, undefined, { refetchOnWindowFocus: true });
  const cards = useRouteQuery(api.cards);
  const queries = [subscription, user, cards] as const;
  const state = combineQueries(queries, ([s, u, c]): DashboardData => ({ subscription: s, balances: u.balances, cards: c }));
  const onRetry = () => {
    for (const query of queries) if (query.isError) void query.refetch();
  };
  return <DashboardView state={state} paymentUrl={paymentUrl} balanceUrl={balanceUrl} onRetry={onRetry} />;
}
