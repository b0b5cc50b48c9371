import { useState } from 'react';
import type { PaymentStatus, Tariff } from '@app/contracts/browser';
import { routeCall, routeKey, serverMessage, useKitQueryClient, useRouteMutation, useRouteQuery } from '@app/kit';
import type { TariffsApi } from './api.ts';
import type { PaymentWidget } from './payment-widget.ts';
import { isPackage } from './plan.ts';

/** A payment under way: the button of its plan spins, the others wait. */
export type Busy = { tariffId: number; phase: 'starting' | 'paying' | 'confirming' } | null;

/** How a payment ended, for the notice in its plan's card. */
export type PaymentOutcome =
  | { kind: 'error'; text: string }
  | { kind: 'declined'; reason: string }
  | { kind: 'confirming' }
  | { kind: 'paid'; purchase: 'plan' | 'package'; name: string }
  | { kind: 'late' };

type Phase =
  | { kind: 'idle' }
  | { kind: 'starting' | 'paying'; tariff: Tariff }
  | { kind: 'confirming'; tariff: Tariff; paymentId: number }
  | { kind: 'done'; tariff: Tariff; outcome: PaymentOutcome };

export interface PaymentFlow {
  busy: Busy;
  /** The last payment's outcome and its plan. */
  outcome: { tariffId: number; outcome: PaymentOutcome } | null;
  /** Packages bought during this visit. */
  purchased: readonly number[];
  /** Pays for a plan or package; `promo`: a discount code taken off a plan's first payment. */
  start: (tariff: Tariff, promo?: string) => void;
  /** Forgets the last outcome (another action's notice replaces it). */
  dismiss: () => void;
}

/**
 * The payment of a plan or package: key, payment script, invoice, the payment form, then the
 * payment's status polled (`refetchInterval`) until the server's notification marks it paid —
 * the payment form's word is not trusted. Once paid, the plan state is refetched.
 */
export function usePayment({ api, widget, scriptUrl, pollDelayMs, pollAttempts }: { api: TariffsApi; widget: PaymentWidget; scriptUrl: string; pollDelayMs: number; pollAttempts: number }): PaymentFlow {
  const client = useKitQueryClient();
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [purchased, setPurchased] = useState<number[]>([]);
  const paySubscription = useRouteMutation(api.paySubscription);
  const payPackage = useRouteMutation(api.payPackage);

  // The status call also reads the plan state again once paid, so the cards change with the notice.
  const [confirm] = useState(() =>
    routeCall(api.paymentStatus.route, async (request): Promise<PaymentStatus> => {
      const status = await api.paymentStatus(request);
      if (status.status === 'paid') await client.invalidateQueries({ queryKey: routeKey(api.check.route) });
      return status;
    }),
  );
  const paymentId = phase.kind === 'confirming' ? phase.paymentId : 0;
  const status = useRouteQuery(
    confirm,
    { query: { id: paymentId } },
    {
      enabled: phase.kind === 'confirming',
      staleTime: 0,
      gcTime: 0,
      // A failed poll is simply the next one.
      retry: false,
      refetchInterval: (query) => {
        const attempts = query.state.dataUpdateCount + query.state.errorUpdateCount;
        const pending = query.state.data === undefined || query.state.data.status === 'pending';
        return pending && attempts < pollAttempts ? pollDelayMs : false;
      },
      refetchIntervalInBackground: true,
    },
  );

  let confirming: PaymentOutcome | null = null;
  if (phase.kind === 'confirming') {
    // Reading dataUpdatedAt and errorUpdatedAt subscribes to every finished poll, even one that answered the same.
    const finished = status.dataUpdatedAt + status.errorUpdatedAt > 0;
    const state = client.getQueryState(routeKey(confirm.route, { query: { id: paymentId } }));
    const attempts = finished && state ? state.dataUpdateCount + state.errorUpdateCount : 0;
    const paid = status.data?.status === 'paid' && !status.isFetching;
    if (paid) confirming = { kind: 'paid', purchase: isPackage(phase.tariff) ? 'package' : 'plan', name: phase.tariff.name };
    else if (status.data?.message) confirming = { kind: 'declined', reason: status.data.message };
    else if ((status.data && status.data.status !== 'pending' && status.data.status !== 'paid') || (attempts >= pollAttempts && !status.isFetching)) confirming = { kind: 'late' };
    else confirming = { kind: 'confirming' };
  }

  const start = (tariff: Tariff, promo?: string) => {
    // A package paid in the last flow stays bought.
    if (phase.kind === 'confirming' && confirming?.kind === 'paid' && isPackage(phase.tariff)) setPurchased((ids) => [...ids, phase.tariff.id]);
    setPhase({ kind: 'starting', tariff });
    void (async () => {
      const fail = (err: unknown) => setPhase({ kind: 'done', tariff, outcome: { kind: 'error', text: serverMessage(err) } });
      let payment;
      try {
        await api.paymentKey();
        await widget.load(scriptUrl);
        payment = isPackage(tariff) ? await payPackage.mutateAsync({ query: { id: tariff.id } }) : await paySubscription.mutateAsync({ query: { id: tariff.id, ...(promo ? { promo } : {}) } });
      } catch (err) {
        fail(err);
        return;
      }
      setPhase({ kind: 'paying', tariff });
      let result;
      try {
        result = await widget.charge(payment.options);
      } catch (err) {
        fail(err);
        return;
      }
      if (result.status === 'success') setPhase({ kind: 'confirming', tariff, paymentId: payment.payment_id });
      else if (result.status === 'fail') setPhase({ kind: 'done', tariff, outcome: { kind: 'declined', reason: result.reason } });
      else setPhase({ kind: 'idle' });
    })();
  };

  const paidPackage = phase.kind === 'confirming' && confirming?.kind === 'paid' && isPackage(phase.tariff) ? [phase.tariff.id] : [];
  let busy: Busy = null;
  if (phase.kind === 'starting' || phase.kind === 'paying') busy = { tariffId: phase.tariff.id, phase: phase.kind };
  else if (phase.kind === 'confirming' && confirming?.kind === 'confirming') busy = { tariffId: phase.tariff.id, phase: 'confirming' };
  let outcome: PaymentFlow['outcome'] = null;
  if (phase.kind === 'done') outcome = { tariffId: phase.tariff.id, outcome: phase.outcome };
  else if (phase.kind === 'confirming' && confirming) outcome = { tariffId: phase.tariff.id, outcome: confirming };

  return {
    busy,
    outcome,
    purchased: [...purchased, ...paidPackage],
    start,
    dismiss: () => {
      if (phase.kind === 'confirming' && confirming?.kind === 'paid' && isPackage(phase.tariff)) setPurchased((ids) => [...ids, phase.tariff.id]);
      if (phase.kind === 'done' || (phase.kind === 'confirming' && confirming?.kind !== 'confirming')) setPhase({ kind: 'idle' });
    },
  };
}
