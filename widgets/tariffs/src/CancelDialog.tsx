import { BILLING_TEXTS, type SubscribeCheck, type Tariff } from '@app/contracts/browser';
import { Button, formatDate, LazyDialog } from '@app/kit';

/** The cancel confirmation (seed §2: «Да» / «Нет»): auto-renewal stops, the plan runs to its end. */
export function CancelDialog({ tariff, check, busy, onConfirm, onClose }: { tariff: Tariff; check: SubscribeCheck; busy: boolean; onConfirm: () => void; onClose: () => void }) {
  return (
    <LazyDialog
      title="Отменить подписку?"
      dismissible={!busy}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" disabled={busy} onClick={onClose}>
            {BILLING_TEXTS.no}
          </Button>
          <Button variant="danger" busy={busy} onClick={onConfirm}>
            {BILLING_TEXTS.yes}
          </Button>
        </>
      }
    >
      <p>
        Автопродление тарифа «{tariff.name}» отключится. Подписка будет действовать {check.active_until ? `до ${formatDate(check.active_until)}` : 'до конца оплаченного периода'}, но
        пополнять токены до её окончания будет нельзя.
      </p>
    </LazyDialog>
  );
}
