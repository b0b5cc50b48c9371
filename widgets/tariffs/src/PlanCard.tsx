import { useId, type ReactNode } from 'react';
import type { SubscribeCheck, Tariff } from '@app/contracts/browser';
import { PlanDescription } from './PlanDescription.tsx';
import { PlanPrice } from './PlanPrice.tsx';

/*
 * A plan's card as the plans page draws it, without the payment flow: the admin panel's plan
 * editor previews the very same card (it imports this file).
 */

export interface PlanCardFrameProps {
  tariff: Tariff;
  check: SubscribeCheck;
  /** The user's own plan (drawn highlighted). */
  mine?: boolean;
  /** The buttons and notices under the description. */
  children: ReactNode;
}

/** One plan's card (an `<li>` of `.plans`): the badge, the name, the price and the description, then `children`. */
export function PlanCardFrame({ tariff, check, mine = false, children }: PlanCardFrameProps) {
  const nameId = useId();
  return (
    <li className={['plan', tariff.popular ? 'plan--popular' : '', mine ? 'plan--current' : ''].filter(Boolean).join(' ')}>
      <article className="plan__inner" aria-labelledby={nameId}>
        {tariff.popular && <span className="plan__badge">Популярный</span>}
        <h3 className="plan__name" id={nameId}>
          {tariff.name}
        </h3>
        <PlanPrice tariff={tariff} check={check} />
        <PlanDescription lines={tariff.description} />
        <div className="plan__actions">{children}</div>
      </article>
    </li>
  );
}
