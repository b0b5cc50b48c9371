import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credit, placeHold, settleHold, takeBackUpTo } from '../../src/features/wallet/wallet.queries.ts';
import { call, createTestApp, newAdmin, newUser, walletState, type TestApp, type TestUser } from '../support/index.ts';

/*
 * The admin's users: the list searched and sorted on the server, one user with their activity,
 * role and blocking (never the last admin, never oneself), balance adjustments through the
 * ledger with a reason, once per request; every change in the audit log.
 */

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
  admin = await newAdmin(t.db);
});
afterAll(() => t.close());

interface Page<T> {
  data: T[];
  last_page: number;
}
interface Row {
  id: number;
  email: string;
  role: string;
  blocked: boolean;
  balances: { words: number; media: number };
}
interface Detail extends Row {
  ledger: { kind: string; amount: number; reason: string; note: string | null }[];
}
interface Audit {
  actor_id: number | null;
  actor_email: string | null;
  action: string;
  entity: string;
  entity_id: string;
  before: unknown;
  after: unknown;
}

const get = (url: string, token = admin.token) => call(t.app, { url, token });
const patch = (id: number, payload: unknown, token = admin.token) => call(t.app, { method: 'PATCH', url: `/api/admin/users/${String(id)}`, token, payload: payload as Record<string, unknown> });
const adjust = (id: number, payload: unknown, token = admin.token) => call(t.app, { method: 'POST', url: `/api/admin/users/${String(id)}/balance`, token, payload: payload as Record<string, unknown> });
const json = (res: { data: { json?: unknown } }): unknown => res.data.json;
const auditOf = async (id: number) => (json(await get(`/api/admin/audit?q=${encodeURIComponent(`user:${String(id)}`)}`)) as Page<Audit>).data;

describe('GET /api/admin/users', () => {
  it('searches by email on the server, sorts by a known column, pages by 20', async () => {
    const tag = crypto.randomBytes(3).toString('hex');
    const made = [];
    for (let i = 0; i < 22; i++) made.push(await newUser(t.db, { email: `${tag}-${String(i).padStart(2, '0')}@search.ru` }));
    const first = (json(await get(`/api/admin/users?q=${tag}&sort=email&dir=asc`)) as Page<Row>);
    expect(first.last_page).toBe(2);
    expect(first.data).toHaveLength(20);
    expect(first.data[0]?.email).toBe(`${tag}-00@search.ru`);
    expect(first.data[0]).toMatchObject({ role: 'user', blocked: false, balances: { words: 0, media: 0 } });
    const second = (json(await get(`/api/admin/users?q=${tag}&sort=email&dir=asc&page=2`)) as Page<Row>);
    expect(second.data.map((u) => u.email)).toEqual([`${tag}-20@search.ru`, `${tag}-21@search.ru`]);
    const newest = (json(await get(`/api/admin/users?q=${tag}&sort=id&dir=desc`)) as Page<Row>);
    expect(newest.data[0]?.id).toBe(made.at(-1)?.id);
  });

  it('treats % and _ in a search as themselves', async () => {
    await newUser(t.db, { email: `under_score${crypto.randomBytes(2).toString('hex')}@x.ru` });
    const all = (json(await get('/api/admin/users?q=%25')) as Page<Row>);
    expect(all.data).toEqual([]);
    const underscored = (json(await get('/api/admin/users?q=under_score')) as Page<Row>);
    expect(underscored.data.every((u) => u.email.includes('under_score'))).toBe(true);
    expect(underscored.data.length).toBeGreaterThan(0);
  });

  it('refuses unknown sorts, directions and pages in Russian', async () => {
    for (const query of ['sort=password_hash', 'dir=sideways', 'page=0', 'page=abc', `q=${'x'.repeat(201)}`]) {
      const res = await get(`/api/admin/users?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(JSON.stringify(res.data.text)).toMatch(/[а-я]/i);
    }
  });
});

describe('GET /api/admin/users/:id', () => {
  it('shows a user with balances and their ledger', async () => {
    const user = await newUser(t.db);
    await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'media', reason: 'package', idempotencyKey: `p-${String(user.id)}` }, 25));
    const res = await get(`/api/admin/users/${String(user.id)}`);
    expect(res.statusCode).toBe(200);
    expect((json(res) as Detail)).toMatchObject({ id: user.id, email: user.email, balances: { words: 0, media: 2.5 }, ledger: [{ kind: 'media', amount: 2.5, reason: 'package' }] });
  });

  it('404 in Russian for a user who does not exist; 400 for a malformed id', async () => {
    const missing = await get('/api/admin/users/99999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.data.text).toBe('Пользователь не найден');
    for (const id of ['abc', '-1', '0', '1.5', '%00']) expect((await get(`/api/admin/users/${id}`)).statusCode, id).toBe(400);
  });
});

describe('PATCH /api/admin/users/:id', () => {
  it('blocks and unblocks a user, makes them admin; each change is in the audit log with who, before and after', async () => {
    const user = await newUser(t.db);
    const blocked = await patch(user.id, { blocked: true });
    expect(blocked.statusCode).toBe(200);
    expect((json(blocked) as Detail).blocked).toBe(true);
    // A blocked user's calls are refused.
    const refused = await call(t.app, { url: '/api/new/user', token: user.token });
    expect(refused.statusCode).toBe(403);
    expect(refused.data.text).toBe('Аккаунт заблокирован. Обратитесь в поддержку');
    expect((json(await patch(user.id, { blocked: false })) as Detail).blocked).toBe(false);
    expect((json(await patch(user.id, { role: 'admin' })) as Detail).role).toBe('admin');
    const audit = await auditOf(user.id);
    expect(audit.map((a) => [a.action, a.before, a.after])).toEqual([
      ['user.update', { role: 'user', blocked: false }, { role: 'admin', blocked: false }],
      ['user.update', { role: 'user', blocked: true }, { role: 'user', blocked: false }],
      ['user.update', { role: 'user', blocked: false }, { role: 'user', blocked: true }],
    ]);
    expect(audit.every((a) => a.actor_id === admin.id && a.actor_email === admin.email)).toBe(true);
  });

  it('an admin cannot block themself', async () => {
    const me = await newAdmin(t.db);
    const res = await patch(me.id, { blocked: true }, me.token);
    expect(res.statusCode).toBe(409);
    expect(res.data.text).toBe('Нельзя заблокировать самого себя');
    expect(await auditOf(me.id)).toEqual([]);
  });

  it('the last admin cannot be demoted or blocked, even by two admins at once', async () => {
    const app = await createTestApp({ workers: false });
    try {
      const [a, b] = [await newAdmin(app.db), await newAdmin(app.db)];
      const demote = (actor: TestUser, target: TestUser) => call(app.app, { method: 'PATCH', url: `/api/admin/users/${String(target.id)}`, token: actor.token, payload: { role: 'user' } });
      const results = await Promise.all([demote(a, b), demote(b, a)]);
      // The second is refused as the last admin (409), or — when the first committed before it was
      // even authorised — as signed out, the change of role having ended its sessions (401; 403 from a
      // process whose memory had not yet heard of the change). Either way one admin is left.
      expect([
        [200, 401],
        [200, 403],
        [200, 409],
      ]).toContainEqual(results.map((r) => r.statusCode).sort());
      const admins = await app.db.selectFrom('users').select('id').where('role', '=', 'admin').execute();
      expect(admins).toHaveLength(1);
      const last = admins[0]?.id === a.id ? a : b;
      const other = await newAdmin(app.db);
      const res = await call(app.app, { method: 'PATCH', url: `/api/admin/users/${String(last.id)}`, token: other.token, payload: { blocked: true } });
      expect(res.statusCode).toBe(200);
      const lastRes = await call(app.app, { method: 'PATCH', url: `/api/admin/users/${String(other.id)}`, token: other.token, payload: { role: 'user' } });
      expect(lastRes.statusCode).toBe(409);
      expect(lastRes.data.text).toBe('Нельзя снять права с последнего администратора');
    } finally {
      await app.close();
    }
  });

  it('refuses empty, unknown and malformed changes in Russian, changing nothing', async () => {
    const user = await newUser(t.db);
    for (const payload of [{}, { role: 'root' }, { blocked: 'yes' }, { role: 'admin', password_hash: 'x' }, { blocked: null }]) {
      const res = await patch(user.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(JSON.stringify(res.data.text)).toMatch(/[а-я]/i);
    }
    expect((json(await get(`/api/admin/users/${String(user.id)}`)) as Detail)).toMatchObject({ role: 'user', blocked: false });
    expect(await auditOf(user.id)).toEqual([]);
  });
});

describe('POST /api/admin/users/:id/balance', () => {
  it('adds and takes through the ledger with the reason; the balance equals the ledger; the audit log has it', async () => {
    const user = await newUser(t.db);
    const add = await adjust(user.id, { wallet: 'media', amount: 12.5, reason: 'Компенсация за сбой', request_id: crypto.randomUUID() });
    expect(add.statusCode).toBe(200);
    expect((json(add) as Detail).balances.media).toBe(12.5);
    expect((json(add) as Detail).ledger[0]).toMatchObject({ kind: 'media', amount: 12.5, reason: 'admin_adjustment', note: 'Компенсация за сбой' });
    const take = await adjust(user.id, { wallet: 'media', amount: -2.5, reason: 'Ошибочное начисление', request_id: crypto.randomUUID() });
    expect((json(take) as Detail).balances.media).toBe(10);
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual(wallet.sums);
    expect(wallet.balance.media).toBe(100);
    const audit = await auditOf(user.id);
    expect(audit.map((a) => [a.action, a.before, a.after])).toEqual([
      ['user.balance', { wallet: 'media', balance: 12.5 }, { wallet: 'media', balance: 10, amount: -2.5, reason: 'Ошибочное начисление' }],
      ['user.balance', { wallet: 'media', balance: 0 }, { wallet: 'media', balance: 12.5, amount: 12.5, reason: 'Компенсация за сбой' }],
    ]);
  });

  it('a repeated request (same request_id, even at once) applies once', async () => {
    const user = await newUser(t.db);
    const body = { wallet: 'words', amount: 1000, reason: 'Бонус за отзыв', request_id: crypto.randomUUID() };
    const results = await Promise.all(Array.from({ length: 5 }, () => adjust(user.id, body)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect((await walletState(t.db, user.id)).balance.words).toBe(1000);
    expect(await auditOf(user.id)).toHaveLength(1);
    // The same request id for another user is refused.
    const other = await newUser(t.db);
    expect((await adjust(other.id, body)).statusCode).toBe(400);
    expect((await walletState(t.db, other.id)).balance.words).toBe(0);
  });

  it('taking more than the balance is refused and changes nothing', async () => {
    const user = await newUser(t.db);
    await adjust(user.id, { wallet: 'words', amount: 100, reason: 'Начисление', request_id: crypto.randomUUID() });
    const res = await adjust(user.id, { wallet: 'words', amount: -101, reason: 'Списание', request_id: crypto.randomUUID() });
    expect(res.statusCode).toBe(409);
    expect(res.data.text).toBe('Нельзя списать больше, чем есть на балансе');
    expect((await walletState(t.db, user.id)).balance.words).toBe(100);
    expect(await auditOf(user.id)).toHaveLength(1);
  });

  it('refuses a missing reason, zero, fractions of words, two decimals, huge amounts and junk, in Russian', async () => {
    const user = await newUser(t.db);
    const base = { wallet: 'words', amount: 10, reason: 'Причина', request_id: crypto.randomUUID() };
    const bad = [
      { ...base, reason: undefined },
      { ...base, reason: '  ' },
      { ...base, amount: 0 },
      { ...base, amount: 1.5 },
      { ...base, wallet: 'media', amount: 1.25 },
      { ...base, amount: 1e12 },
      { ...base, amount: '10' },
      { ...base, wallet: 'rubles' },
      { ...base, request_id: 'not-a-uuid' },
      { ...base, reason: 'x'.repeat(501) },
    ];
    for (const payload of bad) {
      const res = await adjust(user.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(JSON.stringify(res.data.text)).toMatch(/[а-я]/i);
    }
    expect((await walletState(t.db, user.id)).balance).toEqual({ words: 0, media: 0 });
    expect((await adjust(99999999, base)).statusCode).toBe(404);
  });
});

describe('adjustments beside the user’s spending and refunds', () => {
  it('adjusting while the wallet holds, settles and gives back to refunds at the same moment: every call answers, the balance equals the ledger', async () => {
    const user = await newUser(t.db);
    await t.db.transaction().execute((tx) => credit(tx, { userId: user.id, kind: 'words', reason: 'admin_adjustment', idempotencyKey: `race-${String(user.id)}` }, 100_000));
    const spend = async (i: number) => {
      const hold = await placeHold(t.db, { userId: user.id, kind: 'words', amount: 100, idempotencyKey: `race-hold-${String(user.id)}-${String(i)}` });
      await settleHold(t.db, hold, 40);
    };
    // As a Refund notification takes back a payment's tokens: the wallet locked, then its ledger line written.
    const refund = (i: number) =>
      t.db.transaction().execute((tx) => takeBackUpTo(tx, { userId: user.id, kind: 'words', reason: 'refund', idempotencyKey: `race-refund-${String(user.id)}-${String(i)}`, refType: 'invoice_refund', refId: i }, 50));
    const adjustments = Array.from({ length: 20 }, (_, i) => adjust(user.id, { wallet: 'words', amount: i % 2 === 0 ? 500 : -300, reason: 'Гонка', request_id: crypto.randomUUID() }));
    const others = [...Array.from({ length: 30 }, (_, i) => spend(i)), ...Array.from({ length: 30 }, (_, i) => refund(i))];
    const [answers, done] = await Promise.all([Promise.all(adjustments), Promise.allSettled(others)]);
    expect(answers.map((r) => r.statusCode).filter((s) => s !== 200), JSON.stringify(answers.filter((r) => r.statusCode !== 200).map((r) => r.body).slice(0, 3))).toEqual([]);
    expect(done.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => String(r.reason))).toEqual([]);
    const wallet = await walletState(t.db, user.id);
    expect(wallet.balance).toEqual(wallet.sums);
    expect(wallet.balance.words).toBe(100_000 + 10 * 500 - 10 * 300 - 30 * 40 - 30 * 50);
  });
});

describe('access', () => {
  it('every admin users and audit endpoint: 401 for a guest, 403 for a user', async () => {
    const user = await newUser(t.db);
    const calls = [
      (token?: string) => call(t.app, { url: '/api/admin/users', token }),
      (token?: string) => call(t.app, { url: `/api/admin/users/${String(user.id)}`, token }),
      (token?: string) => call(t.app, { method: 'PATCH', url: `/api/admin/users/${String(user.id)}`, token, payload: { role: 'admin' } }),
      (token?: string) => call(t.app, { method: 'POST', url: `/api/admin/users/${String(user.id)}/balance`, token, payload: { wallet: 'words', amount: 5, reason: 'Себе', request_id: crypto.randomUUID() } }),
      (token?: string) => call(t.app, { url: '/api/admin/audit', token }),
    ];
    for (const send of calls) {
      expect((await send()).statusCode).toBe(401);
      expect((await send(user.token)).statusCode).toBe(403);
    }
    expect((await walletState(t.db, user.id)).balance.words).toBe(0);
    expect((json(await get(`/api/admin/users/${String(user.id)}`)) as Detail).role).toBe('user');
  });
});
