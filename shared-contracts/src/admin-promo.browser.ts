import * as z from 'zod/mini';
import type { Endpoint } from './route.ts';
import { IdSchema } from './fields.ts';
import { bool, integer, multipleOf, text } from './admin-input-fields.ts';
import { PROMO_CODE_MESSAGE, PROMO_CODE_PATTERN } from './promo.browser.ts';

/* The admin's promo codes (a section of «Тарифы»): endpoints and the bodies staff send (zod/mini, checked by the editor and the server alike). */

export const adminPromoPaths = {
  promoCodes: { method: 'GET', path: '/api/admin/promo-codes', access: 'admin' },
  promoCode: { method: 'GET', path: '/api/admin/promo-codes/:id', access: 'admin' },
  createPromoCode: { method: 'POST', path: '/api/admin/promo-codes', access: 'admin' },
  updatePromoCode: { method: 'PUT', path: '/api/admin/promo-codes/:id', access: 'admin' },
} as const satisfies Record<string, Endpoint>;

export const PROMO_SORTS = ['id', 'code', 'created_at', 'uses'] as const;

const DATE_FORMAT = 'Дата в формате ГГГГ-ММ-ДД';
/** A calendar day (Moscow): a code is valid from the start of its first day to the end of its last. */
const DaySchema = z.nullable(
  z.string({ error: DATE_FORMAT }).check(
    z.regex(/^\d{4}-\d{2}-\d{2}$/, { error: DATE_FORMAT, abort: true }),
    z.refine((s) => {
      const d = new Date(`${s}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s) && d.getUTCFullYear() >= 2000 && d.getUTCFullYear() < 2100;
    }, 'Такой даты нет'),
  ),
);

const limits = {
  /** Uses in all; null: unlimited. Each user redeems a code once. */
  max_uses: z._default(z.nullable(integer('Укажите число использований', z.gte(1, 'Не меньше 1'), z.lte(10_000_000, 'Не больше 10 000 000'))), null),
  new_users_only: z._default(bool('Только для новых пользователей'), false),
  starts_on: z._default(DaySchema, null),
  ends_on: z._default(DaySchema, null),
  note: z._default(z.nullable(text('Заметка должна быть текстом', 500, 'Не длиннее 500 символов')), null),
  active: z._default(bool('Действует'), true),
};

const periodOk = (b: { starts_on: string | null; ends_on: string | null }) => b.starts_on === null || b.ends_on === null || b.starts_on <= b.ends_on;
const PERIOD_MESSAGE = { path: ['ends_on'], message: 'Последний день не раньше первого' };

/**
 * A new promo code: `tokens` grants words and/or media tokens (one decimal), `discount` takes
 * `discount_percent` off a plan's first payment (never below 1 ₽), for one plan or any.
 */
export const PromoCodeInputSchema = z
  .strictObject({
    code: z.pipe(
      z.pipe(z.string({ error: 'Укажите код' }).check(z.trim(), z.minLength(1, 'Укажите код')), z.transform((s: string) => s.toUpperCase())),
      z.string().check(z.regex(PROMO_CODE_PATTERN, PROMO_CODE_MESSAGE)),
    ),
    kind: z.enum(['tokens', 'discount'], { error: 'Вид: токены или скидка' }),
    words: z._default(integer('Укажите число слов', z.gte(0, 'Не меньше 0'), z.lte(100_000_000, 'Не больше 100 000 000')), 0),
    media: z._default(
      z.number({ error: 'Укажите число медиа токенов' }).check(z.gte(0, 'Не меньше 0'), z.lte(100_000, 'Не больше 100 000'), z.refine(multipleOf(0.1), 'Не больше одного знака после запятой')),
      0,
    ),
    discount_percent: z._default(z.nullable(integer('Укажите скидку в процентах', z.gte(1, 'Не меньше 1 %'), z.lte(99, 'Не больше 99 %'))), null),
    tariff_id: z._default(z.nullable(IdSchema), null),
    ...limits,
  })
  .check(
    z.refine((b) => b.kind !== 'tokens' || b.words > 0 || b.media > 0, { path: ['words'], message: 'Укажите слова или медиа токены' }),
    z.refine((b) => b.kind !== 'discount' || b.discount_percent !== null, { path: ['discount_percent'], message: 'Укажите скидку в процентах' }),
    z.refine(periodOk, PERIOD_MESSAGE),
  );
export type PromoCodeInput = z.input<typeof PromoCodeInputSchema>;
export type PromoCodeValues = z.output<typeof PromoCodeInputSchema>;

/** A change of a code: its limits, period, audience, note, and whether it works (what it grants stays as redeemed). */
export const PromoCodeUpdateSchema = z.strictObject(limits).check(z.refine(periodOk, PERIOD_MESSAGE));
export type PromoCodeUpdate = z.output<typeof PromoCodeUpdateSchema>;
