import { useState } from 'react';
import type { SubscribeCheck, Tariff, WidgetProps } from '@app/contracts/browser';
import { ApiError, combineQueries, routeKey, serverMessage, useKitQueryClient, useRouteMutation, useRouteQuery } from '@app/kit';
import { tariffsApi, type TariffsApi } from './api.ts';
import { cloudPaymentsWidget, type PaymentWidget } from './payment-widget.ts';
import { isPackage, planButton } from './plan.ts';
import { POLL_ATTEMPTS, POLL_DELAY_MS, type Notice, type OpenDialog, type TariffsData } from './tariffs-state.ts';
import { TariffsView } from './TariffsView.tsx';
import { usePayment } from './use-payment.ts';
import type { PromoState } from './PromoField.tsx';

export interface TariffsProps extends WidgetProps<'tariffs'> {
  api?: TariffsApi;
  widget?: PaymentWidget;
  pollDelayMs?: number;
  pollAttempts?: number;
}

/**
 * Tariff selection (seed §2, §4): plan cards, a confirmation before subscribing, cancel with
 * «Да» / «Нет», and payment through the payment widget (`usePayment`).
 */
export function Tariffs({ frontend, paymentScriptUrl, sandbox, paymentsOff, api = tariffsApi, widget = cloudPaymentsWidget, pollDelayMs = POLL_DELAY_MS, pollAttempts = POLL_ATTEMPTS }: TariffsProps) {
  const client = useKitQueryClient();
  const tariffs = useRouteQuery(api.tariffs, { query: { frontend: frontend ? '1' : '0' } });
  const check = useRouteQuery(api.check);
  const state = combineQueries([tariffs, check], ([t, c]): TariffsData => ({ tariffs: t, check: c }));
  const payment = usePayment({ api, widget, scriptUrl: paymentScriptUrl, pollDelayMs, pollAttempts });
  const [notice, setNotice] = useState<Notice>(null);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  // A discount code: from the address (`?promo=`, where the balance page leads), or typed in the subscribe dialog.
  const [promoCode, setPromoCode] = useState(() => new URLSearchParams(window.location.search).get('promo')?.slice(0, 64) ?? '');
  const [promoState, setPromoState] = useState<PromoState>({ kind: 'idle' });
  const applyPromo = (tariff: Tariff, code = promoCode) => {
    if (!code.trim()) return;
    setPromoState({ kind: 'checking' });
    api.checkDiscount({ query: { code: code.trim(), tariff_id: tariff.id } }).then(
      (check) => setPromoState({ kind: 'applied', check }),
      (err: unknown) => setPromoState({ kind: 'error', message: err instanceof ApiError ? (err.fields.code?.[0] ?? err.message) : serverMessage(err) }),
    );
  };
  const cancel = useRouteMutation(api.cancel, {
    // The server's answer is the new state: no refetch needed.
    onSuccess: (result) => client.setQueryData<SubscribeCheck>(routeKey(api.check.route, {}), (old) => old && { ...old, cancelled: true, active_until: result.active_until }),
  });

  const say = (next: Notice) => {
    payment.dismiss();
    setNotice(next);
  };

  const onSelect = (tariff: Tariff) => {
    if (payment.busy || state.status !== 'ready') return;
    const button = planButton(tariff, state.data.check, payment.purchased, paymentsOff);
    if (button.kind !== 'pay') return;
    if (button.blockedReason) {
      say({ tariffId: tariff.id, kind: 'blocked', text: button.blockedReason });
      return;
    }
    say(null);
    if (isPackage(tariff)) payment.start(tariff);
    else {
      setDialog({ kind: 'subscribe', tariff });
      setPromoState({ kind: 'idle' });
      applyPromo(tariff);
    }
  };

  const onConfirmSubscribe = () => {
    if (dialog?.kind !== 'subscribe') return;
    setDialog(null);
    const code = promoCode.trim();
    payment.start(dialog.tariff, code && promoState.kind !== 'error' ? code : undefined);
  };

  const onConfirmCancel = () => {
    if (dialog?.kind !== 'cancel' || cancel.isPending) return;
    const { tariff } = dialog;
    cancel.mutate(
      {},
      {
        onSuccess: (result) => say({ tariffId: tariff.id, kind: 'cancelled', name: tariff.name, until: result.active_until }),
        onError: (err) => say({ tariffId: tariff.id, kind: 'error', text: serverMessage(err) }),
        onSettled: () => setDialog(null),
      },
    );
  };

  const shown: Notice = payment.outcome ? { tariffId: payment.outcome.tariffId, ...payment.outcome.outcome } : notice;
  return (
    <TariffsView
      state={state}
      sandbox={sandbox}
      paymentsOff={paymentsOff}
      purchased={payment.purchased}
      busy={payment.busy}
      cancelBusy={cancel.isPending}
      notice={shown}
      dialog={dialog}
      onSelect={onSelect}
      onConfirmSubscribe={onConfirmSubscribe}
      promo={{
        code: promoCode,
        state: promoState,
        onCodeChange: (code) => {
          setPromoCode(code);
          setPromoState({ kind: 'idle' });
        },
        onApply: () => {
          if (dialog?.kind === 'subscribe') applyPromo(dialog.tariff);
        },
      }}
      onCancelRequest={(tariff) => {
        say(null);
        setDialog({ kind: 'cancel', tariff });
      }}
      onConfirmCancel={onConfirmCancel}
      onCloseDialog={() => setDialog(null)}
      onRetry={() => {
        if (tariffs.isError) void tariffs.refetch();
        if (check.isError) void check.refetch();
      }}
    />
  );
}
