import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fireEvent, userEvent, waitFor, within } from 'storybook/test';
import { ApiError } from '@app/kit';
import { freshQueries, pending } from '@app/kit/stories';
import type { AdminPaymentDetail } from '@app/contracts/admin';
import { fakeAdminApi } from '../fake-api.ts';
import { ADMIN_TABS, type TabFlag } from '../routes.ts';
import { BillingTabs } from './BillingTabs.tsx';
import { fakeBillingApi, type FakeBillingAnswers } from './fake-api.ts';
import { DUPLICATE, LOG, PAYMENT, PAYMENTS, SUBSCRIPTIONS } from './fixtures.ts';

const noop = () => undefined;
const tab = (flag: TabFlag) => ADMIN_TABS.find((t) => t.flag === flag) ?? ADMIN_TABS[0];
const offline = () => Promise.reject(new ApiError(0, 'NETWORK', 'Нет соединения с сервером. Проверьте интернет и попробуйте снова'));
const empty = () => Promise.resolve({ data: [], last_page: 1 });

/** A billing tab at an address (`/admin/payments?payment=15` is `tab8`, search `?payment=15`), its calls answered by fixtures and `answers`. */
const at = (flag: TabFlag, { id = null, search = '', answers = {} }: { id?: number | null; search?: string; answers?: FakeBillingAnswers } = {}): Story => ({
  args: { tab: tab(flag), id, search, api: { ...fakeAdminApi(), ...fakeBillingApi(answers) } },
});

const meta = {
  title: 'Widgets/admin/Billing',
  component: BillingTabs,
  decorators: [freshQueries],
  args: { tab: tab('tab5'), id: null, search: '', api: fakeAdminApi(), navigate: noop },
} satisfies Meta<typeof BillingTabs>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The dialogs render in a portal: the page's body holds them. */
const page = () => within(document.body);
/** Fills the refund form of the open payment and confirms. */
async function refund(amount: string) {
  const form = await page().findByRole('form', { name: 'Возврат' });
  await userEvent.type(within(form).getByLabelText('Сумма, ₽'), amount);
  await userEvent.type(within(form).getByLabelText('Причина'), 'Сбой генерации видео');
  await userEvent.click(within(form).getByRole('button', { name: 'Вернуть деньги' }));
  return form;
}

export const Tariffs: Story = at('tab5');
export const TariffsSortedByPrice: Story = at('tab5', { search: '?sort=amount&dir=asc' });
export const TariffsLoading: Story = at('tab5', { answers: { tariffs: pending } });
export const TariffsEmpty: Story = at('tab5', { answers: { tariffs: empty } });
export const TariffsNothingFound: Story = at('tab5', { search: '?q=студент', answers: { tariffs: empty } });
export const TariffsOffline: Story = at('tab5', { answers: { tariffs: offline } });
export const Tariff: Story = at('tab5', { id: 2 });
export const TariffMonthly: Story = at('tab5', { id: 3 });
export const TariffPackageOffSale: Story = at('tab5', { id: 4 });
export const TariffSaved: Story = {
  ...at('tab5', { id: 3 }),
  play: async () => {
    await userEvent.click(await page().findByRole('button', { name: 'Сохранить' }));
    await page().findByText('Сохранено. Страница тарифов уже показывает изменения.');
  },
};
export const TariffCreated: Story = at('tab5', { id: 2, search: '?created=1' });
export const TariffNew: Story = at('tab5', { search: '?new=1' });
export const TariffLoading: Story = at('tab5', { id: 2, answers: { tariff: pending } });
export const TariffNotFound: Story = at('tab5', { id: 99 });
export const TariffServerErrors: Story = {
  ...at('tab5', {
    id: 4,
    answers: { updateTariff: () => Promise.reject(new ApiError(400, 'VALIDATION', { first_amount: ['У разового пакета нет первого платежа'], 'description.0': ['Значки в описании: [[words]] и [[media]]'] })) },
  }),
  play: async () => {
    await userEvent.click(await page().findByRole('button', { name: 'Сохранить' }));
    await page().findByText('У разового пакета нет первого платежа');
  },
};

export const Subscriptions: Story = at('tab7');
export const SubscriptionsCancelled: Story = at('tab7', { search: '?status=cancelled', answers: { subscriptions: () => Promise.resolve({ data: SUBSCRIPTIONS.filter((s) => s.status === 'cancelled'), last_page: 1 }) } });
export const SubscriptionsNoneWithStatus: Story = at('tab7', { search: '?status=expired', answers: { subscriptions: empty } });
export const SubscriptionsLoading: Story = at('tab7', { answers: { subscriptions: pending } });
export const SubscriptionsOffline: Story = at('tab7', { answers: { subscriptions: offline } });
export const Subscription: Story = at('tab7', { search: '?subscription=7' });
export const SubscriptionLoading: Story = at('tab7', { search: '?subscription=7', answers: { subscription: pending } });
export const SubscriptionNotFound: Story = at('tab7', { search: '?subscription=99' });

const refunded: AdminPaymentDetail = { ...(PAYMENTS[2] as (typeof PAYMENTS)[number]), refunds: [{ ...(PAYMENT.refunds[1] as AdminPaymentDetail['refunds'][number]), id: 5, amount: 390, applied: 390, actor_id: null, actor_email: null }], duplicates: [], ledger: [] };
const failed: AdminPaymentDetail = { ...(PAYMENTS[3] as (typeof PAYMENTS)[number]), refunds: [], duplicates: [], ledger: [] };
const refundingAll: AdminPaymentDetail = { ...PAYMENT, refunding: 790, refundable: 0 };

export const Payments: Story = at('tab8');
export const PaymentsRefunded: Story = at('tab8', { search: '?status=refunded', answers: { payments: () => Promise.resolve({ data: PAYMENTS.filter((p) => p.status === 'refunded'), last_page: 1 }) } });
export const PaymentsLoading: Story = at('tab8', { answers: { payments: pending } });
export const PaymentsEmpty: Story = at('tab8', { answers: { payments: empty } });
export const PaymentsOffline: Story = at('tab8', { answers: { payments: offline } });
/** «Выгрузка в CSV» with a period the API would refuse: said before anything is asked. */
export const PaymentsExportWrongPeriod: Story = {
  ...at('tab8'),
  play: async () => {
    const form = await page().findByRole('form', { name: 'Выгрузка в CSV' });
    await fireEvent.change(within(form).getByLabelText('С'), { target: { value: '2026-02-10' } });
    await fireEvent.change(within(form).getByLabelText('По'), { target: { value: '2026-02-01' } });
    await userEvent.click(within(form).getByRole('button', { name: 'Платежи и возвраты, CSV' }));
    await within(form).findByText('Начало периода позже его конца');
  },
};
/** The server refused the export (the session ended): the reason, nothing saved. */
export const PaymentsExportRefused: Story = {
  ...at('tab8', { answers: { exportPayments: () => Promise.reject(new ApiError(401, 'UNAUTHENTICATED', 'Войдите в аккаунт')) } }),
  play: async () => {
    const form = await page().findByRole('form', { name: 'Выгрузка в CSV' });
    await userEvent.click(within(form).getByRole('button', { name: 'Платежи и возвраты, CSV' }));
    await within(form).findByRole('alert');
  },
};
export const Payment: Story = at('tab8', { search: '?payment=15' });
export const PaymentAllOnItsWayBack: Story = at('tab8', { search: '?payment=15', answers: { payment: () => Promise.resolve(refundingAll) } });
export const PaymentFullyRefunded: Story = at('tab8', { search: '?payment=14', answers: { payment: () => Promise.resolve(refunded) } });
export const PaymentFailed: Story = at('tab8', { search: '?payment=13', answers: { payment: () => Promise.resolve(failed) } });
export const PaymentLoading: Story = at('tab8', { search: '?payment=15', answers: { payment: pending } });
export const PaymentNotFound: Story = at('tab8', { search: '?payment=99' });
/** The same invoice charged a second time: it bought nothing, its refund asked by the service itself. */
export const PaymentSecondCharge: Story = at('tab8', { search: '?payment=16' });
const secondChargeRefund = (status: 'done' | 'failed') => DUPLICATE.refunds.map((r) => ({ ...r, status, applied: status === 'done' ? r.amount : null }));
export const PaymentSecondChargeRefunded: Story = at('tab8', {
  search: '?payment=16',
  answers: { payment: () => Promise.resolve({ ...DUPLICATE, status: 'refunded', refunded: 990, refunding: 0, refunds: secondChargeRefund('done') }) },
});
export const PaymentSecondChargeRefundRefused: Story = at('tab8', {
  search: '?payment=16',
  answers: { payment: () => Promise.resolve({ ...DUPLICATE, refunding: 0, refundable: 990, refunds: secondChargeRefund('failed') }) },
});
export const RefundConfirmation: Story = {
  ...at('tab8', { search: '?payment=15' }),
  play: async () => {
    const form = await refund('100');
    await within(form).findByRole('group', { name: 'Подтверждение возврата' });
  },
};
export const RefundRequested: Story = {
  ...at('tab8', { search: '?payment=15' }),
  play: async () => {
    const form = await refund('100');
    await userEvent.click(within(form).getByRole('button', { name: 'Да, вернуть' }));
    await within(form).findByText(/Возврат 100 ₽ запрошен/);
  },
};
/** CloudPayments confirmed the refund by the time the payment was read again: the message says so, not «запрошен». */
export const RefundDone: Story = {
  ...at('tab8', {
    search: '?payment=15',
    answers: {
      refundPayment: ({ body }) => {
        const amount = (body as { amount: number }).amount;
        const refund = { ...(PAYMENT.refunds[1] as AdminPaymentDetail['refunds'][number]), id: 4, amount, applied: amount, reason: 'Сбой генерации видео' };
        return Promise.resolve({ ...PAYMENT, refunded: PAYMENT.refunded + amount, refundable: PAYMENT.refundable - amount, refunds: [refund, ...PAYMENT.refunds] });
      },
    },
  }),
  play: async () => {
    const form = await refund('100');
    await userEvent.click(within(form).getByRole('button', { name: 'Да, вернуть' }));
    await within(form).findByText(/Возврат 100 ₽ проведён/);
  },
};
export const RefundTooLarge: Story = {
  ...at('tab8', { search: '?payment=15', answers: { refundPayment: () => Promise.reject(new ApiError(409, 'REFUND_TOO_LARGE', { amount: ['Можно вернуть не больше 590,00 ₽'] })) } }),
  play: async () => {
    const form = await refund('600');
    await userEvent.click(within(form).getByRole('button', { name: 'Да, вернуть' }));
    await waitFor(() => expect(within(form).getByText('Можно вернуть не больше 590,00 ₽')).toBeTruthy());
  },
};
export const RefundSandboxDisabled: Story = {
  ...at('tab8', { search: '?payment=15', answers: { refundPayment: () => Promise.reject(new ApiError(422, 'SANDBOX_DISABLED', 'Тестовый режим отключён администратором')) } }),
  play: async () => {
    const form = await refund('100');
    await userEvent.click(within(form).getByRole('button', { name: 'Да, вернуть' }));
    await within(form).findByRole('alert');
  },
};

export const Log: Story = at('tab9');
export const LogCharges: Story = at('tab9', { search: '?kind=charge', answers: { subscriptionLog: () => Promise.resolve({ data: LOG.filter((l) => l.kind === 'charge'), last_page: 1 }) } });
export const LogLoading: Story = at('tab9', { answers: { subscriptionLog: pending } });
export const LogEmpty: Story = at('tab9', { answers: { subscriptionLog: empty } });
export const LogOffline: Story = at('tab9', { answers: { subscriptionLog: offline } });

export const Cards: Story = at('tab10');
export const CardsAfterDelete: Story = at('tab10', { search: '?deleted=Наш канал' });
export const CardsLoading: Story = at('tab10', { answers: { dashboardCards: pending } });
export const CardsEmpty: Story = at('tab10', { answers: { dashboardCards: empty } });
export const CardsOffline: Story = at('tab10', { answers: { dashboardCards: offline } });
export const Card: Story = at('tab10', { id: 1 });
export const CardHidden: Story = at('tab10', { id: 5 });
export const CardCreated: Story = at('tab10', { id: 1, search: '?created=1' });
export const CardNew: Story = at('tab10', { search: '?new=1' });
export const CardLoading: Story = at('tab10', { id: 1, answers: { dashboardCard: pending } });
export const CardNotFound: Story = at('tab10', { id: 99 });
export const CardDeleteConfirmation: Story = {
  ...at('tab10', { id: 5 }),
  play: async () => {
    await userEvent.click(await page().findByRole('button', { name: 'Удалить карточку' }));
    await page().findByRole('group', { name: 'Подтверждение' });
  },
};
export const CardDeleteFailed: Story = {
  ...at('tab10', { id: 5, answers: { deleteDashboardCard: () => Promise.reject(new ApiError(404, 'NOT_FOUND', 'Карточка не найдена')) } }),
  play: async () => {
    await userEvent.click(await page().findByRole('button', { name: 'Удалить карточку' }));
    await userEvent.click(await page().findByRole('button', { name: 'Да' }));
    await page().findByRole('alert');
  },
};
