import { useId, type ReactNode } from 'react';
import type { SubscribeCheck, Tariff } from '@app/contracts/browser';
import { MediaIcon, WordsIcon, formatAmount, plural } from '@app/kit';
import { descriptionParts, isPackage, trialApplies } from './plan.ts';

/*
 * A plan's card as the plans page draws it, without the payment flow: the admin panel's plan
 * editor previews the very same card (it imports this file).
 */

export const DAYS = ['день', 'дня', 'дней'] as const;

/** The description lines with their icons (`[[words]]`, `[[media]]`), media token amounts with one decimal. */
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

/** The price: a package's one-off amount, the trial price and what follows, or the monthly amount. */
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
        <Price tariff={tariff} check={check} />
        <Description lines={tariff.description} />
        <div className="plan__actions">{children}</div>
      </article>
    </li>
  );
}
