import { render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { QueryProvider, createQueryClient } from '@app/kit';
import type { AdminPaymentDetail } from '@app/contracts/admin';
import { Admin } from '../Admin.tsx';
import { fakeAdminApi } from '../fake-api.ts';
import { fakeBillingApi, type FakeBillingAnswers } from './fake-api.ts';
import { DUPLICATE } from './fixtures.ts';
import { causeLabel } from './texts.ts';

/* An invoice paid twice as staff see it (Платежи), and a retry after a decline (Лог подписок). */

function setup(path: string, answers: FakeBillingAnswers = {}) {
  window.history.replaceState(null, '', path);
  render(
    <QueryProvider client={createQueryClient()}>
      <Admin api={{ ...fakeAdminApi(), ...fakeBillingApi(answers) }} />
    </QueryProvider>,
  );
}
const plain = (node: Element) => node.textContent.replace(/\s/g, ' ');
/** The notice of a second charge (a status message of the window). */
const notice = async (dialog: HTMLElement) => (await within(dialog).findAllByRole('status')).find((n) => n.textContent.startsWith('Повторная оплата счёта')) as HTMLElement;
const withRefund = (status: 'done' | 'failed', payment: Partial<AdminPaymentDetail>): AdminPaymentDetail => ({
  ...DUPLICATE,
  ...payment,
  refunds: DUPLICATE.refunds.map((r) => ({ ...r, status, applied: status === 'done' ? r.amount : null, refund_transaction_id: status === 'done' ? 5_000_150 : null })),
});

beforeEach(() => {
  window.history.replaceState(null, '', '/admin');
});

describe('an invoice paid twice in «Платежи»', () => {
  it('the list marks the second charge and names the payment it repeated', async () => {
    setup('/admin/payments');
    const table = await screen.findByRole('table');
    const row = (await within(table).findByText('Повторная оплата №15')).closest('tr') as HTMLElement;
    expect(plain(row)).toContain('Подписка «Про»');
    expect(plain(row)).toContain('990 ₽ в пути');
  });

  it('the second charge says it bought nothing and that its money goes back by itself, the service having asked', async () => {
    setup('/admin/payments?payment=16');
    const dialog = await screen.findByRole('dialog', { name: 'Платёж №16' });
    const said = await notice(dialog);
    expect(plain(said)).toBe('Повторная оплата счёта №15: карта списана второй раз, платёж ничего не купил и токенов не начислял. Деньги возвращаются автоматически: ждём подтверждения CloudPayments.');
    expect(within(said).getByRole('link', { name: '№15' })).toHaveAttribute('href', '/admin/payments?payment=15');
    const refunds = within(dialog).getByRole('region', { name: 'Возвраты' });
    expect(plain(refunds)).toContain('Повторная оплата счёта №15: деньги возвращаются автоматически, токены не начислялись');
    expect(within(refunds).getByText('Автоматически')).toBeTruthy();
    expect(within(dialog).getByText('Токены по этому платежу не начислялись')).toBeTruthy();
  });

  it('once CloudPayments confirmed it: back on the card', async () => {
    setup('/admin/payments?payment=16', { payment: () => Promise.resolve(withRefund('done', { status: 'refunded', refunded: 990, refunding: 0 })) });
    const dialog = await screen.findByRole('dialog', { name: 'Платёж №16' });
    expect(plain(await notice(dialog))).toContain('Деньги вернулись на карту автоматически: CloudPayments подтвердил возврат.');
    expect(within(dialog).getByText('Платёж возвращён полностью.')).toBeTruthy();
  });

  it('refused for good by CloudPayments: said as a warning, and the refund form is there to return it by hand', async () => {
    setup('/admin/payments?payment=16', { payment: () => Promise.resolve(withRefund('failed', { refunding: 0, refundable: 990 })) });
    const dialog = await screen.findByRole('dialog', { name: 'Платёж №16' });
    expect(plain(await notice(dialog))).toContain('CloudPayments отклонил автоматический возврат: верните деньги вручную формой ниже.');
    expect(within(dialog).getByRole('button', { name: 'Вся сумма: 990 ₽' })).toBeTruthy();
  });

  it('the payment it repeated lists its second charges, each a link', async () => {
    setup('/admin/payments?payment=15');
    const dialog = await screen.findByRole('dialog', { name: 'Платёж №15' });
    const lines = await within(dialog).findByRole('region', { name: 'Повторные оплаты' });
    expect(within(lines).getByRole('link', { name: '№16' })).toHaveAttribute('href', '/admin/payments?payment=16');
    expect(plain(lines)).toContain('Возвращается автоматически');
  });
});

describe('a retry after a decline in «Лог подписок»', () => {
  it('reads as the retry it is, not as a plan that ran out', async () => {
    setup('/admin/log');
    const table = await screen.findByRole('table');
    const row = (await within(table).findByText('Оплачено повторной попыткой после отказа')).closest('tr') as HTMLElement;
    expect(plain(row)).toContain('Оплата отклонена → Активна');
    expect(plain(row)).not.toContain('Истекла');
    expect(causeLabel('paid_after_checkout_closed')).toBe('Оплата пришла после закрытия счёта');
  });
});
