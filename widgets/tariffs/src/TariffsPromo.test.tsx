import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { billingEndpoints, type PaymentStart, type WidgetOptions } from '@app/contracts/browser';
import { promoEndpoints, type DiscountCheck } from '@app/contracts/promo';
import { ApiError } from '@app/kit';
import { fakeRoute } from '@app/kit/test';
import { Tariffs } from './Tariffs.tsx';
import type { TariffsApi } from './api.ts';
import type { PaymentWidget } from './payment-widget.ts';
import { NO_PLAN, TARIFFS } from './fixtures.ts';

const START: PaymentStart = { payment_id: 42, email: 'anna@example.ru', amount: 119.2, options: { invoiceId: '42', amount: 119.2 } as unknown as WidgetOptions };
const CHECK: DiscountCheck = { code: 'START20', percent: 20, amount: 149, discounted: 119.2, message: 'Скидка 20 % по промокоду START20: первая оплата 119,2 ₽ вместо 149 ₽' };

function setup(checkDiscount: (code: string) => Promise<DiscountCheck>) {
  const api = {
    tariffs: fakeRoute(billingEndpoints.tariffs, TARIFFS),
    check: fakeRoute(billingEndpoints.subscribeCheck, NO_PLAN),
    cancel: fakeRoute(billingEndpoints.cancelSubscription, { cancelled: true as const, active_until: '2025-06-15T12:00:00Z' }),
    paymentKey: fakeRoute(billingEndpoints.paymentKey, 'pk_test'),
    paySubscription: fakeRoute(billingEndpoints.paySubscription, START),
    payPackage: fakeRoute(billingEndpoints.payPackage, START),
    paymentStatus: fakeRoute(billingEndpoints.paymentStatus, { payment_id: 42, kind: 'subscription' as const, status: 'paid' as const, message: null }),
    checkDiscount: fakeRoute(promoEndpoints.checkDiscount, (r) => checkDiscount(r.query.code)),
  } satisfies TariffsApi;
  const widget: PaymentWidget = { load: vi.fn().mockResolvedValue(undefined), charge: vi.fn().mockResolvedValue({ status: 'success' }) };
  render(<Tariffs frontend={false} paymentScriptUrl="/sandbox/cloudpayments.js" sandbox={false} paymentsOff={false} api={api} widget={widget} pollDelayMs={1} pollAttempts={3} />);
  return { api, widget, user: userEvent.setup() };
}

const openPro = async (user: ReturnType<typeof userEvent.setup>) => {
  const card = within((await screen.findByRole('heading', { name: 'Про', level: 3 })).closest('article') as HTMLElement);
  await user.click(card.getByRole('button', { name: 'Попробовать за 149 р.' }));
  return within(await screen.findByRole('dialog'));
};

afterEach(() => {
  window.history.replaceState(null, '', '/');
});

describe('a discount code at a plan’s checkout', () => {
  it('a code from the address (where the balance page leads) is checked for the plan, said, and sent with the payment', async () => {
    window.history.replaceState(null, '', '/dashboard/user/payment?promo=START20');
    const { api, user } = setup(() => Promise.resolve(CHECK));
    const dialog = await openPro(user);
    expect(await dialog.findByText('Скидка 20 % по промокоду START20: первая оплата 119,2 ₽ вместо 149 ₽')).toBeTruthy();
    expect(api.checkDiscount).toHaveBeenCalledWith({ query: { code: 'START20', tariff_id: 2 } });
    await user.click(dialog.getByRole('button', { name: 'Перейти к оплате' }));
    await waitFor(() => expect(api.paySubscription).toHaveBeenCalledWith({ query: { id: 2, promo: 'START20' } }));
  });

  it('a refused code says why under its field and is not sent; without a code the payment is as before', async () => {
    const { api, user } = setup(() => Promise.reject(new ApiError(422, 'PROMO_OTHER_PLAN', 'Этот промокод действует на другой тариф')));
    const dialog = await openPro(user);
    expect(api.checkDiscount).not.toHaveBeenCalled();
    await user.type(dialog.getByLabelText('Промокод на скидку'), 'other10');
    await user.click(dialog.getByRole('button', { name: 'Применить' }));
    expect(await dialog.findByText('Этот промокод действует на другой тариф')).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: 'Перейти к оплате' }));
    await waitFor(() => expect(api.paySubscription).toHaveBeenCalledWith({ query: { id: 2 } }));
  });
});
