import type { Tariff } from '@app/contracts/browser';
import { Button, WORD_FORMS, formatAmount, formatWords, mediaTokens, plural, LazyDialog } from '@app/kit';
import { DAYS, trialApplies } from './plan.ts';
import type { TariffsData } from './tariffs-state.ts';
import { PromoField, type PromoFieldProps } from './PromoField.tsx';

/** The confirmation before a plan's payment: what is charged now and then, what each period grants, and that it replaces the current plan. */
export function SubscribeDialog({ tariff, data, promo, onConfirm, onClose }: { tariff: Tariff; data: TariffsData; promo?: PromoFieldProps | undefined; onConfirm: () => void; onClose: () => void }) {
  const money = (n: number) => formatAmount(n, tariff.currency_provider);
  const current = data.check.subscriptions !== null && data.check.subscriptions !== tariff.id ? (data.tariffs.find((t) => t.id === data.check.subscriptions) ?? null) : null;
  const replacing = data.check.subscriptions !== null && data.check.subscriptions !== tariff.id;
  return (
    <LazyDialog
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
          Каждый период начисляем {formatWords(tariff.words)} {plural(tariff.words, WORD_FORMS)} и {mediaTokens(tariff.media)}.
        </p>
      )}
      {promo && <PromoField {...promo} />}
      <p>Отменить подписку можно в любой момент: она будет действовать до конца оплаченного периода.</p>
      {replacing && (
        <p className="tariffs__replace">
          {current ? `Текущий тариф «${current.name}»` : 'Текущая подписка'} будет заменён новым без перерасчёта: за оставшиеся дни деньги не возвращаются.
        </p>
      )}
    </LazyDialog>
  );
}
