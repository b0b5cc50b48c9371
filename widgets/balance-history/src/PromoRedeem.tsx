import { useState, type SyntheticEvent } from 'react';
import { Alert, ApiError, Button, Card, Field, failureMessage } from '@app/kit';
import type { PromoRedemption } from '@app/contracts/promo';
import { discountHref } from './promo-helpers.ts';

export interface PromoRedeemViewProps {
  code: string;
  busy: boolean;
  /** Why the code was refused: the field's messages, or the server's. */
  errors: readonly string[];
  /** What the last code did. */
  done: PromoRedemption | null;
  paymentUrl: string;
  onCodeChange: (code: string) => void;
  onSubmit: () => void;
}

/** The promo code form of the balance page: a code, «Активировать», and what it did or why not. */
export function PromoRedeemView({ code, busy, errors, done, paymentUrl, onCodeChange, onSubmit }: PromoRedeemViewProps) {
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <Card title="Промокод" className="promo-redeem">
      <form className="promo-redeem__form" onSubmit={submit} noValidate>
        <Field
          label="Код"
          name="code"
          value={code}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={64}
          placeholder="Например, WELCOME2026"
          errors={errors.length ? errors : undefined}
          hint="Латинские буквы и цифры. Слова и медиа токены начисляются сразу, скидка — при оплате тарифа."
          onChange={(e) => onCodeChange(e.target.value)}
        />
        <Button type="submit" busy={busy} className="promo-redeem__submit">
          Активировать
        </Button>
      </form>
      {done?.kind === 'tokens' && <Alert tone="success">{done.message}</Alert>}
      {done?.kind === 'discount' && (
        <Alert tone="info">
          {done.message}. <a href={discountHref(paymentUrl, done)}>{done.tariff ? `К тарифу «${done.tariff.name}»` : 'К тарифам'}</a>
        </Alert>
      )}
    </Card>
  );
}

/** The promo code form with its call: a tokens code updates the balances and the history at once. */
export function PromoRedeem({ redeem, paymentUrl }: { redeem: (code: string) => Promise<PromoRedemption>; paymentUrl: string }) {
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const [done, setDone] = useState<PromoRedemption | null>(null);
  const onSubmit = async () => {
    if (busy) return;
    if (!code.trim()) {
      setErrors(['Введите промокод']);
      return;
    }
    setBusy(true);
    setErrors([]);
    setDone(null);
    try {
      setDone(await redeem(code));
      setCode('');
    } catch (err) {
      setErrors(err instanceof ApiError ? (err.fields.code ?? [err.message]) : [failureMessage(err)]);
    } finally {
      setBusy(false);
    }
  };
  return <PromoRedeemView code={code} busy={busy} errors={errors} done={done} paymentUrl={paymentUrl} onCodeChange={setCode} onSubmit={() => void onSubmit()} />;
}
