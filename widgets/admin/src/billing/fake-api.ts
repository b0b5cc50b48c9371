import type { billingApi } from './api.ts';

/** The billing tabs: 5 «Тарифы», 7 «Подписки», 8 «Платежи», 9 «Лог подписок», 10 «Стартовая панель» answered from fixtures (stories; tests wrap them in mocks). */
export function fakeBillingApi(): typeof billingApi {
  return {};
}
