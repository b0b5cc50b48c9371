import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { PlanCache } from '../../src/features/billing/plan-cache.ts';
import { PgListener } from '../../src/lib/pg-listener.ts';
import { adminCalls, call, createTestApp, newAdmin, newUser, until, type Page, type TestApp, type TestUser } from '../support/index.ts';

/*
 * Plans (Тарифы) and dashboard cards (Стартовая панель) in the admin panel: lists searched,
 * sorted and paged on the server, editors validated in Russian, every change in the audit log,
 * and what users read (the plan list, the dashboard) changed at once.
 */

let t: TestApp;
let admin: TestUser;
let api: ReturnType<typeof adminCalls>;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
  admin = await newAdmin(t.db);
  api = adminCalls(t.app, admin.token);
});
afterAll(() => t.close());

interface Tariff {
  id: number;
  name: string;
  amount: number;
  first_amount: number | null;
  description: string[];
  subscriptions_type: number;
  popular: boolean;
  currency_provider: string;
  words: number;
  media: number;
  trial_days: number;
  sort: number;
  active: boolean;
}
interface Card {
  id: number;
  name: string;
  description: string;
  icon: string;
  link: string;
  sort: number;
  active: boolean;
}

const tag = () => crypto.randomBytes(3).toString('hex');
const plan = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  amount: 1490.5,
  first_amount: 99,
  description: ['[[words]] 200 000 слов в месяц', '[[media]] 50 медиа токенов', 'Без значков'],
  subscriptions_type: 1,
  popular: true,
  currency_provider: 'RUB',
  words: 200_000,
  media: 50.5,
  trial_days: 7,
  sort: 15,
  active: true,
  ...extra,
});
const publicPlans = async (frontend: '0' | '1' = '0') => (await call(t.app, { url: `/api/new/tariff?frontend=${frontend}` })).data.json as Tariff[];
const tariffRows = async () => t.db.selectFrom('tariffs').selectAll().orderBy('id').execute();

describe('tariffs', () => {
  it('creates a plan with every field; the plan list shows it at once; the audit log has it', async () => {
    const name = `Тест ${tag()}`;
    const created = await api.change<Tariff>('POST', '/api/admin/tariffs', plan(name));
    expect(created).toMatchObject(plan(name));
    expect(created.id).toBeGreaterThan(0);
    const row = await t.db.selectFrom('tariffs').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ amount_kopecks: 149_050, first_amount_kopecks: 9_900, media_tenths: 505, words: 200_000, trial_days: 7, sort: 15 });
    expect((await publicPlans()).find((p) => p.id === created.id)).toMatchObject({ name, amount: 1490.5, first_amount: 99, media: 50.5, description: plan(name).description });
    expect(await api.get<Tariff>(`/api/admin/tariffs/${String(created.id)}`)).toMatchObject({ ...plan(name), id: created.id });
    const audit = await api.audit('tariff', created.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'tariff.create', actor_id: admin.id, before: null, after: { name, amount: 1490.5, media: 50.5 } });
  });

  it('an edit is what GET /api/new/tariff answers on the next request; hiding a plan takes it off sale; before and after are audited', async () => {
    const created = await api.change<Tariff>('POST', '/api/admin/tariffs', plan(`До ${tag()}`));
    expect((await publicPlans()).some((p) => p.id === created.id)).toBe(true);
    const renamed = `После ${tag()}`;
    await api.change('PUT', `/api/admin/tariffs/${String(created.id)}`, plan(renamed, { amount: 1990, description: ['[[media]] 10 медиа токенов'], popular: false }));
    expect((await publicPlans()).find((p) => p.id === created.id)).toMatchObject({ name: renamed, amount: 1990, description: ['[[media]] 10 медиа токенов'], popular: false });
    await api.change('PUT', `/api/admin/tariffs/${String(created.id)}`, plan(renamed, { amount: 1990, description: ['[[media]] 10 медиа токенов'], popular: false, active: false }));
    expect((await publicPlans()).some((p) => p.id === created.id)).toBe(false);
    const start = await call(t.app, { url: `/api/payment/cloudpayments/subscribe?id=${String(created.id)}`, token: (await newUser(t.db)).token });
    expect(start.data.code).toBe('TARIFF_NOT_AVAILABLE');
    const audit = await api.audit('tariff', created.id);
    expect(audit.map((a) => a.action)).toEqual(['tariff.update', 'tariff.update', 'tariff.create']);
    expect(audit[1]).toMatchObject({ before: { amount: 1490.5, popular: true }, after: { name: renamed, amount: 1990, popular: false } });
    expect(audit[0]).toMatchObject({ before: { active: true }, after: { active: false } });
    // Saving the same fields again writes nothing to the audit log.
    await api.change('PUT', `/api/admin/tariffs/${String(created.id)}`, plan(renamed, { amount: 1990, description: ['[[media]] 10 медиа токенов'], popular: false, active: false }));
    expect(await api.audit('tariff', created.id)).toHaveLength(3);
  });

  it('a package (type 3) is listed without the frontend flag only and has no first amount', async () => {
    const pack = await api.change<Tariff>('POST', '/api/admin/tariffs', plan(`Пакет ${tag()}`, { subscriptions_type: 3, first_amount: null, popular: false }));
    expect((await publicPlans('0')).some((p) => p.id === pack.id)).toBe(true);
    expect((await publicPlans('1')).some((p) => p.id === pack.id)).toBe(false);
  });

  it('lists by name on the server, sorted by a known column, 20 a page', async () => {
    const mark = tag();
    for (let i = 0; i < 21; i++) await api.change('POST', '/api/admin/tariffs', plan(`Список ${mark} ${String(i).padStart(2, '0')}`, { amount: 100 + i }));
    const first = await api.get<Page<Tariff>>(`/api/admin/tariffs?q=${mark}&sort=amount&dir=desc`);
    expect(first.last_page).toBe(2);
    expect(first.data).toHaveLength(20);
    expect(first.data[0]).toMatchObject({ name: `Список ${mark} 20`, amount: 120 });
    const second = await api.get<Page<Tariff>>(`/api/admin/tariffs?q=${mark}&sort=amount&dir=desc&page=2`);
    expect(second.data.map((p) => p.amount)).toEqual([100]);
    expect((await api.get<Page<Tariff>>('/api/admin/tariffs?q=%25')).data).toEqual([]);
  });

  it('refuses missing, malformed and hostile fields in Russian, per field, changing nothing', async () => {
    const base = plan(`Плохой ${tag()}`);
    const bad: [Record<string, unknown>, string][] = [
      [{ ...base, name: undefined }, 'name'],
      [{ ...base, name: '   ' }, 'name'],
      [{ ...base, name: 'x'.repeat(101) }, 'name'],
      [{ ...base, amount: 0 }, 'amount'],
      [{ ...base, amount: -10 }, 'amount'],
      [{ ...base, amount: 10.001 }, 'amount'],
      [{ ...base, amount: '490' }, 'amount'],
      [{ ...base, amount: 1e12 }, 'amount'],
      [{ ...base, first_amount: 0 }, 'first_amount'],
      [{ ...base, subscriptions_type: 3 }, 'first_amount'],
      [{ ...base, subscriptions_type: 7 }, 'subscriptions_type'],
      [{ ...base, currency_provider: 'USD' }, 'currency_provider'],
      [{ ...base, description: 'одна строка' }, 'description'],
      [{ ...base, description: ['[[tokens]] неизвестный значок'] }, 'description'],
      [{ ...base, description: ['ok', ''] }, 'description'],
      [{ ...base, description: Array.from({ length: 21 }, () => 'строка') }, 'description'],
      [{ ...base, words: 1.5 }, 'words'],
      [{ ...base, words: -1 }, 'words'],
      [{ ...base, media: 1.25 }, 'media'],
      [{ ...base, trial_days: 400 }, 'trial_days'],
      [{ ...base, popular: 'yes' }, 'popular'],
      [{ ...base, id: 1 }, ''],
    ];
    const existing = await api.change<Tariff>('POST', '/api/admin/tariffs', plan(`Правка ${tag()}`));
    const before = await tariffRows();
    for (const [payload, field] of bad) {
      const res = await api.send('POST', '/api/admin/tariffs', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const text = res.data.text as Record<string, string[]>;
      expect(JSON.stringify(text), field).toMatch(/[а-я]/i);
      if (field) expect(Object.keys(text), JSON.stringify(payload)).toContain(field);
    }
    for (const [payload] of bad) expect((await api.send('PUT', `/api/admin/tariffs/${String(existing.id)}`, payload)).statusCode).toBe(400);
    expect(await tariffRows()).toEqual(before);
    expect((await api.audit('tariff', existing.id)).map((a) => a.action)).toEqual(['tariff.create']);
  });

  it('404 in Russian for a plan that does not exist; 400 for a malformed id; unknown sorts refused', async () => {
    for (const res of [await api.send('GET', '/api/admin/tariffs/99999999'), await api.send('PUT', '/api/admin/tariffs/99999999', plan('Нет'))]) {
      expect(res.statusCode).toBe(404);
      expect(res.data.text).toBe('Тариф не найден');
    }
    for (const id of ['abc', '0', '-3', '1.5']) expect((await api.send('GET', `/api/admin/tariffs/${id}`)).statusCode, id).toBe(400);
    for (const q of ['sort=amount_kopecks', 'dir=up', 'page=0']) expect((await api.send('GET', `/api/admin/tariffs?${q}`)).statusCode, q).toBe(400);
  });
});

describe('the plans on sale, cached', () => {
  it('other processes drop their copy when a change commits (NOTIFY); a change outside the admin API waits for the 10 seconds', async () => {
    const created = await api.change<Tariff>('POST', '/api/admin/tariffs', plan(`Кэш ${tag()}`));
    const other = new PlanCache();
    const listener = new PgListener(t.ctx.config.databaseUrl ?? '', pino({ level: 'silent' }));
    other.listen(listener);
    await listener.start();
    const listed = async () => (await other.list(t.db, true)).find((p) => p.id === created.id);
    try {
      expect(await listed()).toMatchObject({ amount: 1490.5 });
      await t.db.updateTable('tariffs').set({ amount_kopecks: 100 }).where('id', '=', created.id).execute();
      // Not announced: the other process keeps its copy (for at most its 10 seconds).
      expect(await listed()).toMatchObject({ amount: 1490.5 });
      await api.change('PUT', `/api/admin/tariffs/${String(created.id)}`, plan(`Кэш ${tag()}`, { amount: 1990 }));
      await until(async () => (await listed())?.amount === 1990, 5000, 20);
      // The copy is shared by every request: nobody can change it.
      const list = await other.list(t.db, true);
      expect(Object.isFrozen(list) && list.every((p) => Object.isFrozen(p))).toBe(true);
    } finally {
      await listener.stop();
    }
  });
});

const card = (name: string, extra: Record<string, unknown> = {}) => ({ name, description: 'Описание карточки', icon: '/assets/icons/chat.svg', link: '/chat', sort: 5, active: true, ...extra });
const dashboard = async (user: TestUser) => (await call(t.app, { url: '/api/new/dashboard', token: user.token })).data.json as Card[];

describe('dashboard cards', () => {
  it('creates, edits, hides and deletes a card; the dashboard follows each change; each is audited', async () => {
    const user = await newUser(t.db);
    const name = `Новости ${tag()}`;
    const created = await api.change<Card>('POST', '/api/admin/dashboard-cards', card(name, { link: 'https://example.ru/news?x=1' }));
    expect(created).toMatchObject(card(name, { link: 'https://example.ru/news?x=1' }));
    expect((await dashboard(user)).find((c) => c.id === created.id)).toEqual({ id: created.id, name, description: 'Описание карточки', icon: '/assets/icons/chat.svg', link: 'https://example.ru/news?x=1' });
    await api.change('PUT', `/api/admin/dashboard-cards/${String(created.id)}`, card(`${name}!`, { description: 'Новое описание' }));
    expect((await dashboard(user)).find((c) => c.id === created.id)).toMatchObject({ name: `${name}!`, description: 'Новое описание', link: '/chat' });
    await api.change('PUT', `/api/admin/dashboard-cards/${String(created.id)}`, card(`${name}!`, { description: 'Новое описание', active: false }));
    expect((await dashboard(user)).some((c) => c.id === created.id)).toBe(false);
    expect((await api.get<Card>(`/api/admin/dashboard-cards/${String(created.id)}`)).active).toBe(false);
    expect(await api.change('DELETE', `/api/admin/dashboard-cards/${String(created.id)}`)).toEqual({ deleted: true });
    expect((await api.send('GET', `/api/admin/dashboard-cards/${String(created.id)}`)).statusCode).toBe(404);
    const audit = await api.audit('dashboard_card', created.id);
    expect(audit.map((a) => a.action)).toEqual(['dashboard_card.delete', 'dashboard_card.update', 'dashboard_card.update', 'dashboard_card.create']);
    expect(audit[0]).toMatchObject({ before: { name: `${name}!`, active: false }, after: null });
    expect(audit[3]).toMatchObject({ before: null, after: { name } });
  });

  it('lists shown and hidden cards, searched by name or link, sorted, 20 a page', async () => {
    const mark = tag();
    for (let i = 0; i < 21; i++) await api.change('POST', '/api/admin/dashboard-cards', card(`Карта ${mark}`, { sort: i, active: i % 2 === 0 }));
    const first = await api.get<Page<Card>>(`/api/admin/dashboard-cards?q=${mark}&sort=sort&dir=asc`);
    expect(first).toMatchObject({ last_page: 2 });
    expect(first.data.map((c) => c.sort)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(first.data.filter((c) => !c.active)).toHaveLength(10);
    await api.change('POST', '/api/admin/dashboard-cards', card(`Ссылка ${mark}`, { link: `/ai-products?type=${mark}` }));
    expect((await api.get<Page<Card>>(`/api/admin/dashboard-cards?q=type%3D${mark}`)).data.map((c) => c.name)).toEqual([`Ссылка ${mark}`]);
  });

  it('refuses links and icons a browser would run or send elsewhere, and malformed fields, in Russian; nothing is stored', async () => {
    const before = await t.db.selectFrom('dashboard_cards').selectAll().orderBy('id').execute();
    const bad: [Record<string, unknown>, string][] = [
      [card('x', { link: 'javascript:alert(1)' }), 'link'],
      [card('x', { link: '//evil.example/path' }), 'link'],
      [card('x', { link: '/\\evil.example' }), 'link'],
      [card('x', { link: 'data:text/html,<b>x</b>' }), 'link'],
      [card('x', { icon: 'javascript:alert(1)' }), 'icon'],
      [card('x', { icon: '' }), 'icon'],
      [card(''), 'name'],
      [card('x', { description: undefined }), 'description'],
      [card('x', { sort: 'first' }), 'sort'],
      [card('x', { active: 1 }), 'active'],
      [card('x', { owner: 'admin' }), ''],
    ];
    for (const [payload, field] of bad) {
      const res = await api.send('POST', '/api/admin/dashboard-cards', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(JSON.stringify(res.data.text)).toMatch(/[а-я]/i);
      if (field) expect(Object.keys(res.data.text as object)).toContain(field);
    }
    expect(await t.db.selectFrom('dashboard_cards').selectAll().orderBy('id').execute()).toEqual(before);
    for (const res of [
      await api.send('PUT', '/api/admin/dashboard-cards/99999999', card('Нет')),
      await api.send('DELETE', '/api/admin/dashboard-cards/99999999'),
      await api.send('GET', '/api/admin/dashboard-cards/99999999'),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.data.text).toBe('Карточка не найдена');
    }
  });
});
