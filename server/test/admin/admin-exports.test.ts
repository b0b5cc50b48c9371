import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYTICS_TIME_ZONE } from '@app/contracts';
import { openExport } from '../../src/features/admin/admin-exports.service.ts';
import { adminCalls, call, createTestApp, eventually, newAdmin, newUser, nextTransactionId, seedCatalog, subscribe, type Catalog, type TestApp, type TestUser } from '../support/index.ts';

/*
 * The ledger and the payments with their refunds as CSV (for accounting): Moscow days, amounts
 * in roubles and tokens (words whole, media with one decimal), one row a line, UTF-8 with a BOM,
 * «;»-separated and RFC 4180 quoted, text that a spreadsheet would run as a formula defused.
 */

/** Reads CSV as RFC 4180 says (quotes doubled inside quoted fields; CRLF between records). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ';') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length) throw new Error('the last record has no CRLF');
  return rows;
}

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: ANALYTICS_TIME_ZONE }).format(new Date());
const MOSCOW_MOMENT = /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/;
const REASON = '=HYPERLINK("http://evil.example";"жми") — клиент; попросил\nвернуть';

let t: TestApp;
let catalog: Catalog;
let admin: TestUser;
let api: ReturnType<typeof adminCalls>;
let client: TestUser;
let paymentId: number;
let chargeId: number;

beforeAll(async () => {
  t = await createTestApp();
  catalog = await seedCatalog(t.db);
  admin = await newAdmin(t.db);
  api = adminCalls(t.app, admin.token);
  client = await newUser(t.db, { email: `buh-${crypto.randomBytes(3).toString('hex')}@example.ru` });
  const { invoice } = await subscribe(t.app, client, catalog.monthly);
  paymentId = invoice.payment_id;
  await api.change('POST', `/api/admin/users/${String(client.id)}/balance`, { wallet: 'media', amount: 2.5, reason: '+SUM(A1:A9)', request_id: crypto.randomUUID() });
  await api.change('POST', `/api/admin/users/${String(client.id)}/balance`, { wallet: 'words', amount: -500, reason: '@компенсация', request_id: crypto.randomUUID() });
  await api.change('POST', `/api/admin/payments/${String(paymentId)}/refund`, { amount: 1245.5, reason: REASON, request_id: crypto.randomUUID() });
  await eventually(
    () => api.get<{ refunds: { status: string }[] }>(`/api/admin/payments/${String(paymentId)}`),
    (p) => p.refunds.length === 1 && p.refunds.every((r) => r.status === 'done'),
  );
  const sub = await t.db.selectFrom('subscriptions').select('id').where('user_id', '=', client.id).executeTakeFirstOrThrow();
  const charge = await t.db
    .insertInto('auto_charges')
    .values({ user_id: client.id, subscription_id: sub.id, name: catalog.monthly.name, success: true, amount_kopecks: 249_000, transaction_id: nextTransactionId() })
    .returning('id')
    .executeTakeFirstOrThrow();
  chargeId = charge.id;
});
afterAll(() => t.close());

const exportOf = (which: 'ledger' | 'payments', query: string, token: string | null = admin.token) => call(t.app, { url: `/api/admin/exports/${which}?${query}`, token: token ?? undefined });
const period = () => `from=${today()}&to=${today()}`;

describe('CSV exports', () => {
  it('the ledger: a header and one line a ledger row of the period, in Moscow time, words whole and media with one decimal', async () => {
    const res = await exportOf('ledger', period());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="ledger_${today()}_${today()}.csv"; filename*=UTF-8''ledger_${today()}_${today()}.csv`);
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    const [head, ...rows] = parseCsv(res.body.slice(1));
    expect(head).toEqual(['Дата и время (МСК)', '№ записи', 'Пользователь', 'ID пользователя', 'Кошелёк', 'Сумма', 'Причина', 'Примечание', 'Основание']);
    const mine = rows.filter((r) => r[2] === client.email);
    for (const r of mine) expect(r[0]).toMatch(MOSCOW_MOMENT);
    const ledger = await t.db.selectFrom('wallet_ledger').select('id').where('user_id', '=', client.id).orderBy('created_at').orderBy('id').execute();
    expect(mine.map((r) => Number(r[1]))).toEqual(ledger.map((l) => l.id));
    expect(mine.map((r) => r.slice(4))).toEqual([
      ['слова', '1000000', 'Подписка', '', `Покупка тарифа «Бизнес» (платёж №${String(paymentId)})`],
      ['медиа', '300,0', 'Подписка', '', `Покупка тарифа «Бизнес» (платёж №${String(paymentId)})`],
      ['медиа', '2,5', 'Корректировка администратором', "'+SUM(A1:A9)", `Начислено сервисом (администратор №${String(admin.id)})`],
      ['слова', '-500', 'Корректировка администратором', "'@компенсация", `Списано сервисом (администратор №${String(admin.id)})`],
      ['слова', '-500200', 'Возврат платежа', '', `Возврат оплаты тарифа «Бизнес» (платёж №${String(paymentId)})`],
      ['медиа', '-150,0', 'Возврат платежа', '', `Возврат оплаты тарифа «Бизнес» (платёж №${String(paymentId)})`],
    ]);
    // Every line of the file is one row: no line break outside quotes.
    expect(res.body.slice(1).split('\r\n').length - 1).toBe(rows.length + 1);
  });

  it('the payments with their refunds and renewals: roubles with kopecks, a refund negative with its reason quoted and defused', async () => {
    const res = await exportOf('payments', period());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(`payments_${today()}_${today()}.csv`);
    const [head, ...rows] = parseCsv(res.body.slice(1));
    expect(head).toEqual(['Дата и время (МСК)', 'Операция', '№ операции', 'Платёж №', 'Продление №', 'Подписка №', 'Пользователь', 'Тариф', 'Вид', 'Сумма, ₽', 'Статус', 'Транзакция CloudPayments', 'Причина возврата']);
    const mine = rows.filter((r) => r[6] === client.email);
    const sub = await t.db.selectFrom('subscriptions').select('id').where('user_id', '=', client.id).executeTakeFirstOrThrow();
    const refund = await t.db.selectFrom('payment_refunds').selectAll().where('invoice_id', '=', paymentId).executeTakeFirstOrThrow();
    const invoice = await t.db.selectFrom('invoices').selectAll().where('id', '=', paymentId).executeTakeFirstOrThrow();
    expect(mine.map((r) => r.slice(1))).toEqual([
      ['Оплата', String(paymentId), String(paymentId), '', String(sub.id), client.email, catalog.monthly.name, 'Подписка', '2490,00', 'Оплачен', String(invoice.transaction_id), ''],
      ['Возврат', String(refund.id), String(paymentId), '', String(sub.id), client.email, catalog.monthly.name, 'Подписка', '-1245,50', 'Проведён', String(refund.refund_transaction_id), `'${REASON}`],
      ['Продление подписки', String(chargeId), '', String(chargeId), String(sub.id), client.email, catalog.monthly.name, 'Подписка', '2490,00', 'Оплачен', expect.stringMatching(/^\d+$/), ''],
    ]);
    // The reason's quotes, «;» and line break are kept inside one quoted field.
    expect(res.body).toContain(`"'=HYPERLINK(""http://evil.example"";""жми"") — клиент; попросил\nвернуть"`);
  });

  it('Moscow days: a row at 23:59:59 belongs to its day, one a second later to the next', async () => {
    const user = await newUser(t.db);
    const at = (iso: string, key: string) => t.db.insertInto('wallet_ledger').values({ user_id: user.id, kind: 'words', amount: 1, reason: 'admin_adjustment', idempotency_key: `${key}-${String(user.id)}`, created_at: new Date(iso) }).execute();
    await at('2025-03-01T20:59:59.999Z', 'late');
    await at('2025-03-01T21:00:00.000Z', 'early');
    const day = async (d: string) => parseCsv((await exportOf('ledger', `from=${d}&to=${d}`)).body.slice(1)).filter((r) => r[2] === user.email).map((r) => r[0]);
    expect(await day('2025-03-01')).toEqual(['01.03.2025 23:59:59']);
    expect(await day('2025-03-02')).toEqual(['02.03.2025 00:00:00']);
  });

  it('streams in batches from one snapshot: every row once, in order, whatever the batch size', async () => {
    const whole = parseCsv((await exportOf('ledger', period())).body.slice(1));
    for (const size of [1, 2, 3]) {
      const { body } = await openExport(t.app.ctx, 'ledger', { from: today(), to: today() }, size);
      const chunks: string[] = [];
      for await (const chunk of body) chunks.push(String(chunk));
      expect(parseCsv(chunks.join('').slice(1))).toEqual(whole);
    }
  });

  it('an export dropped by its client ends its snapshot, even before the first line', async () => {
    for (let i = 0; i < 15; i++) {
      const { body } = await openExport(t.app.ctx, i % 2 ? 'ledger' : 'payments', { from: today(), to: today() }, 1);
      if (i % 3 === 0) await new Promise((resolve) => body.once('data', resolve));
      body.destroy();
    }
    const open = () => sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`.execute(t.db);
    const left = await eventually(open, (r) => r.rows[0]?.n === 0);
    expect(left.rows[0]?.n).toBe(0);
  });

  it.each([
    ['from after to', 'from=2025-02-01&to=2025-01-01', { from: ['Начало периода позже его конца'] }],
    ['longer than 366 days', 'from=2024-01-01&to=2025-01-02', { to: ['Период не длиннее 366 дней'] }],
    ['no such day', 'from=2025-02-30&to=2025-03-01', { from: ['Такой даты нет'] }],
    ['a day missing', 'to=2025-03-01', { from: ['Дата в формате ГГГГ-ММ-ДД'] }],
  ])('a bad period is refused in Russian and sends no file: %s', async (_, query, text) => {
    for (const which of ['ledger', 'payments'] as const) {
      const res = await exportOf(which, query);
      expect({ status: res.statusCode, text: res.data.text }).toEqual({ status: 400, text });
      expect(res.headers['content-disposition']).toBeUndefined();
    }
  });

  it('is the admins’ alone: a guest 401, a user 403', async () => {
    const user = await newUser(t.db);
    for (const which of ['ledger', 'payments'] as const) {
      const guest = await exportOf(which, period(), null);
      expect({ status: guest.statusCode, code: guest.data.code }).toEqual({ status: 401, code: 'UNAUTHENTICATED' });
      const refused = await exportOf(which, period(), user.token);
      expect({ status: refused.statusCode, code: refused.data.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
    }
  });
});
