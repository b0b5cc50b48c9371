import { useEffect, useId } from 'react';
import type { Tariff } from '@app/contracts/browser';
import { EmptyState, LoadError, type LoadState } from '@app/kit';
import { CancelDialog } from './CancelDialog.tsx';
import { PaymentsOffNote } from './PaymentsOffNote.tsx';
import { PlanOffer } from './PlanOffer.tsx';
import { PlansSkeleton } from './PlansSkeleton.tsx';
import { SandboxNote } from './SandboxNote.tsx';
import { SubscribeDialog } from './SubscribeDialog.tsx';
import type { PromoFieldProps } from './PromoField.tsx';
import { isPackage } from './plan.ts';
import { PACKAGES_ANCHOR, type Busy, type Notice, type OpenDialog, type TariffsData } from './tariffs-state.ts';

export interface TariffsViewProps {
  state: LoadState<TariffsData>;
  sandbox: boolean;
  /** No payment can be made now: said up front, and every buy button says why it does nothing. */
  paymentsOff?: boolean;
  /** Packages bought during this visit. */
  purchased: readonly number[];
  busy: Busy;
  cancelBusy: boolean;
  notice: Notice;
  dialog: OpenDialog;
  onSelect: (tariff: Tariff) => void;
  onConfirmSubscribe: () => void;
  /** The discount code of the subscribe dialog. */
  promo?: PromoFieldProps;
  onCancelRequest: (tariff: Tariff) => void;
  onConfirmCancel: () => void;
  onCloseDialog: () => void;
  onRetry: () => void;
}

/** Plan cards, confirmation windows and payment notices, every state driven by props. */
export function TariffsView(props: TariffsViewProps) {
  const { state, sandbox, paymentsOff = false, purchased, busy, cancelBusy, notice, dialog, onSelect, onConfirmSubscribe, promo, onCancelRequest, onConfirmCancel, onCloseDialog, onRetry } = props;
  const plansTitleId = useId();
  const packagesTitleId = useId();
  const card = (tariff: Tariff, data: TariffsData) => (
    <PlanOffer
      key={tariff.id}
      tariff={tariff}
      check={data.check}
      purchased={purchased}
      paymentsOff={paymentsOff}
      busy={busy}
      cancelBusy={cancelBusy}
      notice={notice?.tariffId === tariff.id ? notice : null}
      onSelect={onSelect}
      onCancelRequest={onCancelRequest}
    />
  );
  const data = state.status === 'ready' ? state.data : null;
  const plans = data?.tariffs.filter((t) => !isPackage(t)) ?? [];
  const packages = data?.tariffs.filter(isPackage) ?? [];
  const hasPackages = packages.length > 0;
  // A link to `#packages` (the chat's too-few-words panel, the dashboard) lands on the packages
  // once they are drawn: the browser looked for the anchor before the widget mounted.
  useEffect(() => {
    if (hasPackages && window.location.hash === `#${PACKAGES_ANCHOR}`) document.getElementById(PACKAGES_ANCHOR)?.scrollIntoView();
  }, [hasPackages]);
  return (
    <div className="tariffs">
      {paymentsOff ? <PaymentsOffNote /> : sandbox && <SandboxNote />}
      {state.status === 'error' && <LoadError message={state.message} onRetry={onRetry} />}
      {state.status === 'loading' && (
        <section className="tariffs__section">
          <h2>Подписки</h2>
          <PlansSkeleton />
        </section>
      )}
      {data && data.tariffs.length === 0 && <EmptyState title="Тарифы пока не добавлены">Загляните чуть позже.</EmptyState>}
      {data && plans.length > 0 && (
        <section className="tariffs__section" aria-labelledby={plansTitleId}>
          <h2 id={plansTitleId}>Подписки</h2>
          <ul className="plans">{plans.map((t) => card(t, data))}</ul>
        </section>
      )}
      {data && packages.length > 0 && (
        <section className="tariffs__section" id={PACKAGES_ANCHOR} aria-labelledby={packagesTitleId}>
          <h2 id={packagesTitleId}>Пакеты токенов</h2>
          <p className="tariffs__lead">Докупаются к действующей подписке. Токены не сгорают.</p>
          <ul className="plans">{packages.map((t) => card(t, data))}</ul>
        </section>
      )}
      {data && dialog?.kind === 'subscribe' && <SubscribeDialog tariff={dialog.tariff} data={data} promo={promo} onConfirm={onConfirmSubscribe} onClose={onCloseDialog} />}
      {data && dialog?.kind === 'cancel' && <CancelDialog tariff={dialog.tariff} check={data.check} busy={cancelBusy} onConfirm={onConfirmCancel} onClose={onCloseDialog} />}
    </div>
  );
}
