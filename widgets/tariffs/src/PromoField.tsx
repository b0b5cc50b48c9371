import type { SyntheticEvent } from 'react';
import type { DiscountCheck } from '@app/contracts/promo';
import { Button, Field } from '@app/kit';

/** Where a discount code stands in the subscribe dialog. */
export type PromoState = { kind: 'idle' } | { kind: 'checking' } | { kind: 'applied'; check: DiscountCheck } | { kind: 'error'; message: string };

export interface PromoFieldProps {
  code: string;
  state: PromoState;
  onCodeChange: (code: string) => void;
  onApply: () => void;
}

/** A discount code in the plan's confirmation: checked for this plan before paying, the price with it said. */
export function PromoField({ code, state, onCodeChange, onApply }: PromoFieldProps) {
  const apply = (e: SyntheticEvent) => {
    e.preventDefault();
    onApply();
  };
  return (
    <form className="tariffs__promo" onSubmit={apply} noValidate aria-label="Скидка по промокоду">
      <Field
        label="Промокод на скидку"
        name="promo"
        value={code}
        autoComplete="off"
        spellCheck={false}
        maxLength={64}
        placeholder="Если есть"
        errors={state.kind === 'error' ? [state.message] : undefined}
        onChange={(e) => onCodeChange(e.target.value)}
      />
      <Button type="submit" variant="secondary" busy={state.kind === 'checking'} disabled={code.trim() === ''} className="tariffs__promo-apply">
        Применить
      </Button>
      {state.kind === 'applied' && (
        <p className="tariffs__promo-applied" role="status">
          {state.check.message}
        </p>
      )}
    </form>
  );
}
