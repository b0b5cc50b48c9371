import { useEffect, useId, useState, type ReactNode } from 'react';
import { BILLING_TEXTS, type SubscribeCheck, type Tariff, type WidgetProps } from '@app/contracts/browser';
import { TEST_CARD_LIST } from '@app/contracts/test-cards';
import { Alert, Button, EmptyState, LoadError, Skeleton, Spinner, combineQueries, formatAmount, formatDate, formatWords, mediaTokens, plural, serverMessage, useKitQueryClient, useRouteMutation, useRouteQuery, routeKey, type LoadState } from '@app/kit';
import { Dialog } from '@app/kit/dialog';
import { tariffsApi, type TariffsApi } from './api.ts';
import { cloudPaymentsWidget, type PaymentWidget } from './payment-widget.ts';
import { DAYS, PlanCardFrame } from './PlanCard.tsx';
import { isPackage, planButton, trialApplies } from './plan.ts';
import { usePayment, type Busy, type PaymentOutcome } from './use-payment.ts';

export interface TariffsData {
  tariffs: Tariff[];
  check: SubscribeCheck;
}

export type { Busy };
export type OpenDialog = { kind: 'subscribe'; tariff: Tariff } | { kind: 'cancel'; tariff: Tariff } | null;
type NoticeBody = { kind: 'blocked'; text: string } | { kind: 'cancelled'; name: string; until: string | null } | PaymentOutcome;

/** What happened to a plan, shown in its card, where the user clicked. */
export type Notice = ({ tariffId: number } & NoticeBody) | null;

/** Where the success notice leads: the dashboard, whose conversion stub records the goal (target_2). */
export const AFTER_PAYMENT_URL = '/dashboard?payments=1';
export const CANCEL_LABEL = 'Отменить подписку';
export const POLL_DELAY_MS = 1000;
export const POLL_ATTEMPTS = 15;

const WORDS = ['слово', 'слова', 'слов'] as const;

export interface TariffsViewProps {
  state: LoadState<TariffsData>;
  sandbox: boolean;
  /** No payment can be made now: said up front, and every buy button says why it does nothing. */
  paymentsOff?: boolean;
  /** Packages bought during this visit. */
  purchased: readonly number[];
  busy: Busy;
  cancelBusy: boolean;
  notice: Notice;
  dialog: OpenDialog;
  onSelect: (tariff: Tariff) => void;
  onConfirmSubscribe: () => void;
  onCancelRequest: (tariff: Tariff) => void;
  onConfirmCancel: () => void;
  onCloseDialog: () => void;
  onRetry: () => void;
}

/** `4242424242424242` → `4242 4242 4242 4242`. */
const groups = (card: string) => card.replace(/(\d{4})(?=\d)/g, '$1 ');

function SandboxNote() {
  return (
    <div className="tariffs__sandbox" role="note">
      <p className="tariffs__sandbox-title">Тестовый режим оплаты</p>
      <p>Деньги не списываются. Оплачивайте тестовыми картами (срок — любой будущий, CVV — любой):</p>
      <ul>
        {TEST_CARD_LIST.map((card) => (
          <li key={card.number}>
            <code>{groups(card.number)}</code> — {card.label}
          </li>
        ))}
      </ul>
    </div>
  );
}

function PaymentsOffNote() {
  return (
    <div className="tariffs__sandbox tariffs__sandbox--off" role="note">
      <p className="tariffs__sandbox-title">Оплата временно недоступна</p>
      <p>Сейчас нельзя оформить подписку или купить пакет. Попробуйте позже — действующая подписка и токены на балансе сохраняются.</p>
    </div>
  );
}

function NoticeView({ notice }: { notice: Notice }) {
  if (!notice) return null;
  const home = (
    <a className="tariffs__home" href={AFTER_PAYMENT_URL}>
      На главную
    </a>
  );
  switch (notice.kind) {
    case 'blocked':
      return <Alert tone="warning">{notice.text}</Alert>;
    case 'error':
      return <Alert>{notice.text}</Alert>;
    case 'declined':
      return <Alert>Оплата не прошла: {notice.reason}</Alert>;
    case 'confirming':
      return (
        <Alert tone="info">
          <span className="tariffs__confirming">
            <Spinner label="Ждём подтверждения" /> Оплата прошла. Ждём подтверждения от платёжной системы…
          </span>
        </Alert>
      );
    case 'paid':
      return (
        <Alert tone="success">
          {notice.purchase === 'plan' ? `Оплата прошла: тариф «${notice.name}» подключён.` : `Покупка завершена: токены пакета «${notice.name}» зачислены на баланс.`} {home}
        </Alert>
      );
    case 'late':
      return <Alert tone="warning">Оплата прошла, но подтверждение от платёжной системы ещё не пришло. Обновите страницу через минуту.</Alert>;
    case 'cancelled':
      return (
        <Alert tone="info">
          Подписка отменена. Тариф «{notice.name}» {notice.until ? `действует до ${formatDate(notice.until)}` : 'действует до конца оплаченного периода'}, продлеваться он не будет.
        </Alert>
      );
  }
}

/**
 * What happens next with the current plan: the end of the trial and what will be charged then,
 * the next renewal, or that the last renewal charge failed (CloudPayments retries it).
 */
export function RenewalNote({ tariff, check }: { tariff: Tariff; check: SubscribeCheck }) {
  const amount = check.next_charge_amount === null ? null : formatAmount(check.next_charge_amount, tariff.currency_provider);
  if (check.past_due) {
    return (
      <p className="plan__meta plan__meta--warning" role="status">
        {BILLING_TEXTS.pastDue}
      </p>
    );
  }
  return (
    <>
      {check.card && <p className="plan__meta">Автопродление с карты {check.card}</p>}
      {check.trial && check.next_charge_at ? (
        <p className="plan__meta">
          Пробный период до {formatDate(check.next_charge_at)}. Затем {amount ? `спишем ${amount}` : 'начнётся оплата'} и дальше каждый месяц.
        </p>
      ) : (
        check.next_charge_at && (
          <p className="plan__meta">
            Следующее списание{amount ? ` ${amount}` : ''} — {formatDate(check.next_charge_at)}
          </p>
        )
      )}
    </>
  );
}

interface PlanCardProps {
  tariff: Tariff;
  check: SubscribeCheck;
  purchased: readonly number[];
  paymentsOff: boolean;
  busy: Busy;
  cancelBusy: boolean;
  notice: Notice;
  onSelect: (tariff: Tariff) => void;
  onCancelRequest: (tariff: Tariff) => void;
}

function PlanCard({ tariff, check, purchased, paymentsOff, busy, cancelBusy, notice, onSelect, onCancelRequest }: PlanCardProps) {
  const button = planButton(tariff, check, purchased, paymentsOff);
  const mine = button.kind === 'current' || button.kind === 'cancelled';
  const waiting = busy !== null || cancelBusy;
  let actions: ReactNode;
  switch (button.kind) {
    case 'current':
      actions = (
        <>
          <Button variant="secondary" block disabled>
            {button.label}
          </Button>
          <Button variant="ghost" block disabled={waiting} onClick={() => onCancelRequest(tariff)}>
            {CANCEL_LABEL}
          </Button>
          <RenewalNote tariff={tariff} check={check} />
        </>
      );
      break;
    case 'cancelled':
      actions = (
        <>
          <Button variant="secondary" block disabled>
            {button.label}
          </Button>
          <p className="plan__meta">{check.active_until ? `Действует до ${formatDate(check.active_until)}` : 'Действует до конца оплаченного периода'}</p>
        </>
      );
      break;
    case 'purchased':
      actions = (
        <Button variant="secondary" block disabled>
          {button.label}
        </Button>
      );
      break;
    case 'pay': {
      const spinning = busy?.tariffId === tariff.id;
      actions = (
        <Button block busy={spinning} disabled={waiting} looksDisabled={button.blockedReason !== null} onClick={() => onSelect(tariff)}>
          {button.label}
        </Button>
      );
      break;
    }
  }
  return (
    <PlanCardFrame tariff={tariff} check={check} mine={mine}>
      {actions}
      <NoticeView notice={notice} />
    </PlanCardFrame>
  );
}

function SubscribeDialog({ tariff, data, onConfirm, onClose }: { tariff: Tariff; data: TariffsData; onConfirm: () => void; onClose: () => void }) {
  const money = (n: number) => formatAmount(n, tariff.currency_provider);
  const current = data.check.subscriptions !== null && data.check.subscriptions !== tariff.id ? (data.tariffs.find((t) => t.id === data.check.subscriptions) ?? null) : null;
  const replacing = data.check.subscriptions !== null && data.check.subscriptions !== tariff.id;
  return (
    <Dialog
      title={`Подписка «${tariff.name}»`}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Отмена
          </Button>
          <Button onClick={onConfirm}>Перейти к оплате</Button>
        </>
      }
    >
      {trialApplies(tariff, data.check) ? (
        <p>
          Сейчас спишем {money(tariff.first_amount)} за пробный период {tariff.trial_days} {plural(tariff.trial_days, DAYS)}. Затем — {money(tariff.amount)} каждый месяц с
          автопродлением.
        </p>
      ) : (
        <p>Сейчас спишем {money(tariff.amount)} за первый месяц. Затем — {money(tariff.amount)} каждый месяц с автопродлением.</p>
      )}
      {(tariff.words > 0 || tariff.media > 0) && (
        <p>
          Каждый период начисляем {formatWords(tariff.words)} {plural(tariff.words, WORDS)} и {mediaTokens(tariff.media)}.
        </p>
      )}
      <p>Отменить подписку можно в любой момент: она будет действовать до конца оплаченного периода.</p>
      {replacing && (
        <p className="tariffs__replace">
          {current ? `Текущий тариф «${current.name}»` : 'Текущая подписка'} будет заменён новым без перерасчёта: за оставшиеся дни деньги не возвращаются.
        </p>
      )}
    </Dialog>
  );
}

function CancelDialog({ tariff, check, busy, onConfirm, onClose }: { tariff: Tariff; check: SubscribeCheck; busy: boolean; onConfirm: () => void; onClose: () => void }) {
  return (
    <Dialog
      title="Отменить подписку?"
      dismissible={!busy}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" disabled={busy} onClick={onClose}>
            {BILLING_TEXTS.no}
          </Button>
          <Button variant="danger" busy={busy} onClick={onConfirm}>
            {BILLING_TEXTS.yes}
          </Button>
        </>
      }
    >
      <p>
        Автопродление тарифа «{tariff.name}» отключится. Подписка будет действовать {check.active_until ? `до ${formatDate(check.active_until)}` : 'до конца оплаченного периода'}, но
        пополнять токены до её окончания будет нельзя.
      </p>
    </Dialog>
  );
}

function PlansSkeleton() {
  return (
    <ul className="plans" aria-busy="true">
      {[0, 1, 2].map((i) => (
        <li key={i} className="plan">
          <div className="plan__inner">
            <Skeleton lines={5} />
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The anchor of the packages section: `/dashboard/user/payment#packages`. */
export const PACKAGES_ANCHOR = 'packages';

/** Plan cards, confirmation windows and payment notices, every state driven by props. */
export function TariffsView(props: TariffsViewProps) {
  const { state, sandbox, paymentsOff = false, purchased, busy, cancelBusy, notice, dialog, onSelect, onConfirmSubscribe, onCancelRequest, onConfirmCancel, onCloseDialog, onRetry } = props;
  const plansTitleId = useId();
  const packagesTitleId = useId();
  const card = (tariff: Tariff, data: TariffsData) => (
    <PlanCard
      key={tariff.id}
      tariff={tariff}
      check={data.check}
      purchased={purchased}
      paymentsOff={paymentsOff}
      busy={busy}
      cancelBusy={cancelBusy}
      notice={notice?.tariffId === tariff.id ? notice : null}
      onSelect={onSelect}
      onCancelRequest={onCancelRequest}
    />
  );
  const data = state.status === 'ready' ? state.data : null;
  const plans = data?.tariffs.filter((t) => !isPackage(t)) ?? [];
  const packages = data?.tariffs.filter(isPackage) ?? [];
  const hasPackages = packages.length > 0;
  // A link to `#packages` (the chat's too-few-words panel, the dashboard) lands on the packages
  // once they are drawn: the browser looked for the anchor before the widget mounted.
  useEffect(() => {
    if (hasPackages && window.location.hash === `#${PACKAGES_ANCHOR}`) document.getElementById(PACKAGES_ANCHOR)?.scrollIntoView();
  }, [hasPackages]);
  return (
    <div className="tariffs">
      {paymentsOff ? <PaymentsOffNote /> : sandbox && <SandboxNote />}
      {state.status === 'error' && <LoadError message={state.message} onRetry={onRetry} />}
      {state.status === 'loading' && (
        <section className="tariffs__section">
          <h2>Подписки</h2>
          <PlansSkeleton />
        </section>
      )}
      {data && data.tariffs.length === 0 && <EmptyState title="Тарифы пока не добавлены">Загляните чуть позже.</EmptyState>}
      {data && plans.length > 0 && (
        <section className="tariffs__section" aria-labelledby={plansTitleId}>
          <h2 id={plansTitleId}>Подписки</h2>
          <ul className="plans">{plans.map((t) => card(t, data))}</ul>
        </section>
      )}
      {data && packages.length > 0 && (
        <section className="tariffs__section" id={PACKAGES_ANCHOR} aria-labelledby={packagesTitleId}>
          <h2 id={packagesTitleId}>Пакеты токенов</h2>
          <p className="tariffs__lead">Докупаются к действующей подписке. Токены не сгорают.</p>
          <ul className="plans">{packages.map((t) => card(t, data))}</ul>
        </section>
      )}
      {data && dialog?.kind === 'subscribe' && <SubscribeDialog tariff={dialog.tariff} data={data} onConfirm={onConfirmSubscribe} onClose={onCloseDialog} />}
      {data && dialog?.kind === 'cancel' && <CancelDialog tariff={dialog.tariff} check={data.check} busy={cancelBusy} onConfirm={onConfirmCancel} onClose={onCloseDialog} />}
    </div>
  );
}

export interface TariffsProps extends WidgetProps<'tariffs'> {
  api?: TariffsApi;
  widget?: PaymentWidget;
  pollDelayMs?: number;
  pollAttempts?: number;
}

/**
 * Tariff selection (seed §2, §4): plan cards, a confirmation before subscribing, cancel with
 * «Да» / «Нет», and payment through the payment widget (`usePayment`).
 */
export function Tariffs({ frontend, paymentScriptUrl, sandbox, paymentsOff, api = tariffsApi, widget = cloudPaymentsWidget, pollDelayMs = POLL_DELAY_MS, pollAttempts = POLL_ATTEMPTS }: TariffsProps) {
  const client = useKitQueryClient();
  const tariffs = useRouteQuery(api.tariffs, { query: { frontend: frontend ? '1' : '0' } });
  const check = useRouteQuery(api.check);
  const state = combineQueries([tariffs, check], ([t, c]): TariffsData => ({ tariffs: t, check: c }));
  const payment = usePayment({ api, widget, scriptUrl: paymentScriptUrl, pollDelayMs, pollAttempts });
  const [notice, setNotice] = useState<Notice>(null);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const cancel = useRouteMutation(api.cancel, {
    // The server's answer is the new state: no refetch needed.
    onSuccess: (result) => client.setQueryData<SubscribeCheck>(routeKey(api.check.route, {}), (old) => old && { ...old, cancelled: true, active_until: result.active_until }),
  });

  const say = (next: Notice) => {
    payment.dismiss();
    setNotice(next);
  };

  const onSelect = (tariff: Tariff) => {
    if (payment.busy || state.status !== 'ready') return;
    const button = planButton(tariff, state.data.check, payment.purchased, paymentsOff);
    if (button.kind !== 'pay') return;
    if (button.blockedReason) {
      say({ tariffId: tariff.id, kind: 'blocked', text: button.blockedReason });
      return;
    }
    say(null);
    if (isPackage(tariff)) payment.start(tariff);
    else setDialog({ kind: 'subscribe', tariff });
  };

  const onConfirmSubscribe = () => {
    if (dialog?.kind !== 'subscribe') return;
    setDialog(null);
    payment.start(dialog.tariff);
  };

  const onConfirmCancel = () => {
    if (dialog?.kind !== 'cancel' || cancel.isPending) return;
    const { tariff } = dialog;
    cancel.mutate(
      {},
      {
        onSuccess: (result) => say({ tariffId: tariff.id, kind: 'cancelled', name: tariff.name, until: result.active_until }),
        onError: (err) => say({ tariffId: tariff.id, kind: 'error', text: serverMessage(err) }),
        onSettled: () => setDialog(null),
      },
    );
  };

  const shown: Notice = payment.outcome ? { tariffId: payment.outcome.tariffId, ...payment.outcome.outcome } : notice;
  return (
    <TariffsView
      state={state}
      sandbox={sandbox}
      paymentsOff={paymentsOff}
      purchased={payment.purchased}
      busy={payment.busy}
      cancelBusy={cancel.isPending}
      notice={shown}
      dialog={dialog}
      onSelect={onSelect}
      onConfirmSubscribe={onConfirmSubscribe}
      onCancelRequest={(tariff) => {
        say(null);
        setDialog({ kind: 'cancel', tariff });
      }}
      onConfirmCancel={onConfirmCancel}
      onCloseDialog={() => setDialog(null)}
      onRetry={() => {
        if (tariffs.isError) void tariffs.refetch();
        if (check.isError) void check.refetch();
      }}
    />
  );
}
