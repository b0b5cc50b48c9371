import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { BILLING_TEXTS, TEST_CARD_LIST, type PaymentStart, type SubscribeCheck, type Tariff, type WidgetProps } from '@app/contracts';
import { Alert, Button, EmptyState, LoadError, MediaIcon, Modal, Skeleton, Spinner, WordsIcon, formatAmount, formatDate, formatMedia, formatWords, plural, serverMessage, useLoad, type LoadState } from '@app/kit';
import { tariffsApi, type TariffsApi } from './api.ts';
import { cloudPaymentsWidget, type PaymentWidget } from './payment-widget.ts';
import { descriptionParts, isPackage, planButton, trialApplies } from './plan.ts';

export interface TariffsData {
  tariffs: Tariff[];
  check: SubscribeCheck;
}

/** A payment under way: the button of its plan spins, the others wait. */
export type Busy = { tariffId: number; phase: 'starting' | 'paying' | 'confirming' } | null;
export type Dialog = { kind: 'subscribe'; tariff: Tariff } | { kind: 'cancel'; tariff: Tariff } | null;
type NoticeBody =
  | { kind: 'blocked'; text: string }
  | { kind: 'error'; text: string }
  | { kind: 'declined'; reason: string }
  | { kind: 'confirming' }
  | { kind: 'paid'; purchase: 'plan' | 'package'; name: string }
  | { kind: 'late' }
  | { kind: 'cancelled'; name: string; until: string | null };

/** What happened to a plan, shown in its card, where the user clicked. */
export type Notice = ({ tariffId: number } & NoticeBody) | null;

/** Where the success notice leads: the dashboard, whose conversion stub records the goal (target_2). */
export const AFTER_PAYMENT_URL = '/dashboard?payments=1';
export const CANCEL_LABEL = 'Отменить подписку';
export const POLL_DELAY_MS = 1000;
export const POLL_ATTEMPTS = 15;

const DAYS = ['день', 'дня', 'дней'] as const;
const WORDS = ['слово', 'слова', 'слов'] as const;

export interface TariffsViewProps {
  state: LoadState<TariffsData>;
  sandbox: boolean;
  /** Packages bought during this visit. */
  purchased: readonly number[];
  busy: Busy;
  cancelBusy: boolean;
  notice: Notice;
  dialog: Dialog;
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

function Description({ lines }: { lines: readonly string[] }) {
  return (
    <ul className="plan__features">
      {lines.map((line, i) => (
        <li key={`${String(i)}:${line}`}>
          {descriptionParts(line).map((part, j) =>
            part.type === 'text' ? <span key={j}>{part.text}</span> : part.icon === 'words' ? <WordsIcon key={j} /> : <MediaIcon key={j} />,
          )}
        </li>
      ))}
    </ul>
  );
}

function Price({ tariff, check }: { tariff: Tariff; check: SubscribeCheck }) {
  const money = (n: number) => formatAmount(n, tariff.currency_provider);
  if (isPackage(tariff)) {
    return (
      <p className="plan__price">
        <span className="plan__amount">{money(tariff.amount)}</span> <span className="plan__period">разовая покупка</span>
      </p>
    );
  }
  if (trialApplies(tariff, check)) {
    return (
      <div className="plan__price">
        <p>
          <span className="plan__amount">{money(tariff.first_amount)}</span>{' '}
          <span className="plan__period">
            за {tariff.trial_days} {plural(tariff.trial_days, DAYS)}
          </span>
        </p>
        <p className="plan__then">потом {money(tariff.amount)}/мес</p>
      </div>
    );
  }
  return (
    <p className="plan__price">
      <span className="plan__amount">{money(tariff.amount)}</span> <span className="plan__period">в месяц</span>
    </p>
  );
}

interface PlanCardProps {
  tariff: Tariff;
  check: SubscribeCheck;
  purchased: readonly number[];
  busy: Busy;
  cancelBusy: boolean;
  notice: Notice;
  onSelect: (tariff: Tariff) => void;
  onCancelRequest: (tariff: Tariff) => void;
}

function PlanCard({ tariff, check, purchased, busy, cancelBusy, notice, onSelect, onCancelRequest }: PlanCardProps) {
  const nameId = useId();
  const button = planButton(tariff, check, purchased);
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
          {check.card && <p className="plan__meta">Автопродление с карты {check.card}</p>}
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
    <li className={['plan', tariff.popular ? 'plan--popular' : '', mine ? 'plan--current' : ''].filter(Boolean).join(' ')}>
      <article className="plan__inner" aria-labelledby={nameId}>
        {tariff.popular && <span className="plan__badge">Популярный</span>}
        <h3 className="plan__name" id={nameId}>
          {tariff.name}
        </h3>
        <Price tariff={tariff} check={check} />
        <Description lines={tariff.description} />
        <div className="plan__actions">
          {actions}
          <NoticeView notice={notice} />
        </div>
      </article>
    </li>
  );
}

function SubscribeDialog({ tariff, data, onConfirm, onClose }: { tariff: Tariff; data: TariffsData; onConfirm: () => void; onClose: () => void }) {
  const money = (n: number) => formatAmount(n, tariff.currency_provider);
  const current = data.check.subscriptions !== null && data.check.subscriptions !== tariff.id ? (data.tariffs.find((t) => t.id === data.check.subscriptions) ?? null) : null;
  const replacing = data.check.subscriptions !== null && data.check.subscriptions !== tariff.id;
  return (
    <Modal
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
          Каждый период начисляем {formatWords(tariff.words)} {plural(tariff.words, WORDS)} и {formatMedia(tariff.media)} медиа токена.
        </p>
      )}
      <p>Отменить подписку можно в любой момент: она будет действовать до конца оплаченного периода.</p>
      {replacing && (
        <p className="tariffs__replace">
          {current ? `Текущий тариф «${current.name}»` : 'Текущая подписка'} будет заменён новым без перерасчёта: за оставшиеся дни деньги не возвращаются.
        </p>
      )}
    </Modal>
  );
}

function CancelDialog({ tariff, check, busy, onConfirm, onClose }: { tariff: Tariff; check: SubscribeCheck; busy: boolean; onConfirm: () => void; onClose: () => void }) {
  return (
    <Modal
      title="Отменить подписку?"
      onClose={busy ? () => undefined : onClose}
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
    </Modal>
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

/** Plan cards, confirmation windows and payment notices, every state driven by props. */
export function TariffsView(props: TariffsViewProps) {
  const { state, sandbox, purchased, busy, cancelBusy, notice, dialog, onSelect, onConfirmSubscribe, onCancelRequest, onConfirmCancel, onCloseDialog, onRetry } = props;
  const plansTitleId = useId();
  const packagesTitleId = useId();
  const card = (tariff: Tariff, data: TariffsData) => (
    <PlanCard
      key={tariff.id}
      tariff={tariff}
      check={data.check}
      purchased={purchased}
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
  return (
    <div className="tariffs">
      {sandbox && <SandboxNote />}
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
        <section className="tariffs__section" aria-labelledby={packagesTitleId}>
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

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface TariffsProps extends WidgetProps<'tariffs'> {
  api?: TariffsApi;
  widget?: PaymentWidget;
  pollDelayMs?: number;
  pollAttempts?: number;
}

/**
 * Tariff selection (seed §2, §4): plan cards, a confirmation before subscribing, cancel with
 * «Да» / «Нет», and payment through the payment widget. The widget's word is not trusted:
 * after its success the plan (or the package's tokens) is awaited from the server.
 */
export function Tariffs({ frontend, paymentScriptUrl, sandbox, api = tariffsApi, widget = cloudPaymentsWidget, pollDelayMs = POLL_DELAY_MS, pollAttempts = POLL_ATTEMPTS }: TariffsProps) {
  const load = useCallback(async (): Promise<TariffsData> => {
    const [tariffs, check] = await Promise.all([api.tariffs(frontend), api.check()]);
    return { tariffs, check };
  }, [api, frontend]);
  const { state, reload, update } = useLoad(load);
  const [purchased, setPurchased] = useState<number[]>([]);
  const [busy, setBusy] = useState<Busy>(null);
  const [cancelBusy, setCancelBusy] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  /** Polls the payment until the server's notification has marked it paid; then the plan state. */
  const awaitConfirmation = async (paymentId: number): Promise<SubscribeCheck | null> => {
    for (let attempt = 0; attempt < pollAttempts; attempt++) {
      if (attempt > 0) await sleep(pollDelayMs);
      if (!alive.current) return null;
      try {
        const payment = await api.paymentStatus(paymentId);
        if (payment.status === 'paid') return await api.check();
        if (payment.status !== 'pending') return null;
      } catch {
        // A failed poll is simply retried.
      }
    }
    return null;
  };

  const startPayment = async (tariff: Tariff) => {
    const asPackage = isPackage(tariff);
    setNotice(null);
    setBusy({ tariffId: tariff.id, phase: 'starting' });
    let start: PaymentStart;
    try {
      await api.paymentKey();
      await widget.load(paymentScriptUrl);
      start = asPackage ? await api.payPackage(tariff.id) : await api.paySubscription(tariff.id);
    } catch (err) {
      setBusy(null);
      setNotice({ tariffId: tariff.id, kind: 'error', text: serverMessage(err) });
      return;
    }
    setBusy({ tariffId: tariff.id, phase: 'paying' });
    let outcome;
    try {
      outcome = await widget.charge(start.options);
    } catch (err) {
      setBusy(null);
      setNotice({ tariffId: tariff.id, kind: 'error', text: serverMessage(err) });
      return;
    }
    if (outcome.status !== 'success') {
      setBusy(null);
      if (outcome.status === 'fail') setNotice({ tariffId: tariff.id, kind: 'declined', reason: outcome.reason });
      return;
    }
    setBusy({ tariffId: tariff.id, phase: 'confirming' });
    setNotice({ tariffId: tariff.id, kind: 'confirming' });
    const confirmed = await awaitConfirmation(start.payment_id);
    if (!alive.current) return;
    setBusy(null);
    if (!confirmed) {
      setNotice({ tariffId: tariff.id, kind: 'late' });
      return;
    }
    update((data) => ({ ...data, check: confirmed }));
    if (asPackage) setPurchased((ids) => [...ids, tariff.id]);
    setNotice({ tariffId: tariff.id, kind: 'paid', purchase: asPackage ? 'package' : 'plan', name: tariff.name });
  };

  const onSelect = (tariff: Tariff) => {
    if (busy || state.status !== 'ready') return;
    const button = planButton(tariff, state.data.check, purchased);
    if (button.kind !== 'pay') return;
    if (button.blockedReason) {
      setNotice({ tariffId: tariff.id, kind: 'blocked', text: button.blockedReason });
      return;
    }
    setNotice(null);
    if (isPackage(tariff)) void startPayment(tariff);
    else setDialog({ kind: 'subscribe', tariff });
  };

  const onConfirmSubscribe = () => {
    if (dialog?.kind !== 'subscribe') return;
    setDialog(null);
    void startPayment(dialog.tariff);
  };

  const onConfirmCancel = async () => {
    if (dialog?.kind !== 'cancel' || cancelBusy) return;
    setCancelBusy(true);
    try {
      const result = await api.cancel();
      update((data) => ({ ...data, check: { ...data.check, cancelled: true, active_until: result.active_until } }));
      setNotice({ tariffId: dialog.tariff.id, kind: 'cancelled', name: dialog.tariff.name, until: result.active_until });
    } catch (err) {
      setNotice({ tariffId: dialog.tariff.id, kind: 'error', text: serverMessage(err) });
    } finally {
      setCancelBusy(false);
      setDialog(null);
    }
  };

  return (
    <TariffsView
      state={state}
      sandbox={sandbox}
      purchased={purchased}
      busy={busy}
      cancelBusy={cancelBusy}
      notice={notice}
      dialog={dialog}
      onSelect={onSelect}
      onConfirmSubscribe={onConfirmSubscribe}
      onCancelRequest={(tariff) => {
        setNotice(null);
        setDialog({ kind: 'cancel', tariff });
      }}
      onConfirmCancel={() => void onConfirmCancel()}
      onCloseDialog={() => setDialog(null)}
      onRetry={reload}
    />
  );
}
