import { useId, useState } from 'react';
import type { SandboxCheckoutMessage, WidgetProps } from '@app/contracts/browser';
import { TEST_CARD_LIST } from '@app/contracts/test-cards';
import { EmailText, Alert, Button, formatRub, useRouteMutation } from '@app/kit';
import { ContractFormView, FormField, type ContractForm } from '@app/kit/forms';
import { sandboxCheckoutApi, type SandboxCheckoutApi } from './api.ts';
import { formatCardNumber, formatCvv, formatExpiry } from './card-format.ts';
import { postCheckoutMessage } from './frame.ts';
import { useCardForm, type CardInput, type CardValues } from './use-card-form.ts';

type CheckoutProps = WidgetProps<'sandbox-checkout'>;
export type CheckoutResult = { status: 'success' } | { status: 'declined'; reason: string } | null;

const SANDBOX_LABEL = 'Тестовая оплата — деньги не списываются';


/** An expiry three years ahead, for the click-to-fill of a test card. */
function futureExpiry(now: Date): string {
  return `${String(now.getMonth() + 1).padStart(2, '0')}/${String((now.getFullYear() + 3) % 100).padStart(2, '0')}`;
}

export interface SandboxCheckoutViewProps {
  payment: CheckoutProps;
  form: ContractForm<CardInput, CardValues>;
  result: CheckoutResult;
  onFill: (cardNumber: string) => void;
  onClose: () => void;
}

/** The sandbox card form, every state driven by props. */
export function SandboxCheckoutView({ payment, form, result, onFill, onClose }: SandboxCheckoutViewProps) {
  const titleId = useId();
  const cardsId = useId();
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
            <dd className="sandbox-checkout__email"><EmailText email={payment.email} /></dd>
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
          <ContractFormView form={form}>
            {result?.status === 'declined' && <Alert>Оплата не прошла: {result.reason}</Alert>}
            <FormField form={form.form} name="card_number" label="Номер карты" inputMode="numeric" autoComplete="cc-number" placeholder="0000 0000 0000 0000" maxLength={19} normalize={formatCardNumber} required />
            <div className="sandbox-checkout__row">
              <FormField form={form.form} name="exp" label="Срок действия" inputMode="numeric" autoComplete="cc-exp" placeholder="ММ/ГГ" maxLength={5} normalize={formatExpiry} required />
              <FormField form={form.form} name="cvv" label="CVV" type="password" inputMode="numeric" autoComplete="cc-csc" placeholder="123" maxLength={3} normalize={formatCvv} required />
            </div>
            <Button type="submit" block busy={form.busy}>
              Оплатить {formatRub(payment.amount)}
            </Button>
          </ContractFormView>
        </>
      )}
      <Button variant="ghost" block onClick={onClose}>
        Закрыть
      </Button>
    </section>
  );
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
  const [result, setResult] = useState<CheckoutResult>(null);
  const charge = useRouteMutation(api.charge, {
    onSuccess: (reply) => {
      if (reply.success) {
        setResult({ status: 'success' });
        post(message('success', null, reply.transaction_id));
      } else {
        const reason = reply.reason ?? 'Платёж отклонён';
        setResult({ status: 'declined', reason });
        post(message('fail', reason, reply.transaction_id));
      }
    },
  });
  const form = useCardForm({
    paymentId: payment.payment_id,
    onSubmit: (values) => {
      setResult(null);
      return charge.mutateAsync({ body: values });
    },
  });

  const onFill = (cardNumber: string) => {
    const { exp, cvv } = form.form.getValues();
    form.form.setValue('card_number', formatCardNumber(cardNumber));
    form.form.setValue('exp', /^\d{2}\/\d{2}$/.test(exp) ? exp : futureExpiry(new Date()));
    form.form.setValue('cvv', cvv.length === 3 ? cvv : '123');
    form.form.clearErrors();
  };

  return <SandboxCheckoutView payment={payment} form={form} result={result} onFill={onFill} onClose={() => post(message('close'))} />;
}
