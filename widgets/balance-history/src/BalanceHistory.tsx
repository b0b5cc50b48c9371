import { useEffect, useState, type ReactNode } from 'react';
import type { BalanceLine } from '@app/contracts/balance';
import type { Balances } from '@app/contracts/browser';
import { Card, EmptyState, LoadError, MediaIcon, Skeleton, WordsIcon, formatDate, formatMedia, formatWords, plural, queryState, useRouteMutation, useRouteQuery, type LoadState } from '@app/kit';
import { Pagination } from '@app/kit/pagination';
import { WORDS, amountText } from './amount-text.ts';
import { balanceHistoryApi, type BalanceHistoryApi } from './api.ts';
import { PromoRedeem } from './PromoRedeem.tsx';
import { ReferralView } from './Referral.tsx';
import { useCopy } from './promo-helpers.ts';

export interface HistoryPage {
  lines: BalanceLine[];
  lastPage: number;
}

export interface BalanceHistoryViewProps {
  state: LoadState<HistoryPage>;
  /** The balances now (the page's user query), or null while they load. */
  balances: Balances | null;
  page: number;
  /** Page count as last known: pagination stays in place while a page loads. */
  lastPage: number;
  paymentUrl: string;
  onPageChange: (page: number) => void;
  onRetry: () => void;
  /** Cards between the balances and the history (the promo code form, the referral link). */
  aside?: ReactNode;
}

function Now({ balances, paymentUrl }: { balances: Balances | null; paymentUrl: string }) {
  return (
    <Card title="Сейчас на балансе" className="balance-now">
      {balances ? (
        <ul className="balances">
          <li className="balances__item">
            <WordsIcon />
            <span className="balances__value">{formatWords(balances.words)}</span> <span className="balances__label">{plural(balances.words, WORDS)}</span>
          </li>
          <li className="balances__item">
            <MediaIcon />
            <span className="balances__value">{formatMedia(balances.media)}</span> <span className="balances__label">медиа токена</span>
          </li>
        </ul>
      ) : (
        <Skeleton lines={1} />
      )}
      <a className="balance-now__buy" href={paymentUrl}>
        Тарифы и пакеты
      </a>
    </Card>
  );
}

function Line({ line }: { line: BalanceLine }) {
  return (
    <li className={`ledger__line ledger__line--${line.kind}`}>
      <span className={`ledger__icon ledger__icon--${line.wallet}`}>{line.wallet === 'media' ? <MediaIcon /> : <WordsIcon />}</span>
      <div className="ledger__what">
        <p className="ledger__title">{line.title}</p>
        {line.note && <p className="ledger__note">{line.note}</p>}
        <p className="ledger__meta">
          <time dateTime={line.created_at}>{formatDate(line.created_at)}</time>
          {line.kind === 'reserved' && <span className="status-badge status-badge--muted">в работе</span>}
        </p>
      </div>
      <p className="ledger__amount">{amountText(line)}</p>
    </li>
  );
}

/** The balance history: the balances now and every change of them in words, newest first, every state from props. */
export function BalanceHistoryView({ state, balances, page, lastPage, paymentUrl, onPageChange, onRetry, aside }: BalanceHistoryViewProps) {
  const pages = state.status === 'ready' ? state.data.lastPage : lastPage;
  const empty = state.status === 'ready' && state.data.lines.length === 0 && page === 1;
  return (
    <div className="balance-history">
      <Now balances={balances} paymentUrl={paymentUrl} />
      <Card title="Движения по балансу" className="ledger">
        <div className="ledger__panel" aria-busy={state.status === 'loading' || undefined}>
          {state.status === 'loading' && <Skeleton lines={6} />}
          {state.status === 'error' && <LoadError message={state.message} onRetry={onRetry} />}
          {empty && (
            <EmptyState title="Пока ни одного движения">
              <p>Здесь появятся начисления по тарифу и пакетам, подарки, списания за ответы в чате и генерации и возвраты.</p>
              <a className="btn btn-primary" href={paymentUrl}>
                Выбрать тариф
              </a>
            </EmptyState>
          )}
          {state.status === 'ready' && state.data.lines.length > 0 && (
            <ol className="ledger__lines">
              {state.data.lines.map((line) => (
                <Line key={line.id} line={line} />
              ))}
            </ol>
          )}
          {!empty && pages > 1 && state.status !== 'error' && (
            <>
              <p className="ledger__position">
                Страница {page} из {pages}
              </p>
              <Pagination page={page} lastPage={pages} onChange={onPageChange} disabled={state.status === 'loading'} />
            </>
          )}
        </div>
      </Card>
      {/* Under the movements: what the page is opened for stays where the server drew it. */}
      {aside && <div className="balance-history__aside">{aside}</div>}
    </div>
  );
}

const PAYMENT_URL = '/dashboard/user/payment';

/** `?page=n` of the page's address (1 when missing or wrong). */
function pageFromUrl(): number {
  const page = Number(new URLSearchParams(window.location.search).get('page'));
  return Number.isInteger(page) && page > 0 ? page : 1;
}

/**
 * The balance history (`/dashboard/balance`): why the balances are what they are — bought, given,
 * spent on what, returned, changed by the service, refunded. The page is kept in the address
 * (`?page=n`), so a reload or a shared link opens the same page.
 */
export function BalanceHistory({ api = balanceHistoryApi }: { api?: BalanceHistoryApi }) {
  const [page, setPage] = useState(pageFromUrl);
  const [lastPage, setLastPage] = useState(1);
  const user = useRouteQuery(api.user, undefined, { refetchOnWindowFocus: true });
  const referral = useRouteQuery(api.referral);
  const redeem = useRouteMutation(api.redeem, { invalidates: [api.user, api.history] });
  const [copy, onCopy] = useCopy();
  const history = useRouteQuery(api.history, { query: { page } }, { select: (r): HistoryPage => ({ lines: r.data, lastPage: r.last_page }), placeholderData: (previous) => previous, refetchOnWindowFocus: true });
  const state: LoadState<HistoryPage> = history.isPlaceholderData ? { status: 'loading' } : queryState(history);
  const known = history.data?.lastPage;
  if (known !== undefined && !history.isPlaceholderData && known !== lastPage) setLastPage(known);

  useEffect(() => {
    const url = new URL(window.location.href);
    if (page === 1) url.searchParams.delete('page');
    else url.searchParams.set('page', String(page));
    if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url);
  }, [page]);

  return (
    <BalanceHistoryView
      state={state}
      balances={user.data?.balances ?? null}
      page={page}
      lastPage={lastPage}
      paymentUrl={PAYMENT_URL}
      onPageChange={(p) => {
        setPage(p);
        // The new page is read from its top (the buttons are under the list); jsdom has no scrollIntoView.
        const list = document.querySelector('.ledger');
        if (list && 'scrollIntoView' in list) list.scrollIntoView({ block: 'start', behavior: 'smooth' });
      }}
      onRetry={() => void history.refetch()}
      aside={
        <>
          <PromoRedeem redeem={(code) => redeem.mutateAsync({ body: { code } })} paymentUrl={PAYMENT_URL} />
          <ReferralView state={queryState(referral)} origin={window.location.origin} copy={copy} onCopy={onCopy} onRetry={() => void referral.refetch()} />
        </>
      }
    />
  );
}
