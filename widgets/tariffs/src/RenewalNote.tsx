import { BILLING_TEXTS, type SubscribeCheck, type Tariff } from '@app/contracts/browser';
import { formatAmount, formatDate } from '@app/kit';

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
