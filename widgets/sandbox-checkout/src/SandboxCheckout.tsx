import { useId, useState, type SyntheticEvent } from 'react';
import { SandboxChargeBodySchema, TEST_CARD_LIST, type SandboxCheckoutMessage, type WidgetProps } from '@app/contracts/browser';
import { ApiError, Alert, Button, ErrorList, Field, formatRub } from '@app/kit';
import { sandboxCheckoutApi, type SandboxCheckoutApi } from './api.ts';
import { postCheckoutMessage } from './frame.ts';

type CheckoutProps = WidgetProps<'sandbox-checkout'>;
export type CardValues = { card_number: string; exp: string; cvv: string };
type Errors = Partial<Record<keyof CardValues, string[]>>;
export type CheckoutResult = { status: 'success' } | { status: 'declined'; reason: string } | null;

export const SANDBOX_LABEL = 'Тестовая оплата — деньги не списываются';

/** `4242424242424242` → `4242 4242 4242 4242` (digits only, at most 16). */
export const formatCardNumber = (value: string) =>
  value
    .replace(/\D/g, '')
    .slice(0, 16)
    .replace(/(\d{4})(?=\d)/g, '$1 ');

/** `1229` → `12/29`; the slash appears once the year starts, so erasing works naturally. */
export function formatExpiry(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

export const formatCvv = (value: string) => value.replace(/\D/g, '').slice(0, 3);

const FORMATTERS: Record<keyof CardValues, (value: string) => string> = { card_number: formatCardNumber, exp: formatExpiry, cvv: formatCvv };

/** An expiry three years ahead, for the click-to-fill of a test card. */
function futureExpiry(now: Date): string {
  return `${String(now.getMonth() + 1).padStart(2, '0')}/${String((now.getFullYear() + 3) % 100).padStart(2, '0')}`;
}

export interface SandboxCheckoutViewProps {
  payment: CheckoutProps;
  values: CardValues;
  fieldErrors: Errors;
  formErrors: string[];
  busy: boolean;
  result: CheckoutResult;
  onChange: (field: keyof CardValues, value: string) => void;
  onFill: (cardNumber: string) => void;
  onSubmit: () => void;
  onClose: () => void;
}

/** The sandbox card form, every state driven by props. */
export function SandboxCheckoutView({ payment, values, fieldErrors, formErrors, busy, result, onChange, onFill, onSubmit, onClose }: SandboxCheckoutViewProps) {
  const titleId = useId();
  const cardsId = useId();
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    if (!busy) onSubmit();
  };
  const paid = result?.status === 'success';
  return (
    <section className="card sandbox-checkout" aria-labelledby={titleId}>
      <p className="sandbox-checkout__badge" role="note">
        {SANDBOX_LABEL}
      </p>
      <h1 className="sandbox-checkout__title" id={titleId}>
        Оплата картой
      </h1>
      <dl className="sandbox-checkout__summary">
        <div>
          <dt>К оплате</dt>
          <dd className="sandbox-checkout__amount">{formatRub(payment.amount)}</dd>
        </div>
        <div>
          <dt>Назначение</dt>
          <dd>{payment.description}</dd>
        </div>
        {payment.email && (
          <div>
            <dt>Чек придёт на</dt>
            <dd className="sandbox-checkout__email">{payment.email}</dd>
          </div>
        )}
      </dl>
      {payment.recurrent && <p className="sandbox-checkout__note">Карта сохранится для ежемесячного автопродления подписки.</p>}
      {paid ? (
        <Alert tone="success">Оплата прошла успешно. Окно сейчас закроется.</Alert>
      ) : (
        <>
          <div className="sandbox-checkout__cards">
            <p className="sandbox-checkout__cards-title" id={cardsId}>
              Тестовые карты (срок — любой будущий, CVV — любой):
            </p>
            <ul aria-labelledby={cardsId}>
              {TEST_CARD_LIST.map((card) => (
                <li key={card.number}>
                  <button type="button" className="btn btn-link sandbox-checkout__fill" onClick={() => onFill(card.number)} aria-label={`Подставить карту ${formatCardNumber(card.number)}: ${card.label}`}>
                    {formatCardNumber(card.number)}
                  </button>{' '}
                  — {card.label}
                </li>
              ))}
            </ul>
          </div>
          <form className="form" onSubmit={submit} noValidate>
            {result?.status === 'declined' && <Alert>Оплата не прошла: {result.reason}</Alert>}
            <ErrorList messages={formErrors} />
            <Field
              label="Номер карты"
              name="card_number"
              inputMode="numeric"
              autoComplete="cc-number"
              placeholder="0000 0000 0000 0000"
              maxLength={19}
              value={values.card_number}
              errors={fieldErrors.card_number}
              onChange={(e) => onChange('card_number', e.target.value)}
              required
            />
            <div className="sandbox-checkout__row">
              <Field label="Срок действия" name="exp" inputMode="numeric" autoComplete="cc-exp" placeholder="ММ/ГГ" maxLength={5} value={values.exp} errors={fieldErrors.exp} onChange={(e) => onChange('exp', e.target.value)} required />
              <Field label="CVV" name="cvv" type="password" inputMode="numeric" autoComplete="cc-csc" placeholder="123" maxLength={3} value={values.cvv} errors={fieldErrors.cvv} onChange={(e) => onChange('cvv', e.target.value)} required />
            </div>
            <Button type="submit" block busy={busy}>
              Оплатить {formatRub(payment.amount)}
            </Button>
          </form>
        </>
      )}
      <Button variant="ghost" block onClick={onClose}>
        Закрыть
      </Button>
    </section>
  );
}

const isCardField = (field: string): field is keyof CardValues => field === 'card_number' || field === 'exp' || field === 'cvv';

/** Messages beside the card fields they concern; the rest above the form. */
function splitErrors(entries: [string, string[]][]): { fields: Errors; rest: string[] } {
  const fields: Errors = {};
  const rest: string[] = [];
  for (const [field, messages] of entries) {
    if (isCardField(field)) (fields[field] ??= []).push(...messages);
    else rest.push(...messages);
  }
  return { fields, rest };
}

const message = (status: SandboxCheckoutMessage['status'], reason: string | null = null, transactionId: number | null = null): SandboxCheckoutMessage => ({
  type: 'sandbox-cloudpayments',
  status,
  reason,
  transaction_id: transactionId,
});

/**
 * The sandbox's stand-in for CloudPayments' payment form, inside the frame the sandbox
 * payment script opens: charges a test card and tells the opening page how it ended.
 */
export function SandboxCheckout({ api = sandboxCheckoutApi, post = postCheckoutMessage, ...payment }: CheckoutProps & { api?: SandboxCheckoutApi; post?: (message: SandboxCheckoutMessage) => void }) {
  const [values, setValues] = useState<CardValues>({ card_number: '', exp: '', cvv: '' });
  const [fieldErrors, setFieldErrors] = useState<Errors>({});
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<CheckoutResult>(null);

  const onChange = (field: keyof CardValues, value: string) => {
    setValues((v) => ({ ...v, [field]: FORMATTERS[field](value) }));
    setFieldErrors(({ [field]: _, ...rest }) => rest);
  };

  const onFill = (cardNumber: string) => {
    setValues((v) => ({
      card_number: formatCardNumber(cardNumber),
      exp: /^\d{2}\/\d{2}$/.test(v.exp) ? v.exp : futureExpiry(new Date()),
      cvv: v.cvv.length === 3 ? v.cvv : '123',
    }));
    setFieldErrors({});
  };

  const onSubmit = async () => {
    setFormErrors([]);
    setResult(null);
    const parsed = SandboxChargeBodySchema.safeParse({ payment_id: payment.payment_id, ...values });
    if (!parsed.success) {
      const split = splitErrors(parsed.error.issues.map((issue) => [String(issue.path[0] ?? ''), [issue.message]]));
      setFieldErrors(split.fields);
      setFormErrors(split.rest);
      return;
    }
    setBusy(true);
    try {
      const reply = await api.charge({ body: parsed.data });
      if (reply.success) {
        setResult({ status: 'success' });
        post(message('success', null, reply.transaction_id));
      } else {
        const reason = reply.reason ?? 'Платёж отклонён';
        setResult({ status: 'declined', reason });
        post(message('fail', reason, reply.transaction_id));
      }
    } catch (err) {
      const apiError = err instanceof ApiError ? err : new ApiError(0, undefined, undefined);
      const split = splitErrors(Object.entries(apiError.fields));
      if (Object.keys(split.fields).length || split.rest.length) {
        setFieldErrors(split.fields);
        setFormErrors(split.rest);
      } else {
        setFormErrors([apiError.message]);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <SandboxCheckoutView
      payment={payment}
      values={values}
      fieldErrors={fieldErrors}
      formErrors={formErrors}
      busy={busy}
      result={result}
      onChange={onChange}
      onFill={onFill}
      onSubmit={() => void onSubmit()}
      onClose={() => post(message('close'))}
    />
  );
}
