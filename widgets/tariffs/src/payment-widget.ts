import type { WidgetOptions } from '@app/contracts/browser';

/** How the payment form ended. The result is never trusted: money moves only on server notifications. */
export type ChargeOutcome = { status: 'success' } | { status: 'fail'; reason: string } | { status: 'closed' };

/** The payment widget (CloudPayments' script, or the sandbox stand-in that speaks the same call). */
export interface PaymentWidget {
  /** Loads the payment script once (a `<script>` element, reused when already loaded). */
  load: (scriptUrl: string) => Promise<void>;
  /** Opens the payment form with the server-built options; resolves with how it ended. */
  charge: (options: WidgetOptions) => Promise<ChargeOutcome>;
}

interface CpCallbacks {
  onSuccess: (options: WidgetOptions) => void;
  onFail: (reason: string | null | undefined, options: WidgetOptions) => void;
  onComplete: (result: unknown, options: WidgetOptions) => void;
}

interface CpGlobal {
  CloudPayments: new (settings: { language: string }) => { pay: (method: 'charge', options: WidgetOptions, callbacks: CpCallbacks) => void };
}

declare global {
  interface Window {
    cp?: CpGlobal;
  }
}

/** The reason CloudPayments (and the sandbox) report when the user closes the form. */
export const USER_CANCELLED_REASON = 'User has cancelled';
const SCRIPT_TIMEOUT_MS = 20_000;
const DEFAULT_DECLINE = 'Платёж не прошёл';

const loading = new Map<string, Promise<void>>();

function loadScript(scriptUrl: string): Promise<void> {
  if (window.cp?.CloudPayments) return Promise.resolve();
  const pending = loading.get(scriptUrl);
  if (pending) return pending;
  const promise = new Promise<void>((resolve, reject) => {
    // A tag left by an earlier failed attempt would never fire again: start afresh.
    for (const old of Array.from(document.querySelectorAll<HTMLScriptElement>('script[data-payment-widget]'))) old.remove();
    const script = document.createElement('script');
    script.src = scriptUrl;
    script.async = true;
    script.dataset.paymentWidget = '';
    const fail = (reason: string) => {
      window.clearTimeout(timer);
      loading.delete(scriptUrl);
      script.remove();
      reject(new Error(reason));
    };
    const timer = window.setTimeout(() => fail('Payment script timed out'), SCRIPT_TIMEOUT_MS);
    script.onload = () => {
      if (!window.cp?.CloudPayments) {
        fail('Payment script has no cp.CloudPayments');
        return;
      }
      window.clearTimeout(timer);
      resolve();
    };
    script.onerror = () => fail('Payment script failed to load');
    document.head.appendChild(script);
  });
  loading.set(scriptUrl, promise);
  return promise;
}

function charge(options: WidgetOptions): Promise<ChargeOutcome> {
  return new Promise((resolve) => {
    const cp = window.cp;
    if (!cp) throw new Error('Payment script is not loaded');
    let settled = false;
    const settle = (outcome: ChargeOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    new cp.CloudPayments({ language: 'ru-RU' }).pay('charge', options, {
      onSuccess: () => settle({ status: 'success' }),
      onFail: (reason) => settle(reason === USER_CANCELLED_REASON ? { status: 'closed' } : { status: 'fail', reason: reason || DEFAULT_DECLINE }),
      onComplete: () => settle({ status: 'closed' }),
    });
  });
}

/** The real widget: `new cp.CloudPayments({language: 'ru-RU'}).pay('charge', options, callbacks)`. */
export const cloudPaymentsWidget: PaymentWidget = { load: loadScript, charge };
