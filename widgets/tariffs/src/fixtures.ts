import type { SubscribeCheck, Tariff } from '@app/contracts/browser';

const base = { currency_provider: 'RUB', trial_days: 3, popular: false };

/** Plans like the seeded ones: two with a trial, one monthly, two packages. */
export const TARIFFS: Tariff[] = [
  { ...base, id: 1, name: 'Старт', amount: 490, first_amount: 99, subscriptions_type: 1, words: 100_000, media: 30, description: ['[[words]] 100 000 слов в месяц', '[[media]] 30 медиа токенов в месяц', 'Чат со всеми текстовыми моделями'] },
  { ...base, id: 2, name: 'Про', amount: 990, first_amount: 149, subscriptions_type: 1, popular: true, words: 300_000, media: 100, description: ['[[words]] 300 000 слов в месяц', '[[media]] 100 медиа токенов в месяц', 'Генерация изображений и видео'] },
  { ...base, id: 3, name: 'Бизнес', amount: 2490, first_amount: null, subscriptions_type: 2, words: 1_000_000, media: 300, description: ['[[words]] 1 000 000 слов в месяц', '[[media]] 300 медиа токенов в месяц', 'Все модели и приоритетная очередь'] },
  { ...base, id: 4, name: 'Пакет слов', amount: 290, first_amount: null, subscriptions_type: 3, words: 100_000, media: 0, description: ['[[words]] +100 000 слов', 'Не сгорают, действуют вместе с подпиской'] },
  { ...base, id: 5, name: 'Пакет медиа', amount: 390, first_amount: null, subscriptions_type: 3, words: 0, media: 50, description: ['[[media]] +50 медиа токенов', 'Для изображений и видео'] },
];

export const tariff = (id: number): Tariff => {
  const found = TARIFFS.find((t) => t.id === id);
  if (!found) throw new Error(`No fixture tariff ${String(id)}`);
  return found;
};

export const NO_PLAN: SubscribeCheck = { subscriptions: null, first: true, card: null, cancelled: false, active_until: null, trial: false, past_due: false, next_charge_at: null, next_charge_amount: null };
export const ON_PRO: SubscribeCheck = { subscriptions: 2, first: false, card: '•••• 4242', cancelled: false, active_until: '2025-06-15T12:00:00Z', trial: false, past_due: false, next_charge_at: '2025-06-15T12:00:00Z', next_charge_amount: 990 };
export const PRO_CANCELLED: SubscribeCheck = { ...ON_PRO, cancelled: true, next_charge_at: null, next_charge_amount: null };
