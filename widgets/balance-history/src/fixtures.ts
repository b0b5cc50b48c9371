import type { BalanceLine } from '@app/contracts/balance';
import type { User } from '@app/contracts/browser';
import type { ReferralSummary } from '@app/contracts/promo';

export const USER: User = { id: 7, email: 'anna@example.ru', email_confirmed: true, role: 'user', balances: { words: 98_650, media: 31.5 }, resend_in: 0 };

let nextId = 100;
const line = (fields: Omit<BalanceLine, 'id'>): BalanceLine => ({ id: nextId--, ...fields });

/** A month of a user's balance, newest first, as the server words it. */
export const LINES: BalanceLine[] = [
  line({ created_at: '2025-05-20T12:40:00Z', wallet: 'media', amount: -1, kind: 'reserved', title: 'Генерация «Картинка по описанию»', note: 'Идёт работа: токены зарезервированы, неиспользованные вернутся' }),
  line({ created_at: '2025-05-20T12:31:00Z', wallet: 'words', amount: -1_240, kind: 'spent', title: 'Ответ в чате «Рецепт борща на большую семью»', note: null }),
  line({ created_at: '2025-05-20T11:02:00Z', wallet: 'media', amount: 0, kind: 'returned', title: 'Генерация «Видео по описанию»', note: 'Ничего не списано: токены вернулись' }),
  line({ created_at: '2025-05-19T18:15:00Z', wallet: 'media', amount: 2.5, kind: 'adjustment', title: 'Начислено сервисом', note: 'Компенсация за сбой генерации' }),
  line({ created_at: '2025-05-19T10:00:00Z', wallet: 'words', amount: -100_000, kind: 'refund', title: 'Возврат оплаты пакета «Пакет слов»', note: null }),
  line({ created_at: '2025-05-18T09:30:00Z', wallet: 'media', amount: -1, kind: 'refund', title: 'Возврат оплаты тарифа «Старт»', note: 'Из токенов, которые были в работе, когда оплату вернули' }),
  line({ created_at: '2025-05-17T16:20:00Z', wallet: 'words', amount: 100_000, kind: 'purchase', title: 'Покупка пакета «Пакет слов»', note: null }),
  line({ created_at: '2025-05-16T08:00:00Z', wallet: 'words', amount: 10_000, kind: 'gift', title: 'Подарок за подписку на канал', note: null }),
  line({ created_at: '2025-05-15T12:00:00Z', wallet: 'media', amount: 30, kind: 'purchase', title: 'Пробный период тарифа «Старт»', note: null }),
  line({ created_at: '2025-05-15T12:00:00Z', wallet: 'words', amount: 100_000, kind: 'purchase', title: 'Пробный период тарифа «Старт»', note: null }),
];

/** A link that brought three registrations, two of them paid. */
export const REFERRAL: ReferralSummary = { code: 'k7m2q9xa4b', link: 'https://neurostudio.ru/register?ref=k7m2q9xa4b', bonus_words: 5000, invited: 3, paid: 2, earned_words: 10_000 };
