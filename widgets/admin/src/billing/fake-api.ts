import type { RequestOf, ResponseOf, RouteContract } from '@app/contracts/browser';
import type { AdminDashboardCard, AdminPromoCodeDetail, AdminTariff } from '@app/contracts/admin';
import { ApiError, routeCall, type RouteCall } from '@app/kit';
import { billingApi, type BillingApi } from './api.ts';
import { PROMO_CODES, PROMO_DETAIL } from './promo-fixtures.ts';
import { CARDS, DUPLICATE, LOG, PAYMENT, PAYMENTS, SUBSCRIPTION, SUBSCRIPTIONS, TARIFFS } from './fixtures.ts';

type ContractOf<K extends keyof BillingApi> = BillingApi[K] extends RouteCall<infer R extends RouteContract> ? R : never;
type Answer<K extends keyof BillingApi> = (request: RequestOf<ContractOf<K>>) => Promise<ResponseOf<ContractOf<K>>>;

/** Answers of the billing tabs' calls a story or test replaces (the others come from fixtures). */
export type FakeBillingAnswers = { [K in keyof BillingApi]?: Answer<K> };

const found = <T>(row: T | undefined, message: string): Promise<T> => (row ? Promise.resolve(row) : Promise.reject(new ApiError(404, 'NOT_FOUND', message)));
const now = '2026-11-20T12:00:00.000Z';

const DEFAULTS: { [K in keyof BillingApi]: Answer<K> } = {
  tariffs: () => Promise.resolve({ data: TARIFFS, last_page: 2 }),
  tariff: ({ params }) => found(TARIFFS.find((t) => t.id === Number(params.id)), 'Тариф не найден'),
  createTariff: ({ body }) => Promise.resolve({ ...(TARIFFS[0] as AdminTariff), ...(body as Partial<AdminTariff>), id: 9, created_at: now, updated_at: now }),
  updateTariff: ({ params, body }) => found(TARIFFS.find((t) => t.id === Number(params.id)), 'Тариф не найден').then((t) => ({ ...t, ...(body as Partial<AdminTariff>), updated_at: now })),
  subscriptions: () => Promise.resolve({ data: SUBSCRIPTIONS, last_page: 1 }),
  subscription: ({ params }) => found(Number(params.id) === SUBSCRIPTION.id ? SUBSCRIPTION : undefined, 'Подписка не найдена'),
  payments: () => Promise.resolve({ data: PAYMENTS, last_page: 4 }),
  payment: ({ params }) => found([PAYMENT, DUPLICATE].find((p) => p.id === Number(params.id)), 'Платёж не найден'),
  refundPayment: ({ body }) => {
    const amount = (body as { amount: number }).amount;
    return Promise.resolve({
      ...PAYMENT,
      refunding: PAYMENT.refunding + amount,
      refundable: PAYMENT.refundable - amount,
      refunds: [{ id: 4, amount, applied: null, status: 'requested' as const, reason: 'Возврат', cause: null, actor_id: 41, actor_email: 'boris@example.ru', refund_transaction_id: null, created_at: now, applied_at: null }, ...PAYMENT.refunds],
    });
  },
  subscriptionLog: () => Promise.resolve({ data: LOG, last_page: 1 }),
  dashboardCards: () => Promise.resolve({ data: CARDS, last_page: 1 }),
  dashboardCard: ({ params }) => found(CARDS.find((c) => c.id === Number(params.id)), 'Карточка не найдена'),
  createDashboardCard: ({ body }) => Promise.resolve({ ...(CARDS[0] as AdminDashboardCard), ...(body as Partial<AdminDashboardCard>), id: 9, created_at: now, updated_at: now }),
  updateDashboardCard: ({ params, body }) => found(CARDS.find((c) => c.id === Number(params.id)), 'Карточка не найдена').then((c) => ({ ...c, ...(body as Partial<AdminDashboardCard>), updated_at: now })),
  deleteDashboardCard: () => Promise.resolve({ deleted: true as const }),
  exportLedger: ({ query }) => Promise.resolve(new Blob([`\uFEFFДата и время (МСК);№ записи\r\n${query.from};1\r\n`], { type: 'text/csv' })),
  promoCodes: () => Promise.resolve({ data: PROMO_CODES, last_page: 1 }),
  promoCode: ({ params }) => found(Number(params.id) === PROMO_DETAIL.id ? PROMO_DETAIL : PROMO_CODES.map((p) => ({ ...p, redemptions: [] })).find((p) => p.id === Number(params.id)), 'Промокод не найден'),
  createPromoCode: ({ body }) => Promise.resolve({ ...PROMO_DETAIL, ...(body as Partial<AdminPromoCodeDetail>), id: 9, uses: 0, redemptions: [], created_at: now, updated_at: now }),
  updatePromoCode: ({ body }) => Promise.resolve({ ...PROMO_DETAIL, ...(body as Partial<AdminPromoCodeDetail>), updated_at: now }),
  exportPayments: ({ query }) => Promise.resolve(new Blob([`\uFEFFДата и время (МСК);Операция\r\n${query.from};Оплата\r\n`], { type: 'text/csv' })),
};

/** The billing tabs: 5 «Тарифы», 7 «Подписки», 8 «Платежи», 9 «Лог подписок», 10 «Стартовая панель» answered from fixtures (stories; tests wrap them in mocks). */
export function fakeBillingApi(answers: FakeBillingAnswers = {}): BillingApi {
  const fake = <K extends keyof BillingApi>(key: K) => routeCall<ContractOf<K>>(billingApi[key].route as never, answers[key] ?? DEFAULTS[key]);
  return Object.fromEntries((Object.keys(billingApi) as (keyof BillingApi)[]).map((key) => [key, fake(key)])) as unknown as BillingApi;
}
