import type { SubscribeCheck, Tariff } from '@app/contracts/browser';
import { formatAmount, plural } from '@app/kit';
import { DAYS, isPackage, trialApplies } from './plan.ts';

/** The price: a package's one-off amount, the trial price and what follows, or the monthly amount. */
export function PlanPrice({ tariff, check }: { tariff: Tariff; check: SubscribeCheck }) {
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
