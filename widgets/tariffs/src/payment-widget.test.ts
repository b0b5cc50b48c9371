import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WidgetOptions } from '@app/contracts/browser';
import { USER_CANCELLED_REASON, cloudPaymentsWidget } from './payment-widget.ts';

const options = { publicId: 'pk_test', invoiceId: '41', amount: 149 } as unknown as WidgetOptions;
const scripts = () => Array.from(document.querySelectorAll<HTMLScriptElement>('script[data-payment-widget]'));

type Callbacks = { onSuccess: (o: WidgetOptions) => void; onFail: (reason: string, o: WidgetOptions) => void; onComplete: (r: unknown, o: WidgetOptions) => void };

/** A stand-in for CloudPayments' global: records each pay() and lets the test end it. */
function installCp() {
  const calls: { settings: unknown; method: string; options: WidgetOptions; callbacks: Callbacks }[] = [];
  class CloudPayments {
    constructor(readonly settings: unknown) {}
    pay(method: string, opts: WidgetOptions, callbacks: Callbacks) {
      calls.push({ settings: this.settings, method, options: opts, callbacks });
    }
  }
  window.cp = { CloudPayments };
  return calls;
}

afterEach(() => {
  delete window.cp;
  for (const s of scripts()) s.remove();
});

describe('payment widget: script', () => {
  it('adds the script once and reuses it while it loads', async () => {
    const first = cloudPaymentsWidget.load('/sandbox/cloudpayments.js');
    const second = cloudPaymentsWidget.load('/sandbox/cloudpayments.js');
    expect(scripts()).toHaveLength(1);
    expect(scripts()[0]).toHaveAttribute('src', '/sandbox/cloudpayments.js');
    installCp();
    scripts()[0]?.dispatchEvent(new Event('load'));
    await expect(first).resolves.toBeUndefined();
    await expect(second).resolves.toBeUndefined();
  });

  it('does not load again once cp is there', async () => {
    installCp();
    await cloudPaymentsWidget.load('/sandbox/cloudpayments.js');
    expect(scripts()).toHaveLength(0);
  });

  it('rejects when the script fails, and a retry adds a fresh tag', async () => {
    const attempt = cloudPaymentsWidget.load('https://widget.cloudpayments.ru/bundles/cloudpayments.js');
    scripts()[0]?.dispatchEvent(new Event('error'));
    await expect(attempt).rejects.toThrow();
    expect(scripts()).toHaveLength(0);
    const retry = cloudPaymentsWidget.load('https://widget.cloudpayments.ru/bundles/cloudpayments.js');
    expect(scripts()).toHaveLength(1);
    installCp();
    scripts()[0]?.dispatchEvent(new Event('load'));
    await expect(retry).resolves.toBeUndefined();
  });

  it('rejects when the script loads without cp.CloudPayments', async () => {
    const attempt = cloudPaymentsWidget.load('/broken.js');
    scripts()[0]?.dispatchEvent(new Event('load'));
    await expect(attempt).rejects.toThrow();
  });
});

describe('payment widget: charge', () => {
  it("calls new cp.CloudPayments({language: 'ru-RU'}).pay('charge', options, callbacks)", async () => {
    const calls = installCp();
    const outcome = cloudPaymentsWidget.charge(options);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.settings).toEqual({ language: 'ru-RU' });
    expect(calls[0]?.method).toBe('charge');
    expect(calls[0]?.options).toBe(options);
    calls[0]?.callbacks.onSuccess(options);
    calls[0]?.callbacks.onComplete({ success: true }, options);
    await expect(outcome).resolves.toEqual({ status: 'success' });
  });

  it('passes the decline reason of onFail', async () => {
    const calls = installCp();
    const outcome = cloudPaymentsWidget.charge(options);
    calls[0]?.callbacks.onFail('Недостаточно средств на карте', options);
    await expect(outcome).resolves.toEqual({ status: 'fail', reason: 'Недостаточно средств на карте' });
  });

  it('reads a closed form as closed, not as a decline', async () => {
    const calls = installCp();
    const outcome = cloudPaymentsWidget.charge(options);
    calls[0]?.callbacks.onFail(USER_CANCELLED_REASON, options);
    await expect(outcome).resolves.toEqual({ status: 'closed' });
  });

  it('rejects when cp is missing', async () => {
    await expect(cloudPaymentsWidget.charge(options)).rejects.toThrow();
  });

  it('settles once', async () => {
    const calls = installCp();
    const spy = vi.fn();
    const outcome = cloudPaymentsWidget.charge(options).then(spy);
    calls[0]?.callbacks.onComplete({}, options);
    calls[0]?.callbacks.onSuccess(options);
    await outcome;
    expect(spy).toHaveBeenCalledWith({ status: 'closed' });
  });
});
