import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tariff } from '@app/contracts';
import type { Executor } from '../../src/db/database.ts';
import type { PgListener } from '../../src/lib/pg-listener.ts';
import { TariffCache } from '../../src/features/billing/tariff-cache.ts';
import { adminCalls, call, createTestApp, eventually, newAdmin, seedCatalog, type Catalog, type TestApp } from '../support/index.ts';

/*
 * The plans on sale kept in memory (TariffCache): answered from memory while the table's
 * notifications arrive, dropped in every process by any change of the table (whoever wrote it),
 * at once in the process whose admin edited a plan, and not kept at all while notifications
 * cannot arrive.
 */

let t: TestApp;
let other: TestApp;
let catalog: Catalog;
/** A connection of its own, for writes the app does not make. */
let client: pg.Client;
beforeAll(async () => {
  t = await createTestApp({ workers: false, env: { TARIFF_CACHE_SECONDS: '3600' } });
  other = await createTestApp({ workers: false, shareDatabaseWith: t, env: { TARIFF_CACHE_SECONDS: '3600' } });
  catalog = await seedCatalog(t.db);
  client = new pg.Client({ connectionString: t.databaseUrl });
  await client.connect();
});
afterAll(async () => {
  await client.end();
  await other.close();
  await t.close();
});

const names = async (app: TestApp, frontend: '0' | '1' = '0') => ((await call(app.app, { url: `/api/new/tariff?frontend=${frontend}` })).data.json as { id: number; name: string }[]).map((p) => p.name);
/** Renames a plan without the table's trigger (a replica session fires none): nothing is announced. */
const renameSilently = (id: number, name: string) => client.query(`begin; set local session_replication_role = replica; update tariffs set name = $$${name}$$ where id = ${String(id)}; commit`);
const rename = (id: number, name: string) => client.query('update tariffs set name = $1 where id = $2', [name, id]);

describe('the plan list kept in memory', () => {
  it('is answered from memory until the table announces a change, then read again in every process', async () => {
    await eventually(async () => t.ctx.listener.listening && other.ctx.listener.listening, Boolean);
    const before = await names(t);
    expect(before).toContain('Про');
    expect(await names(other)).toEqual(before);
    const plansOnly = await names(t, '1');
    expect(await names(other, '1')).toEqual(plansOnly);
    // A change nobody announced is not seen: the lists come from memory.
    await renameSilently(catalog.pro.id, 'Про тихо');
    expect(await names(t)).toEqual(before);
    expect(await names(other)).toEqual(before);
    expect(await names(t, '1')).toEqual(plansOnly);
    expect(await names(other, '1')).toEqual(plansOnly);
    // An announced change reaches both processes (each drops both lists: with and without packages).
    await rename(catalog.pro.id, 'Про громко');
    for (const app of [t, other]) {
      for (const frontend of ['0', '1'] as const) expect(await eventually(() => names(app, frontend), (n) => n.includes('Про громко'))).toContain('Про громко');
    }
    await rename(catalog.pro.id, 'Про');
  });

  it('an admin’s edit is on the editor’s process’s list at once, without waiting for the announcement', async () => {
    const admin = await newAdmin(t.db);
    const api = adminCalls(t.app, admin.token);
    const current = await api.get<Record<string, unknown>>(`/api/admin/tariffs/${String(catalog.monthly.id)}`);
    const fields = ['amount', 'first_amount', 'description', 'subscriptions_type', 'popular', 'currency_provider', 'words', 'media', 'trial_days', 'sort', 'active'];
    expect(await names(t)).toContain('Бизнес');
    expect(await names(other)).toContain('Бизнес');
    // The table's trigger off for this edit: only the editing process's own drop can show it.
    await client.query('alter table tariffs disable trigger tariffs_changed');
    try {
      await api.change('PUT', `/api/admin/tariffs/${String(catalog.monthly.id)}`, { ...Object.fromEntries(fields.map((f) => [f, current[f]])), name: 'Бизнес+' });
      expect(await names(t)).toContain('Бизнес+');
      expect(await names(other)).toContain('Бизнес');
    } finally {
      await client.query('alter table tariffs enable trigger tariffs_changed');
    }
    await rename(catalog.monthly.id, 'Бизнес');
    for (const app of [t, other]) expect(await eventually(() => names(app), (n) => n.includes('Бизнес') && !n.includes('Бизнес+'))).not.toContain('Бизнес+');
  });

  it('is not kept while notifications cannot arrive: every request reads the table', async () => {
    const lone = await createTestApp({ workers: false, shareDatabaseWith: t, env: { TARIFF_CACHE_SECONDS: '3600' } });
    try {
      await eventually(async () => lone.ctx.listener.listening, Boolean);
      expect(await names(lone)).toContain('Старт');
      await lone.ctx.listener.stop();
      expect(lone.ctx.listener.listening).toBe(false);
      await renameSilently(catalog.trial.id, 'Старт без слушателя');
      expect(await names(lone)).toContain('Старт без слушателя');
      await renameSilently(catalog.trial.id, 'Старт');
      expect(await names(lone)).toContain('Старт');
    } finally {
      await lone.close();
    }
  });
});

describe('TariffCache', () => {
  const listening = { listening: true, subscribe: () => undefined } as unknown as PgListener;
  const db = {} as Executor;
  const plan = (name: string) => ({ id: 1, name }) as Tariff;

  it('shares one read between requests that arrive during it, keeps it for its time and not longer', async () => {
    let now = 1_000;
    let loads = 0;
    let release: (rows: Tariff[]) => void = () => undefined;
    const cache = new TariffCache({
      ttlMs: 60_000,
      now: () => now,
      load: () => {
        loads++;
        return new Promise((resolve) => (release = resolve));
      },
    });
    cache.listen(listening);
    const first = cache.list(db, true);
    const second = cache.list(db, true);
    release([plan('А')]);
    expect(await first).toEqual([plan('А')]);
    expect(await second).toBe(await first);
    expect(loads).toBe(1);
    // The list without packages is another read.
    const plansOnly = cache.list(db, false);
    release([plan('Б')]);
    expect(await plansOnly).toEqual([plan('Б')]);
    expect(loads).toBe(2);
    // Frozen: a request cannot change what the next one is answered.
    expect(Object.isFrozen(await first)).toBe(true);
    expect(Object.isFrozen((await first)[0])).toBe(true);
    now += 59_999;
    expect(await cache.list(db, true)).toEqual([plan('А')]);
    expect(loads).toBe(2);
    now += 1;
    const expired = cache.list(db, true);
    release([plan('В')]);
    expect(await expired).toEqual([plan('В')]);
    expect(loads).toBe(3);
  });

  it('does not keep a failed read, nor a read under way when the lists are dropped', async () => {
    const results: (Tariff[] | Error)[] = [new Error('database unavailable'), [plan('старый')], [plan('новый')]];
    const pending: (() => void)[] = [];
    const cache = new TariffCache({
      ttlMs: 60_000,
      load: () =>
        new Promise((resolve, reject) => {
          const result = results.shift();
          pending.push(() => (result instanceof Error ? reject(result) : resolve(result ?? [])));
        }),
    });
    cache.listen(listening);
    const failed = cache.list(db, true);
    pending.shift()?.();
    await expect(failed).rejects.toThrow('database unavailable');
    // Read under way when a change is announced: its answer goes to those who asked before, and no further.
    const stale = cache.list(db, true);
    cache.clear();
    const fresh = cache.list(db, true);
    pending.shift()?.();
    pending.shift()?.();
    expect(await stale).toEqual([plan('старый')]);
    expect(await fresh).toEqual([plan('новый')]);
    expect(await cache.list(db, true)).toEqual([plan('новый')]);
  });

  it('reads every time with a time of 0 or without a listening notification connection', async () => {
    let loads = 0;
    const load = () => Promise.resolve([plan(String(++loads))]);
    const off = new TariffCache({ ttlMs: 0, load });
    off.listen(listening);
    await off.list(db, true);
    await off.list(db, true);
    expect(loads).toBe(2);
    const deaf = new TariffCache({ ttlMs: 60_000, load });
    deaf.listen({ listening: false, subscribe: () => undefined } as unknown as PgListener);
    await deaf.list(db, true);
    await deaf.list(db, true);
    expect(loads).toBe(4);
  });
});
