import type { AdminPromoCode, AdminPromoCodeDetail } from '@app/contracts/admin';

const base = { media: 0, discount_percent: null, tariff: null, max_uses: null, new_users_only: false, starts_on: null, ends_on: null, note: null, active: true, created_at: '2026-11-01T09:00:00.000Z', updated_at: '2026-11-01T09:00:00.000Z' } as const;

/** Codes of each kind and state, newest first. */
export const PROMO_CODES: AdminPromoCode[] = [
  { ...base, id: 5, code: 'WELCOME2026', kind: 'tokens', words: 5000, media: 1.5, max_uses: 1000, uses: 214, state: 'active', note: 'Рассылка ноября' },
  { ...base, id: 4, code: 'START20', kind: 'discount', words: 0, discount_percent: 20, tariff: { id: 2, name: 'Про' }, uses: 37, new_users_only: true, ends_on: '2026-12-31', state: 'active' },
  { ...base, id: 3, code: 'BLACKFRIDAY', kind: 'discount', words: 0, discount_percent: 50, max_uses: 100, uses: 100, state: 'used_up' },
  { ...base, id: 2, code: 'SUMMER', kind: 'tokens', words: 2000, uses: 12, starts_on: '2026-06-01', ends_on: '2026-08-31', state: 'expired' },
  { ...base, id: 1, code: 'TESTONLY', kind: 'tokens', words: 100, uses: 3, active: false, state: 'disabled' },
];

export const PROMO_DETAIL: AdminPromoCodeDetail = {
  ...(PROMO_CODES[1] as AdminPromoCode),
  redemptions: [
    { id: 31, user: { id: 7, email: 'anna@example.ru' }, words: 0, media: 0, discount: 99.8, payment_id: 118, payment_status: 'paid', created_at: '2026-11-20T10:15:00.000Z' },
    { id: 30, user: { id: 12, email: 'boris@example.ru' }, words: 0, media: 0, discount: 99.8, payment_id: 117, payment_status: 'pending', created_at: '2026-11-19T18:02:00.000Z' },
  ],
};
