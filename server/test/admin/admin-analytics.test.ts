import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYTICS_TIME_ZONE } from '@app/contracts';
import { credit, placeHold, settleHold } from '../../src/features/wallet/wallet.queries.ts';
import { adminCalls, createTestApp, newAdmin, newUser, seedCatalog, type Catalog, type TestApp, type TestUser } from '../support/index.ts';

/*
 * Analytics per Moscow day, checked against rows this test inserts at known moments (its own
 * database, so nothing else is counted): money in and out, payments, plans, runs and tokens.
 */

let t: TestApp;
let api: ReturnType<typeof adminCalls>;
let catalog: Catalog;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
  catalog = await seedCatalog(t.db);
  api = adminCalls(t.app, (await newAdmin(t.db)).token);
});
afterAll(() => t.close());

interface Day {
  date: string;
  revenue: number;
  payments: number;
  new_subscriptions: number;
  active_subscriptions: number;
  generations: number;
  words_spent: number;
  media_spent: number;
}
interface Analytics {
  from: string;
  to: string;
  time_zone: string;
  days: Day[];
  totals: Omit<Day, 'date' | 'active_subscriptions'>;
}

const at = (iso: string) => new Date(iso);
let transaction = 7_000_000;
/** What these invoices' checkouts showed (the figures do not matter here). */
const BOUGHT = { tariff_name: 'Пакет', words: 0, media_tenths: 0, trial_days: 0 };

async function invoice(user: TestUser, rubles: number, paidAt: string | null) {
  const row = await t.db
    .insertInto('invoices')
    .values({
      user_id: user.id,
      tariff_id: catalog.wordsPack.id,
      kind: 'package',
      description: 'Пакет',
      ...BOUGHT,
      amount_kopecks: rubles * 100,
      status: paidAt ? 'paid' : 'pending',
      paid_at: paidAt ? at(paidAt) : null,
      transaction_id: paidAt ? ++transaction : null,
    })
    .returning(['id', 'transaction_id'])
    .executeTakeFirstOrThrow();
  return row;
}

async function plan(user: TestUser, paidAt: string | null, endedAt: string | null = null) {
  const row = await t.db
    .insertInto('subscriptions')
    .values({ user_id: user.id, tariff_id: catalog.monthly.id, name: 'Бизнес', amount_kopecks: 249_000, first_amount_kopecks: 249_000, status: endedAt ? 'expired' : paidAt ? 'active' : 'pending', paid_at: paidAt ? at(paidAt) : null, ended_at: endedAt ? at(endedAt) : null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function hold(user: TestUser, kind: 'words' | 'media', amount: number, spent: number | null, placedAt: string) {
  const ref = await placeHold(t.db, { userId: user.id, kind, amount, idempotencyKey: `analytics:${kind}:${placedAt}:${String(amount)}` });
  if (spent !== null) await settleHold(t.db, ref, spent);
  // A hold's time is never changed by the service: set here as if placed then.
  await sql`update wallet_holds set created_at = ${at(placedAt)} where id = ${ref.id}`.execute(t.db);
}

describe('GET /api/admin/analytics', () => {
  it('counts each series per Moscow day, 0 on empty days, against the rows inserted', async () => {
    const [anna, boris, vera] = [await newUser(t.db), await newUser(t.db), await newUser(t.db)];
    // Money in: 10 March 10:00 and 11 March 00:30 Moscow (still the 10th in UTC); one before the period, one never paid.
    const first = await invoice(anna, 490, '2025-03-10T07:00:00Z');
    await invoice(boris, 290, '2025-03-10T21:30:00Z');
    await invoice(boris, 999, '2025-03-09T20:59:00Z');
    await invoice(vera, 5000, null);
    // Plans: two paid on the 10th (one ends on the 11th at noon), one on the 12th, one never paid.
    const running = await plan(anna, '2025-03-10T08:00:00Z');
    await plan(boris, '2025-03-10T09:00:00Z', '2025-03-11T09:00:00Z');
    await plan(vera, '2025-03-12T05:00:00Z');
    await plan(vera, null);
    // A renewal charged on the 11th, and one that failed (no money).
    for (const [success, id] of [[true, ++transaction], [false, ++transaction]] as const) {
      await t.db
        .insertInto('auto_charges')
        .values({ user_id: anna.id, subscription_id: running, name: 'Бизнес', success, amount_kopecks: 99_000, transaction_id: id, created_at: at('2025-03-11T09:00:00Z') })
        .execute();
    }
    // Money out: 100 ₽ refunded on the 11th; a refund asked for and not reported counts nothing.
    await t.db
      .insertInto('payment_refunds')
      .values([
        { invoice_id: first.id, user_id: anna.id, payment_transaction_id: first.transaction_id ?? 0, amount_kopecks: 10_000, applied_kopecks: 10_000, status: 'done', applied_at: at('2025-03-11T10:00:00Z') },
        { invoice_id: first.id, user_id: anna.id, payment_transaction_id: first.transaction_id ?? 0, amount_kopecks: 20_000, status: 'requested' },
      ])
      .execute();
    // Runs: three on the 10th, one on the 11th.
    for (const createdAt of ['2025-03-10T06:00:00Z', '2025-03-10T12:00:00Z', '2025-03-10T20:59:59Z', '2025-03-10T21:00:00Z']) {
      await t.db.insertInto('generations').values({ user_id: anna.id, variant: 'img', product_name: 'Портрет', model_name: 'Демо', wallet: 'media', created_at: at(createdAt) }).execute();
    }
    // Tokens: on the 10th 100 words held and 60 kept; on the 11th 2.5 media held and all released, 3 media kept, 50 words still held.
    await t.db.transaction().execute(async (tx) => {
      await credit(tx, { userId: anna.id, kind: 'words', reason: 'package', idempotencyKey: `analytics-words-${String(anna.id)}` }, 1000);
      await credit(tx, { userId: anna.id, kind: 'media', reason: 'package', idempotencyKey: `analytics-media-${String(anna.id)}` }, 100);
    });
    await hold(anna, 'words', 100, 60, '2025-03-10T10:00:00Z');
    await hold(anna, 'media', 25, 0, '2025-03-11T10:00:00Z');
    await hold(anna, 'media', 30, 30, '2025-03-11T11:00:00Z');
    await hold(anna, 'words', 50, null, '2025-03-11T12:00:00Z');

    const result = await api.get<Analytics>('/api/admin/analytics?from=2025-03-10&to=2025-03-12');
    expect(result).toMatchObject({ from: '2025-03-10', to: '2025-03-12', time_zone: ANALYTICS_TIME_ZONE });
    expect(result.days).toEqual([
      { date: '2025-03-10', revenue: 490, payments: 1, new_subscriptions: 2, active_subscriptions: 2, generations: 3, words_spent: 60, media_spent: 0 },
      { date: '2025-03-11', revenue: 290 + 990 - 100, payments: 2, new_subscriptions: 0, active_subscriptions: 1, generations: 1, words_spent: 0, media_spent: 3 },
      { date: '2025-03-12', revenue: 0, payments: 0, new_subscriptions: 1, active_subscriptions: 2, generations: 0, words_spent: 0, media_spent: 0 },
    ]);
    expect(result.totals).toEqual({ revenue: 1670, payments: 3, new_subscriptions: 3, generations: 4, words_spent: 60, media_spent: 3 });
    // A period of empty days answers zeros, one per day.
    const quiet = await api.get<Analytics>('/api/admin/analytics?from=2024-12-30&to=2025-01-02');
    expect(quiet.days.map((d) => d.date)).toEqual(['2024-12-30', '2024-12-31', '2025-01-01', '2025-01-02']);
    expect(quiet.days.every((d) => d.revenue === 0 && d.payments === 0 && d.generations === 0 && d.active_subscriptions === 0)).toBe(true);
  });

  it('by default the 30 days up to today in Moscow; a leap year of 366 days is allowed', async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: ANALYTICS_TIME_ZONE }).format(new Date());
    const recent = await api.get<Analytics>('/api/admin/analytics');
    expect(recent.to).toBe(today);
    expect(recent.days).toHaveLength(30);
    expect(recent.days.at(-1)?.date).toBe(today);
    expect((await api.get<Analytics>('/api/admin/analytics?to=2025-03-12')).from).toBe('2025-02-11');
    expect((await api.get<Analytics>('/api/admin/analytics?from=2024-01-01&to=2024-12-31')).days).toHaveLength(366);
  });

  it('refuses impossible dates, reversed and too long periods in Russian, per field', async () => {
    const cases: [string, Record<string, string[]>][] = [
      ['from=2025-03-12&to=2025-03-10', { from: ['Начало периода позже его конца'] }],
      ['from=2024-01-01&to=2025-01-01', { to: ['Период не длиннее 366 дней'] }],
      ['from=2025-02-30&to=2025-03-01', { from: ['Такой даты нет'] }],
      ['from=2025-3-1', { from: ['Дата в формате ГГГГ-ММ-ДД'] }],
      ['to=yesterday', { to: ['Дата в формате ГГГГ-ММ-ДД'] }],
      ['from=2999-01-01', { from: ['Начало периода позже его конца'] }],
    ];
    for (const [query, text] of cases) {
      const res = await api.send('GET', `/api/admin/analytics?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.data.text, query).toEqual(text);
    }
  });
});

describe('migration 0020', () => {
  it('records the refunds applied before it, so the revenue of their days stays right', async () => {
    const app = await createTestApp({ workers: false });
    try {
      const { wordsPack } = await seedCatalog(app.db);
      const user = await newUser(app.db);
      await app.db
        .insertInto('invoices')
        .values({ user_id: user.id, tariff_id: wordsPack.id, kind: 'package', description: 'Пакет', ...BOUGHT, amount_kopecks: 29_000, status: 'refunded', transaction_id: 8_000_001, paid_at: at('2025-04-01T09:00:00Z'), refunded_kopecks: 29_000, refunded_at: at('2025-04-02T09:00:00Z') })
        .execute();
      const migration = await import('../../src/db/migrations/0020_create_settings_and_refunds.ts');
      const db = app.db as unknown as Kysely<unknown>;
      await migration.down(db);
      await migration.up(db);
      const rows = await app.db.selectFrom('payment_refunds').select(['invoice_id', 'amount_kopecks', 'applied_kopecks', 'status', 'applied_at']).execute();
      expect(rows).toEqual([{ invoice_id: expect.any(Number) as number, amount_kopecks: 29_000, applied_kopecks: 29_000, status: 'done', applied_at: at('2025-04-02T09:00:00Z') }]);
      const result = (await adminCalls(app.app, (await newAdmin(app.db)).token).get<Analytics>('/api/admin/analytics?from=2025-04-01&to=2025-04-02')).days;
      expect(result.map((d) => [d.date, d.revenue, d.payments])).toEqual([
        ['2025-04-01', 290, 1],
        ['2025-04-02', -290, 0],
      ]);
    } finally {
      await app.close();
    }
  });
});
