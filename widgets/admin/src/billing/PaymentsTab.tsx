import { useId, useRef, useState, type SyntheticEvent } from 'react';
import { INVOICE_STATUSES, RefundRequestSchema, checkInput, type AdminPayment, type AdminPaymentDetail } from '@app/contracts/admin';
import { EmailText, Alert, ApiError, Button, LazyDialog, failureMessage, formatAmount, routeKey, useKitQueryClient, useRouteQuery } from '@app/kit';
import type { Column } from '../AdminList.tsx';
import type { AdminApi } from '../api.ts';
import { LEDGER_REASONS, walletAmount, when } from '../texts.ts';
import { BillingList } from './BillingList.tsx';
import { DuplicateCharges } from './DuplicateCharges.tsx';
import { CsvExport } from './CsvExport.tsx';
import { newRequestId } from '../request-id.ts';
import { OPEN, subscriptionHref, typedNumber, useListAddress } from './list.ts';
import { billingStatus, failureReason, PAYMENT_KIND_LABELS, REFUND_STATUS_LABELS, rub } from './texts.ts';
import { At, Facts, Lines, Loading, RoutedLink, StatusBadge, UserLink } from './ui.tsx';

const PATH = '/admin/payments';
const FALLBACK_SORT = 'id';
/** While a refund waits for CloudPayments, its payment is read again this often. */
export const REFUND_POLL_MS = 3000;

type Navigate = (href: string, options?: { replace?: boolean }) => void;

/** A moment of a record's facts, or null (left out) when it has not happened. */
const optional = (iso: string | null) => (iso ? when(iso) : null);

/** What went back and what is on its way back: `200 ₽ + 100 ₽ в пути`. */
function refundedText(p: Pick<AdminPayment, 'refunded' | 'refunding'>): string {
  if (p.refunded === 0 && p.refunding === 0) return '—';
  return [p.refunded > 0 ? rub(p.refunded) : null, p.refunding > 0 ? `${rub(p.refunding)} в пути` : null].filter(Boolean).join(' + ');
}

export function paymentColumns(navigate: Navigate): readonly Column<AdminPayment>[] {
  return [
    { key: 'id', label: '№', sortable: true, numeric: true, render: (p) => p.id },
    { key: 'email', label: 'Пользователь', render: (p) => <UserLink id={p.user_id} email={p.email} navigate={navigate} /> },
    {
      key: 'tariff',
      label: 'За что',
      render: (p) => (
        <>
          {`${PAYMENT_KIND_LABELS[p.kind] ?? p.kind} «${p.tariff}»`}
          {p.duplicate_of !== null && <span className="admin-badge admin-badge--warning admin-badge--inline">Повторная оплата №{p.duplicate_of}</span>}
        </>
      ),
    },
    { key: 'status', label: 'Статус', render: (p) => <StatusBadge status={p.status} /> },
    { key: 'amount', label: 'Сумма', sortable: true, numeric: true, render: (p) => formatAmount(p.amount, p.currency) },
    { key: 'refunded', label: 'Возвращено', numeric: true, render: refundedText },
    { key: 'transaction_id', label: 'Транзакция', render: (p) => p.transaction_id ?? '—' },
    { key: 'paid_at', label: 'Оплачен', sortable: true, render: (p) => <At iso={p.paid_at} /> },
    { key: 'created_at', label: 'Создан', sortable: true, render: (p) => <At iso={p.created_at} /> },
  ];
}

const STATUS_OPTIONS = INVOICE_STATUSES.map((value) => ({ value, label: billingStatus(value) }));

/** «Платежи»: every payment by status, searched by email or transaction; one opens in a window with its refunds and the refund form (`?payment=15`); a period's payments and ledger download as CSV. */
export function PaymentsTab({ api, search, navigate }: { api: AdminApi; search: string; navigate: Navigate }) {
  const columns = paymentColumns(navigate);
  const address = useListAddress({ path: PATH, search, fallbackSort: FALLBACK_SORT, columns, filters: ['status'], navigate });
  const { query } = address;
  const status = INVOICE_STATUSES.find((s) => s === address.filters.status);
  const list = useRouteQuery(api.payments, { query: { q: query.q, status, sort: address.sort as 'id', dir: query.dir, page: query.page } }, { placeholderData: (prev) => prev });
  return (
    <>
      <BillingList
        title="Платежи"
        columns={columns}
        list={list}
        address={address}
        search={search}
        navigate={navigate}
        searchLabel="Поиск по email или номеру транзакции"
        empty={status ? `Платежей со статусом «${billingStatus(status)}» нет` : 'Платежей пока нет'}
        filter={{ name: 'status', label: 'Статус', options: STATUS_OPTIONS }}
        dialog={{ param: OPEN.payment, render: (id, onClose) => <PaymentDialog api={api} id={id} navigate={navigate} onClose={onClose} /> }}
      />
      <CsvExport api={api} kinds={['payments', 'ledger']} />
    </>
  );
}

/** One payment in a window: what it was for, its refunds and ledger lines, and the refund form. */
export function PaymentDialog({ api, id, navigate, onClose }: { api: AdminApi; id: number; navigate: Navigate; onClose: () => void }) {
  const payment = useRouteQuery(api.payment, { params: { id } }, { refetchInterval: (q) => (q.state.data?.refunds.some((r) => r.status === 'requested') ? REFUND_POLL_MS : false) });
  return (
    <LazyDialog
      title={`Платёж №${String(id)}`}
      className="admin-dialog"
      onClose={onClose}
      footer={
        <Button variant="secondary" onClick={onClose}>
          Закрыть
        </Button>
      }
    >
      <Loading query={payment}>{() => payment.data && <PaymentDetail api={api} payment={payment.data} navigate={navigate} />}</Loading>
    </LazyDialog>
  );
}

export function PaymentDetail({ api, payment: p, navigate }: { api: AdminApi; payment: AdminPaymentDetail; navigate: Navigate }) {
  const client = useKitQueryClient();
  const money = (n: number) => formatAmount(n, p.currency);
  const show = (next: AdminPaymentDetail) => {
    client.setQueryData(routeKey(api.payment.route, { params: { id: p.id } }), next);
    void client.invalidateQueries({ queryKey: routeKey(api.payments.route) });
  };
  return (
    <div className="admin-detail">
      <Facts
        items={[
          ['Пользователь', <UserLink id={p.user_id} email={p.email} navigate={navigate} />],
          ['За что', p.description || `${PAYMENT_KIND_LABELS[p.kind] ?? p.kind} «${p.tariff}»`],
          ['Статус', <StatusBadge status={p.status} />],
          ['Сумма', money(p.amount)],
          ['Возвращено', p.refunded > 0 ? money(p.refunded) : null],
          ['Возвращается', p.refunding > 0 ? money(p.refunding) : null],
          ['Можно вернуть', p.status === 'paid' ? money(p.refundable) : null],
          ['Транзакция CloudPayments', p.transaction_id],
          [
            'Подписка',
            p.subscription_id === null ? null : (
              <RoutedLink href={subscriptionHref(p.subscription_id)} navigate={navigate}>
                №{p.subscription_id}
              </RoutedLink>
            ),
          ],
          ['Создан', when(p.created_at)],
          ['Оплачен', optional(p.paid_at)],
          ['Возвращён', optional(p.refunded_at)],
        ]}
      />
      {p.failure_reason && <Alert tone="warning">Причина отказа: {failureReason(p.failure_reason)}</Alert>}
      <DuplicateCharges payment={p} navigate={navigate} />
      <Lines title="Возвраты" head={['Когда', 'Сумма', 'Статус', 'Причина', 'Кто']} rows={p.refunds} rowKey={(r) => r.id} empty="Возвратов не было">
        {(r) => [
          <At iso={r.created_at} />,
          r.applied !== null && r.applied !== r.amount ? `${money(r.applied)} из ${money(r.amount)}` : money(r.amount),
          <StatusBadge status={r.status} label={REFUND_STATUS_LABELS[r.status] ?? r.status} />,
          r.reason ?? '—',
          r.actor_email ?? (r.cause !== null ? 'Автоматически' : r.actor_id === null ? 'CloudPayments' : `#${String(r.actor_id)}`),
        ]}
      </Lines>
      <RefundForm api={api} payment={p} onDone={show} />
      <Lines title="Движение токенов" head={['Когда', 'Кошелёк', 'Сумма', 'Причина']} rows={p.ledger} rowKey={(l) => l.id} empty="Токены по этому платежу не начислялись">
        {(l) => [
          <At iso={l.created_at} />,
          l.kind === 'media' ? 'Медиа' : 'Слова',
          <span className={l.amount < 0 ? 'is-negative' : 'is-positive'}>{(l.amount > 0 ? '+' : '') + walletAmount(l.kind, l.amount)}</span>,
          LEDGER_REASONS[l.reason] ?? l.reason,
        ]}
      </Lines>
    </div>
  );
}

/** What became of the refund the form asked for, as its payment now says: asked, done or refused. */
function sentMessage(sent: { id: number | null; amount: number }, payment: AdminPaymentDetail, money: (n: number) => string): { tone: 'success' | 'info' | 'error'; text: string } {
  const refund = payment.refunds.find((r) => r.id === sent.id);
  const amount = money(refund?.amount ?? sent.amount);
  if (refund?.status === 'done') return { tone: 'success', text: `Возврат ${amount} проведён: CloudPayments подтвердил его, токены в той же доле списаны.` };
  if (refund?.status === 'failed') return { tone: 'error', text: `CloudPayments отклонил возврат ${amount}. Деньги и токены остались на месте.` };
  return { tone: 'info', text: `Возврат ${amount} запрошен. Деньги и токены спишутся, когда CloudPayments подтвердит его.` };
}

/** What the server's refusal of a refund means for the admin. */
function refundFailure(err: unknown): string {
  if (err instanceof ApiError && err.code === 'SANDBOX_DISABLED') return `${err.message}. Включите песочницу оплаты в разделе «Настройки» и повторите возврат.`;
  if (err instanceof ApiError && err.code === 'REFUND_NOT_ALLOWED') return `${err.message}: этот платёж не оплачен или ещё не подтверждён CloudPayments.`;
  return failureMessage(err);
}

/**
 * Refunds (part of) the payment through CloudPayments. The request id is made once per opening
 * of the form, so a second click or a resend refunds once; a confirmation comes first.
 */
export function RefundForm({ api, payment, onDone }: { api: AdminApi; payment: AdminPaymentDetail; onDone: (payment: AdminPaymentDetail) => void }) {
  const formId = useId();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [requestId, setRequestId] = useState(newRequestId);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  // The refund this form asked for last: its message follows its status (asked, then done or refused).
  const [sent, setSent] = useState<{ id: number | null; amount: number } | null>(null);
  const [confirming, setConfirming] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);
  const money = (n: number) => formatAmount(n, payment.currency);
  const title = <h3>Возврат</h3>;
  const done = sent && sentMessage(sent, payment, money);
  if (payment.status !== 'paid' || payment.transaction_id === null) {
    return (
      <section className="admin-refund" aria-label="Возврат">
        {title}
        <p className="admin-muted">{payment.status === 'refunded' ? 'Платёж возвращён полностью.' : 'Вернуть можно только оплаченный платёж.'}</p>
        {done && <Alert tone={done.tone}>{done.text}</Alert>}
      </section>
    );
  }
  const check = (event: SyntheticEvent) => {
    event.preventDefault();
    const value = typedNumber(amount);
    // The contract's rules (the server's own messages), then what only this payment knows: what is left of it.
    const checked = checkInput(RefundRequestSchema, { amount: value ?? undefined, reason, request_id: requestId });
    const found: Record<string, string> = checked.ok ? {} : checked.errors;
    if (!found.amount && value !== null && value > payment.refundable) found.amount = payment.refundable > 0 ? `Можно вернуть не больше ${money(payment.refundable)}` : 'Возвращать больше нечего';
    setErrors(found);
    setFailure(null);
    setSent(null);
    setConfirming(value !== null && Object.keys(found).length === 0 ? value : null);
  };
  const send = async (value: number) => {
    if (sending.current) return;
    sending.current = true;
    setBusy(true);
    try {
      const known = new Set(payment.refunds.map((r) => r.id));
      const next = await api.refundPayment({ params: { id: payment.id }, body: { amount: value, reason: reason.trim(), request_id: requestId } });
      onDone(next);
      setSent({ id: next.refunds.find((r) => !known.has(r.id))?.id ?? null, amount: value });
      setAmount('');
      setReason('');
      setRequestId(newRequestId());
    } catch (err) {
      const fields = err instanceof ApiError ? err.fields : {};
      const byField = { amount: fields.amount?.[0], reason: fields.reason?.[0] };
      setSent(null);
      if (byField.amount || byField.reason) setErrors(Object.fromEntries(Object.entries(byField).filter(([, m]) => m)) as Record<string, string>);
      else setFailure(refundFailure(err));
    } finally {
      sending.current = false;
      setBusy(false);
      setConfirming(null);
    }
  };
  /** A change of the form: what the last refund or error said no longer describes it. */
  const edit = (set: (value: string) => void, value: string) => {
    set(value);
    setSent(null);
    setFailure(null);
  };
  const field = (name: 'amount' | 'reason') => ({
    id: `${formId}-${name}`,
    className: 'field__input',
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${formId}-${name}-error` : `${formId}-${name}-hint`,
  });
  const fieldError = (name: 'amount' | 'reason', hint: string) =>
    errors[name] ? (
      <p className="field__errors" id={`${formId}-${name}-error`}>
        {errors[name]}
      </p>
    ) : (
      <p className="field__hint" id={`${formId}-${name}-hint`}>
        {hint}
      </p>
    );
  return (
    <form className="admin-form admin-refund" aria-label="Возврат" noValidate onSubmit={check}>
      {title}
      <p className="admin-muted">
        Деньги вернутся на карту пользователя через CloudPayments. Возврат учтётся, а токены в той же доле спишутся с его баланса, когда CloudPayments подтвердит
        возврат; до тех пор он «ждёт подтверждения».
      </p>
      {payment.refundable > 0 ? (
        <>
          <div className="admin-form__row">
            <div className={`field${errors.amount ? ' field--invalid' : ''}`}>
              <label className="field__label" htmlFor={`${formId}-amount`}>
                Сумма, ₽
              </label>
              <input {...field('amount')} inputMode="decimal" value={amount} onChange={(e) => edit(setAmount, e.target.value)} disabled={confirming !== null} />
              {fieldError('amount', `Не больше ${money(payment.refundable)}`)}
              <Button variant="link" className="admin-refund__all" disabled={confirming !== null} onClick={() => edit(setAmount, String(payment.refundable).replace('.', ','))}>
                Вся сумма: {money(payment.refundable)}
              </Button>
            </div>
            <div className={`field${errors.reason ? ' field--invalid' : ''}`}>
              <label className="field__label" htmlFor={`${formId}-reason`}>
                Причина
              </label>
              <input {...field('reason')} maxLength={500} value={reason} placeholder="Сбой генерации, двойное списание…" onChange={(e) => edit(setReason, e.target.value)} disabled={confirming !== null} />
              {fieldError('reason', 'Её увидят в журнале действий')}
            </div>
          </div>
          {failure && <Alert>{failure}</Alert>}
          {done && !failure && <Alert tone={done.tone}>{done.text}</Alert>}
          {confirming === null ? (
            <Button type="submit" variant="danger">
              Вернуть деньги
            </Button>
          ) : (
            <div className="admin-confirm" role="group" aria-label="Подтверждение возврата">
              <span>
                Вернуть {money(confirming)} пользователю <EmailText email={payment.email} />?
              </span>
              <Button variant="danger" busy={busy} onClick={() => void send(confirming)}>
                Да, вернуть
              </Button>
              <Button variant="ghost" disabled={busy} onClick={() => setConfirming(null)}>
                Нет
              </Button>
            </div>
          )}
        </>
      ) : (
        <>
          {done && <Alert tone={done.tone}>{done.text}</Alert>}
          <p className="admin-muted">{payment.refunding > 0 ? 'Всё, что можно вернуть, уже возвращается: ждём подтверждения CloudPayments.' : 'Платёж возвращён полностью.'}</p>
        </>
      )}
    </form>
  );
}
