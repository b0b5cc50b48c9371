import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCalls, call, createTestApp, newAdmin, newUser, notify, payFields, seedCatalog, walletState, type Catalog, type Page, type TestApp, type TestUser } from '../support/index.ts';

/*
 * Promo codes: staff create them (audited), users redeem them once each on the balance page (a
 * ledger line «Промокод …») or take a discount at a plan's checkout; limits hold under concurrent
 * redemptions, and guessing is limited.
 */

let t: TestApp;
let admin: TestUser;
let api: ReturnType<typeof adminCalls>;
let catalog: Catalog;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
  admin = await newAdmin(t.db);
  api = adminCalls(t.app, admin.token);
  catalog = await seedCatalog(t.db);
});
afterAll(() => t.close());

interface Promo {
  id: number;
  code: string;
  uses: number;
  state: string;
  active: boolean;
  redemptions: { user: { id: number }; words: number; media: number; discount: number; payment_status: string | null }[];
}

let seq = 0;
const uniqueCode = (prefix = 'TEST') => `${prefix}${String(Date.now() % 1_000_000)}${String(++seq)}`;
const create = (body: Record<string, unknown>) => api.change<Promo>('POST', '/api/admin/promo-codes', { code: uniqueCode(), kind: 'tokens', words: 1000, ...body });
let address = 0;
/** Each user from an address of their own, so the per-address guessing limit is the limit under test only where a test says so. */
const redeem = (user: TestUser, code: string, remoteAddress = `10.0.${String(Math.floor(++address / 250))}.${String((address % 250) + 1)}`) =>
  call(t.app, { method: 'POST', url: '/api/new/promo/redeem', token: user.token, payload: { code }, remoteAddress });
const balanceLines = async (user: TestUser) => (await call(t.app, { url: '/api/new/balance/history', token: user.token })).data.json as { data: { title: string; amount: number; wallet: string; kind: string }[] };

describe('staff create promo codes', () => {
  it('a code is created, listed with its uses, changed and switched off, each written to the audit log', async () => {
    const code = uniqueCode('Spring');
    const created = await api.change<Promo>('POST', '/api/admin/promo-codes', { code: code.toLowerCase(), kind: 'tokens', words: 500, media: 1.5, max_uses: 3, note: 'Рассылка' });
    expect(created).toMatchObject({ code: code.toUpperCase(), uses: 0, state: 'active', active: true });
    const list = await api.get<Page<Promo>>(`/api/admin/promo-codes?q=${code.slice(0, 8)}`);
    expect(list.data.map((p) => p.code)).toContain(code.toUpperCase());
    const off = await api.change<Promo>('PUT', `/api/admin/promo-codes/${String(created.id)}`, { max_uses: 3, note: 'Рассылка', active: false });
    expect(off).toMatchObject({ active: false, state: 'disabled' });
    const audit = await api.audit('promo_code', created.id);
    expect(audit.map((a) => a.action)).toEqual(['promo_code.disable', 'promo_code.create']);
    expect(audit[1]?.after).toMatchObject({ code: code.toUpperCase(), words: 500, media: 1.5, max_uses: 3 });
  });

  it('refuses wrong bodies with Russian messages by field, a taken code on `code`, and changes nothing', async () => {
    const taken = await create({});
    const cases: [Record<string, unknown>, string][] = [
      [{ code: 'ab' }, 'code'],
      [{ code: 'кириллица' }, 'code'],
      [{ code: 'WITH SPACE' }, 'code'],
      [{ code: 'A'.repeat(33) }, 'code'],
      [{ code: taken.code.toLowerCase() }, 'code'],
      [{ words: 0, media: 0 }, 'words'],
      [{ words: -5 }, 'words'],
      [{ words: 1.5 }, 'words'],
      [{ media: 0.25 }, 'media'],
      [{ kind: 'discount', words: 0 }, 'discount_percent'],
      [{ kind: 'discount', words: 0, discount_percent: 100 }, 'discount_percent'],
      [{ kind: 'bonus' }, 'kind'],
      [{ max_uses: 0 }, 'max_uses'],
      [{ starts_on: '2026-02-30' }, 'starts_on'],
      [{ starts_on: '2026-03-10', ends_on: '2026-03-01' }, 'ends_on'],
      [{ note: 'a\u0000b' }, 'note'],
      [{ kind: 'discount', words: 0, discount_percent: 10, tariff_id: catalog.wordsPack.id }, 'tariff_id'],
      [{ extra: 1 }, ''],
    ];
    const before = await t.db.selectFrom('promo_codes').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    for (const [body, field] of cases) {
      const res = await api.send('POST', '/api/admin/promo-codes', { code: uniqueCode(), kind: 'tokens', words: 1000, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      if (field) expect(Object.keys(res.data.text as object), JSON.stringify(body)).toContain(field);
    }
    const after = await t.db.selectFrom('promo_codes').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('only admins reach the codes: a guest 401, a user 403', async () => {
    const user = await newUser(t.db);
    expect((await call(t.app, { url: '/api/admin/promo-codes' })).statusCode).toBe(401);
    expect((await call(t.app, { url: '/api/admin/promo-codes', token: user.token })).statusCode).toBe(403);
    expect((await call(t.app, { method: 'POST', url: '/api/admin/promo-codes', token: user.token, payload: { code: uniqueCode(), kind: 'tokens', words: 10 } })).statusCode).toBe(403);
    expect((await api.send('GET', '/api/admin/promo-codes/99999999')).statusCode).toBe(404);
  });
});

describe('users redeem codes', () => {
  it('a code credits its words and media once: ledger lines «Промокод …» in the balance history, balances equal the ledger', async () => {
    const promo = await create({ words: 700, media: 2.5 });
    const user = await newUser(t.db);
    const res = await redeem(user, ` ${promo.code.toLowerCase()} `);
    expect(res.statusCode).toBe(200);
    expect(res.data.json).toMatchObject({ kind: 'tokens', code: promo.code, words: 700, media: 2.5, balances: { words: 700, media: 2.5 } });
    const lines = (await balanceLines(user)).data;
    expect(lines.filter((l) => l.title === `Промокод ${promo.code}`).map((l) => [l.wallet, l.amount]).sort()).toEqual([
      ['media', 2.5],
      ['words', 700],
    ]);
    const again = await redeem(user, promo.code);
    expect([again.statusCode, again.data.code, again.data.text]).toEqual([422, 'PROMO_ALREADY_USED', 'Вы уже использовали этот промокод']);
    const { balance, sums } = await walletState(t.db, user.id);
    expect(balance).toEqual({ words: 700, media: 25 });
    expect(sums).toEqual(balance);
    expect((await api.get<Promo>(`/api/admin/promo-codes/${String(promo.id)}`)).redemptions).toMatchObject([{ user: { id: user.id }, words: 700, media: 2.5 }]);
  });

  it('clear Russian refusals: unknown, switched off, not yet valid, ended, used up, for new users only; nothing credited', async () => {
    const user = await newUser(t.db);
    const off = await create({ active: false });
    const later = await create({ starts_on: '2099-01-01' });
    const ended = await create({ starts_on: '2020-01-01', ends_on: '2020-01-31' });
    const full = await create({ max_uses: 1 });
    expect((await redeem(await newUser(t.db), full.code)).statusCode).toBe(200);
    const newOnly = await create({ new_users_only: true });
    const payer = await newUser(t.db);
    const invoice = (await call(t.app, { url: `/api/payment/cloudpayments/subscribe?id=${String(catalog.monthly.id)}`, token: payer.token })).data.json as { payment_id: number; amount: number };
    expect((await notify(t.app, 'pay', payFields(invoice, payer))).code).toBe(0);
    const expectations: [TestUser, string, string, string][] = [
      [user, 'NOSUCHCODE1', 'PROMO_NOT_FOUND', 'Такого промокода нет. Проверьте, правильно ли он введён'],
      [user, off.code, 'PROMO_DISABLED', 'Этот промокод больше не действует'],
      [user, later.code, 'PROMO_NOT_STARTED', 'Промокод действует с 01.01.2099'],
      [user, ended.code, 'PROMO_EXPIRED', 'Срок действия промокода истёк'],
      [user, full.code, 'PROMO_USED_UP', 'Промокод закончился: его уже использовали максимальное число раз'],
      [payer, newOnly.code, 'PROMO_NEW_USERS_ONLY', 'Этот промокод только для новых пользователей: у вас уже были оплаты'],
    ];
    for (const [who, code, errorCode, text] of expectations) {
      const res = await redeem(who, code);
      expect([res.statusCode, res.data.code, res.data.text], code).toEqual([422, errorCode, text]);
    }
    expect((await redeem(user, newOnly.code)).statusCode).toBe(200);
    const { balance, sums } = await walletState(t.db, user.id);
    expect(balance.words).toBe(1000);
    expect(sums).toEqual(balance);
  });

  it('hostile and wrong input: a guest 401, an unconfirmed user 403, malformed codes 400, nothing credited', async () => {
    const promo = await create({});
    expect((await call(t.app, { method: 'POST', url: '/api/new/promo/redeem', payload: { code: promo.code }, csrf: true })).statusCode).toBe(401);
    const unconfirmed = await newUser(t.db, { confirmed: false });
    expect((await redeem(unconfirmed, promo.code)).statusCode).toBe(403);
    const user = await newUser(t.db);
    for (const payload of [{}, { code: '' }, { code: 42 }, { code: ['A', 'B'] }, { code: "X' OR 1=1 --" }, { code: 'ÄÖÜ1234' }, { code: 'A'.repeat(65) }, { code: 'abc\u0000def' }]) {
      const res = await call(t.app, { method: 'POST', url: '/api/new/promo/redeem', token: user.token, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.data.status).toBe('error');
    }
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: 0, media: 0 });
    expect((await walletState(t.db, unconfirmed.id)).balance).toEqual({ words: 0, media: 0 });
  });

  it('20 redemptions at once of a code with 5 uses left: exactly 5 succeed, each balance equals its ledger', async () => {
    const promo = await create({ words: 300, max_uses: 7 });
    for (let i = 0; i < 2; i++) expect((await redeem(await newUser(t.db), promo.code)).statusCode).toBe(200);
    const users = await Promise.all(Array.from({ length: 20 }, () => newUser(t.db)));
    const replies = await Promise.all(users.map((u) => redeem(u, promo.code)));
    expect(replies.filter((r) => r.statusCode === 200)).toHaveLength(5);
    expect(replies.filter((r) => r.statusCode !== 200).map((r) => r.data.code)).toEqual(Array.from({ length: 15 }, () => 'PROMO_USED_UP'));
    const credited = [];
    for (const u of users) {
      const { balance, sums } = await walletState(t.db, u.id);
      expect(sums).toEqual(balance);
      if (balance.words > 0) credited.push(balance.words);
    }
    expect(credited).toEqual([300, 300, 300, 300, 300]);
    expect((await api.get<Promo>(`/api/admin/promo-codes/${String(promo.id)}`)).uses).toBe(7);
  });

  it('one user sending one code 10 times at once gets it once', async () => {
    const promo = await create({ words: 50 });
    const user = await newUser(t.db);
    const replies = await Promise.all(Array.from({ length: 10 }, () => redeem(user, promo.code)));
    expect(replies.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(new Set(replies.filter((r) => r.statusCode !== 200).map((r) => r.data.code))).toEqual(new Set(['PROMO_ALREADY_USED']));
    expect((await walletState(t.db, user.id)).balance.words).toBe(50);
  });

  it('guessing is limited: 10 unknown codes an hour a user, the 11th refused with 429; a code that exists costs nothing', async () => {
    const user = await newUser(t.db);
    const known = await create({ words: 5 });
    const ip = '10.9.9.9';
    for (let i = 0; i < 10; i++) expect((await redeem(user, `GUESS${String(i)}AAA`, ip)).data.code).toBe('PROMO_NOT_FOUND');
    const refused = await redeem(user, 'GUESS11AAA', ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.data.text).toMatch(/^Слишком много попыток ввести промокод\. Попробуйте через/);
    expect(refused.headers['retry-after']).toBeDefined();
    // Another user from the same address is still let through (30 an hour an address).
    const other = await newUser(t.db);
    expect((await redeem(other, known.code, ip)).statusCode).toBe(200);
  });
});

describe('a discount on a plan’s first payment', () => {
  const subscribeUrl = (tariffId: number, code?: string) => `/api/payment/cloudpayments/subscribe?id=${String(tariffId)}${code ? `&promo=${code}` : ''}`;

  it('the checkout charges the discounted amount; the Pay of that amount makes the plan; the code is then used', async () => {
    const promo = await create({ kind: 'discount', words: 0, discount_percent: 20, tariff_id: catalog.monthly.id });
    const user = await newUser(t.db);
    const balancePage = await redeem(user, promo.code);
    expect(balancePage.data.json).toMatchObject({ kind: 'discount', percent: 20, tariff: { id: catalog.monthly.id } });
    const check = await call(t.app, { url: `/api/new/promo/discount?code=${promo.code}&tariff_id=${String(catalog.monthly.id)}`, token: user.token });
    const full = catalog.monthly.amount_kopecks / 100;
    expect(check.data.json).toMatchObject({ percent: 20, amount: full, discounted: Math.round(catalog.monthly.amount_kopecks * 0.8) / 100 });
    const start = await call(t.app, { url: subscribeUrl(catalog.monthly.id, promo.code.toLowerCase()), token: user.token });
    expect(start.statusCode).toBe(200);
    const invoice = start.data.json as { payment_id: number; amount: number; options: { amount: number; data: { CloudPayments: { recurrent: { amount: number } } } } };
    expect(invoice.amount).toBe(Math.round(catalog.monthly.amount_kopecks * 0.8) / 100);
    expect(invoice.options.amount).toBe(invoice.amount);
    // Renewals are charged the plan's full price.
    expect(invoice.options.data.CloudPayments.recurrent.amount).toBe(full);
    expect((await notify(t.app, 'pay', payFields({ payment_id: invoice.payment_id, amount: full }, user))).code).toBe(12);
    expect((await notify(t.app, 'pay', payFields(invoice, user))).code).toBe(0);
    const again = await call(t.app, { url: subscribeUrl(catalog.pro.id, promo.code), token: user.token });
    expect(again.data.code).toBe('PROMO_OTHER_PLAN');
    const detail = await api.get<Promo>(`/api/admin/promo-codes/${String(promo.id)}`);
    expect(detail).toMatchObject({ uses: 1 });
    expect(detail.redemptions[0]).toMatchObject({ user: { id: user.id }, payment_status: 'paid' });
  });

  it('a declined checkout gives the use back; never below 1 ₽; a tokens code or a package is refused at checkout', async () => {
    const promo = await create({ kind: 'discount', words: 0, discount_percent: 99, max_uses: 1 });
    const user = await newUser(t.db);
    const first = (await call(t.app, { url: subscribeUrl(catalog.monthly.id, promo.code), token: user.token })).data.json as { payment_id: number; amount: number };
    expect(first.amount).toBe(Math.max(1, Math.round(catalog.monthly.amount_kopecks * 0.01) / 100));
    const other = await newUser(t.db);
    expect((await call(t.app, { url: subscribeUrl(catalog.monthly.id, promo.code), token: other.token })).data.code).toBe('PROMO_USED_UP');
    expect((await notify(t.app, 'fail', { ...payFields(first, user), Reason: 'InsufficientFunds', ReasonCode: 5051 })).code).toBe(0);
    const retry = await call(t.app, { url: subscribeUrl(catalog.monthly.id, promo.code), token: other.token });
    expect(retry.statusCode).toBe(200);
    const tokens = await create({});
    expect((await call(t.app, { url: subscribeUrl(catalog.monthly.id, tokens.code), token: user.token })).data.code).toBe('PROMO_NOT_DISCOUNT');
    expect((await call(t.app, { url: `/api/new/promo/discount?code=${promo.code}&tariff_id=${String(catalog.wordsPack.id)}`, token: user.token })).data.code).toBe('PROMO_NOT_FOR_PACKAGES');
    expect((await call(t.app, { url: subscribeUrl(catalog.monthly.id, 'bad code'), token: user.token })).statusCode).toBe(400);
  });

  it('10 checkouts at once of a discount with one use left: one gets it', async () => {
    const promo = await create({ kind: 'discount', words: 0, discount_percent: 10, max_uses: 1 });
    const users = await Promise.all(Array.from({ length: 10 }, () => newUser(t.db)));
    const replies = await Promise.all(users.map((u) => call(t.app, { url: subscribeUrl(catalog.monthly.id, promo.code), token: u.token, remoteAddress: `10.7.0.${String(u.id % 250)}` })));
    expect(replies.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.statusCode !== 200).map((r) => r.data.code)).toEqual(Array.from({ length: 9 }, () => 'PROMO_USED_UP'));
  });
});
