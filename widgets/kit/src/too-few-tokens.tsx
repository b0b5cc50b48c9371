import { useId, type ReactNode } from 'react';
import type { ClientRoute, SubscribeCheck, billingEndpoints } from '@app/contracts/browser';
import { Button, MediaIcon, WordsIcon, useRouteQuery, type RouteCall } from '@app/kit';

/*
 * The too-few-tokens panel of the chat and the generation catalogue: one component, so both say
 * the same and lead to the same place. Not a host module: the two widgets that show it bundle
 * these few lines (the kit itself, which every page loads, stays as it is). Its imports of
 * `@app/kit` are host look-ups in a widget's build.
 */

/**
 * Where a user short of tokens can get more: with a current, renewing plan a package adds them
 * at once (`packages`); without a plan (`subscribe`), or with a cancelled one (`resubscribe`,
 * seed §4: no top-ups until it ends), only a plan helps, since the packages' buttons would look
 * disabled; `unknown` while the plan is not known yet.
 */
export type TopUp = 'packages' | 'subscribe' | 'resubscribe' | 'unknown';

/** The way to more tokens for the user's plan (`GET /api/new/subscribe/check`). */
export function topUpOf(check: SubscribeCheck | undefined): TopUp {
  if (!check) return 'unknown';
  if (check.subscriptions === null) return 'subscribe';
  return check.cancelled ? 'resubscribe' : 'packages';
}

type Wallet = 'words' | 'media';

/** The wallet in the genitive plural: «Недостаточно слов», «пакет медиа токенов». */
const OF: Record<Wallet, string> = { words: 'слов', media: 'медиа токенов' };
const ADVICE: Record<TopUp, (of: string) => string> = {
  packages: (of) => `Купите пакет ${of} — они придут на баланс сразу и не сгорают.`,
  subscribe: () => 'Подключите тариф: слова и медиа токены начисляются каждый месяц и не сгорают. Пакеты докупаются к действующей подписке.',
  resubscribe: () => 'Подписка отменена, поэтому пакеты к ней купить нельзя. Подключите тариф снова, чтобы пополнить баланс.',
  unknown: (of) => `Пополните баланс: подключите тариф или купите пакет ${of} к действующей подписке.`,
};

export interface TooFewTokensViewProps {
  /** The wallet that is short: its icon, title and package. */
  wallet: Wallet;
  /** What the work costs and what is on the balance, as the widget words it (a sentence or two). */
  children?: ReactNode;
  topUp: TopUp;
  plansUrl: string;
  packagesUrl: string;
  /** The panel's heading level in its page (the chat's composer: 3). */
  headingLevel?: 2 | 3;
  onDismiss: () => void;
}

/** The too-few-tokens panel, every state from props: why, what it costs, and the one way to more tokens that works for this user. */
export function TooFewTokensView({ wallet, children, topUp, plansUrl, packagesUrl, headingLevel = 2, onDismiss }: TooFewTokensViewProps) {
  const titleId = useId();
  const Heading = headingLevel === 3 ? 'h3' : 'h2';
  return (
    <section className="toofew" role="alert" aria-labelledby={titleId}>
      <div className="toofew__icon" aria-hidden="true">
        {wallet === 'words' ? <WordsIcon title="" /> : <MediaIcon title="" />}
      </div>
      <div className="toofew__body">
        <Heading id={titleId}>Недостаточно {OF[wallet]}</Heading>
        <p>
          {children} {ADVICE[topUp](OF[wallet])}
        </p>
        <div className="toofew__actions">
          {topUp === 'packages' ? (
            <>
              <a className="btn btn-primary" href={packagesUrl}>
                Купить пакет {OF[wallet]}
              </a>
              <a className="btn btn-secondary" href={plansUrl}>
                Сменить тариф
              </a>
            </>
          ) : (
            <a className="btn btn-primary" href={plansUrl}>
              Выбрать тариф
            </a>
          )}
          <Button variant="ghost" onClick={onDismiss}>
            Закрыть
          </Button>
        </div>
      </div>
    </section>
  );
}

type SubscribeCheckRoute = (typeof billingEndpoints.subscribeCheck) extends ClientRoute<infer R> ? R : never;

/**
 * The way to more tokens for the panel (`TooFewTokensView`'s `topUp`): reads the user's plan
 * through `check` (the widget's `GET /api/new/subscribe/check`) only while `shown`.
 */
export function useTopUp(check: RouteCall<SubscribeCheckRoute>, shown: boolean): TopUp {
  const plan = useRouteQuery(check, undefined, { enabled: shown });
  return topUpOf(plan.data);
}
