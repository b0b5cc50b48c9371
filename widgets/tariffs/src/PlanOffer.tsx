import type { ReactNode } from 'react';
import type { SubscribeCheck, Tariff } from '@app/contracts/browser';
import { Button, formatDate, preloadDialogKit } from '@app/kit';
import { NoticeView } from './NoticeView.tsx';
import { PlanCardFrame } from './PlanCard.tsx';
import { RenewalNote } from './RenewalNote.tsx';
import { planButton } from './plan.ts';
import { CANCEL_LABEL, type Busy, type Notice } from './tariffs-state.ts';

export interface PlanOfferProps {
  tariff: Tariff;
  check: SubscribeCheck;
  purchased: readonly number[];
  paymentsOff: boolean;
  busy: Busy;
  cancelBusy: boolean;
  notice: Notice;
  onSelect: (tariff: Tariff) => void;
  onCancelRequest: (tariff: Tariff) => void;
}

/** A plan's card on the plans page: the card with its button (buy, the current plan and its cancellation) and its notice. */
export function PlanOffer({ tariff, check, purchased, paymentsOff, busy, cancelBusy, notice, onSelect, onCancelRequest }: PlanOfferProps) {
  const button = planButton(tariff, check, purchased, paymentsOff);
  const mine = button.kind === 'current' || button.kind === 'cancelled';
  const waiting = busy !== null || cancelBusy;
  let actions: ReactNode;
  switch (button.kind) {
    case 'current':
      actions = (
        <>
          <Button variant="secondary" block disabled>
            {button.label}
          </Button>
          <Button variant="ghost" block disabled={waiting} onClick={() => onCancelRequest(tariff)} onPointerEnter={preloadDialogKit} onFocus={preloadDialogKit}>
            {CANCEL_LABEL}
          </Button>
          <RenewalNote tariff={tariff} check={check} />
        </>
      );
      break;
    case 'cancelled':
      actions = (
        <>
          <Button variant="secondary" block disabled>
            {button.label}
          </Button>
          <p className="plan__meta">{check.active_until ? `Действует до ${formatDate(check.active_until)}` : 'Действует до конца оплаченного периода'}</p>
        </>
      );
      break;
    case 'purchased':
      actions = (
        <Button variant="secondary" block disabled>
          {button.label}
        </Button>
      );
      break;
    case 'pay': {
      const spinning = busy?.tariffId === tariff.id;
      actions = (
        <Button block busy={spinning} disabled={waiting} looksDisabled={button.blockedReason !== null} onClick={() => onSelect(tariff)} onPointerEnter={preloadDialogKit} onFocus={preloadDialogKit}>
          {button.label}
        </Button>
      );
      break;
    }
  }
  return (
    <PlanCardFrame tariff={tariff} check={check} mine={mine}>
      {actions}
      <NoticeView notice={notice} />
    </PlanCardFrame>
  );
}
