import * as z from 'zod/mini';
import { IdSchema } from './fields.ts';
import type { Endpoint } from './route.ts';

/* What of the billing contract the browser needs: endpoints, the sandbox card form's schema (zod/mini), constants and texts. */

/** Markers inside a description line that the widget shows as the words or media-token icon. */
export const DESCRIPTION_MARKERS = { words: '[[words]]', media: '[[media]]' } as const;

/** `subscriptions_type`: 1 monthly with trial, 3 one-off package, anything else monthly. */
export const SUBSCRIPTION_TYPES = { monthlyTrial: 1, monthly: 2, package: 3 } as const;

export const SandboxChargeBodySchema = z.object({
  payment_id: IdSchema,
  card_number: z.pipe(
    z.pipe(
      z.string({ error: 'Введите номер карты' }),
      z.transform((s: string) => s.replace(/\s+/g, '')),
    ),
    z.string().check(z.regex(/^\d{16}$/, 'Номер карты состоит из 16 цифр')),
  ),
  exp: z.string({ error: 'Введите срок действия' }).check(z.regex(/^(0[1-9]|1[0-2])\/\d{2}$/, 'Срок действия в формате ММ/ГГ')),
  cvv: z.string({ error: 'Введите CVV' }).check(z.regex(/^\d{3}$/, 'CVV состоит из 3 цифр')),
});

export const billingPaths = {
  tariffs: { method: 'GET', path: '/api/new/tariff', access: 'public' },
  subscribeCheck: { method: 'GET', path: '/api/new/subscribe/check', access: 'user' },
  cancelSubscription: { method: 'DELETE', path: '/api/new/subscribe/', access: 'user' },
  paymentKey: { method: 'GET', path: '/api/payment/cloudpayments/key', access: 'user' },
  payPackage: { method: 'GET', path: '/api/payment/cloudpayments/pay', access: 'confirmed' },
  paySubscription: { method: 'GET', path: '/api/payment/cloudpayments/subscribe', access: 'confirmed' },
  paymentStatus: { method: 'GET', path: '/api/payment/cloudpayments/status', access: 'user' },
  notification: { method: 'POST', path: '/api/payment/cloudpayments/notify/:kind', access: 'public' },
  subscriptionStatus: { method: 'GET', path: '/api/new/subscribe/check_user', access: 'user' },
  subscriptionHistory: { method: 'GET', path: '/api/new/subscribe', access: 'user' },
  packagePurchases: { method: 'GET', path: '/api/new/subscribe/packages', access: 'user' },
  autoCharges: { method: 'GET', path: '/api/new/subscribe/payments', access: 'user' },
  conversion: { method: 'GET', path: '/api/new/target_2', access: 'user' },
  sandboxCharge: { method: 'POST', path: '/api/sandbox/cloudpayments/charge', access: 'user' },
  sandboxRenew: { method: 'POST', path: '/api/admin/sandbox/renew', access: 'admin' },
} as const satisfies Record<string, Endpoint>;

export const BILLING_TEXTS = {
  buy: 'Купить',
  trial: (firstAmount: number) => `Попробовать за ${String(firstAmount)} р.`,
  subscribe: 'Подписаться',
  current: 'Ваш тариф',
  cancelled: 'Подписка отменена',
  purchased: 'Покупка завершена',
  yes: 'Да',
  no: 'Нет',
  failed: 'Произошла ошибка',
  ordersTabSubscriptions: 'Подписки',
  ordersTabAutoCharges: 'Авто списания',
  ordersTabPackages: 'Пакеты',
  /** Said wherever the plan shows while its last renewal charge has failed (CloudPayments retries it). */
  pastDue: 'Не удалось списать оплату за продление. Мы повторим попытку — проверьте карту.',
} as const;

