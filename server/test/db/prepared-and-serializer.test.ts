import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { prepared, preparedByShape, statement } from '../../src/db/prepared.ts';
import { createSerializerCompiler, eventSerializer } from '../../src/lib/serializer.ts';
import { createTestApp, newUser, type TestApp } from '../support/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ workers: false });
});
afterAll(() => t.close());

describe('prepared statements', () => {
  it('refuse at definition a value list that does not match the builder’s parameters', () => {
    expect(() =>
      prepared(
        (db, userId: number, kind: 'words' | 'media') => db.selectFrom('wallets').selectAll().where('user_id', '=', userId).where('kind', '=', kind),
        (userId, kind) => [kind, userId],
        [1, 'words'],
      ),
    ).toThrow(/does not match/);
  });

  it('run outside a transaction on the pool, and inside one on its connection (seeing its uncommitted rows)', async () => {
    const walletsOf = prepared((db, userId: number) => db.selectFrom('wallets').select(['kind', 'balance']).where('user_id', '=', userId).orderBy('kind'), (userId) => [userId], [1]);
    const user = await newUser(t.db);
    expect(await walletsOf(t.db, user.id)).toEqual([]);
    await t.db
      .transaction()
      .execute(async (tx) => {
        await tx.insertInto('wallets').values({ user_id: user.id, kind: 'words', balance: 5 }).execute();
        expect(await walletsOf(tx, user.id)).toEqual([{ kind: 'words', balance: 5 }]);
        expect(await walletsOf(t.db, user.id)).toEqual([]);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await walletsOf(t.db, user.id)).toEqual([]);
  });

  it('by shape: each shape built once and run with its own values; a value list out of the builder’s order is refused at the first use of its shape', async () => {
    const user = await newUser(t.db);
    await t.db.insertInto('wallets').values([{ user_id: user.id, kind: 'words', balance: 7 }, { user_id: user.id, kind: 'media', balance: 3 }]).execute();
    const wallets = preparedByShape(
      (db, userId: number, kind: 'words' | 'media' | null) => {
        const q = db.selectFrom('wallets').select(['kind', 'balance']).where('user_id', '=', userId).orderBy('kind');
        return kind ? q.where('kind', '=', kind) : q;
      },
      (userId, kind) => (kind ? [userId, kind] : [userId]),
      (_userId, kind) => (kind ? 'kind' : ''),
    );
    expect(await wallets(t.db, user.id, null)).toEqual([{ kind: 'media', balance: 3 }, { kind: 'words', balance: 7 }]);
    expect(await wallets(t.db, user.id, 'words')).toEqual([{ kind: 'words', balance: 7 }]);
    expect(await wallets(t.db, user.id, 'media')).toEqual([{ kind: 'media', balance: 3 }]);
    const misordered = preparedByShape(
      (db, userId: number, kind: 'words' | 'media') => db.selectFrom('wallets').selectAll().where('user_id', '=', userId).where('kind', '=', kind),
      (userId, kind) => [kind, userId],
      (_userId, _kind) => '',
    );
    await expect(misordered(t.db, user.id, 'words')).rejects.toThrow(/does not match/);
  });
});

describe('fixed statements', () => {
  it('run on the pool outside a transaction and on the transaction’s connection inside one; the database’s errors come through as they are', async () => {
    const balanceOf = statement<{ balance: number }>('select balance from wallets where user_id = $1 and kind = $2');
    const user = await newUser(t.db);
    await t.db.insertInto('wallets').values({ user_id: user.id, kind: 'words', balance: 11 }).execute();
    expect(await balanceOf(t.db, [user.id, 'words'])).toEqual([{ balance: 11 }]);
    await t.db
      .transaction()
      .execute(async (tx) => {
        await tx.updateTable('wallets').set({ balance: 12 }).where('user_id', '=', user.id).execute();
        expect(await balanceOf(tx, [user.id, 'words'])).toEqual([{ balance: 12 }]);
        expect(await balanceOf(t.db, [user.id, 'words'])).toEqual([{ balance: 11 }]);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await balanceOf(t.db, [user.id, 'words'])).toEqual([{ balance: 11 }]);
    await expect(statement('select 1 / $1::int as x')(t.db, [0])).rejects.toMatchObject({ code: '22012' });
  });
});

describe('event serialization', () => {
  const Event = z.object({ chat_id: z.number().int(), text: z.string(), note: z.string().nullable() });

  it('writes what the event’s schema describes, dropping what it does not, checked or not', () => {
    const data = { chat_id: 3, text: 'Привет, «мир»\n', note: null, secret: 'x' };
    for (const check of [true, false]) expect(JSON.parse(eventSerializer(Event, check)(data))).toEqual({ chat_id: 3, text: 'Привет, «мир»\n', note: null });
  });

  it('outside production an event that drifts from its contract throws; in production the zod schema is not walked', () => {
    const drifted = { chat_id: 3.5, text: 'x', note: null };
    expect(() => eventSerializer(Event, true)(drifted)).toThrow();
    // fast-json-stringify writes an integer field as one.
    expect(JSON.parse(eventSerializer(Event, false)(drifted))).toEqual({ chat_id: 3, text: 'x', note: null });
  });

  it('a schema JSON Schema cannot express is serialized through zod', () => {
    const Dated = z.object({ at: z.date().transform((d) => d.toISOString()) });
    expect(JSON.parse(eventSerializer(Dated, false)({ at: new Date('2026-01-02T03:04:05Z') }))).toEqual({ at: '2026-01-02T03:04:05.000Z' });
  });
});

describe('reply serialization', () => {
  const Reply = z.object({ id: z.number().int(), name: z.string(), note: z.string().nullable(), tags: z.array(z.string()), extra: z.object({ a: z.number() }).optional() });

  async function appWith(checkWithZod: boolean, reply: unknown) {
    const app = Fastify({ logger: false });
    app.setSerializerCompiler(createSerializerCompiler({ checkWithZod }));
    app.get('/r', { schema: { response: { 200: Reply } } }, async () => reply);
    await app.ready();
    return app;
  }

  it('writes what the zod schema describes, dropping what it does not', async () => {
    const app = await appWith(true, { id: 1, name: 'Тариф «Про»', note: null, tags: ['a', 'б'], secret: 'x' });
    const res = await app.inject({ url: '/r' });
    expect(res.json()).toEqual({ id: 1, name: 'Тариф «Про»', note: null, tags: ['a', 'б'] });
    await app.close();
  });

  it('outside production a reply that drifts from its contract is an error, not a quietly coerced reply', async () => {
    const checked = await appWith(true, { id: 'seven', name: 'x', note: null, tags: [] });
    expect((await checked.inject({ url: '/r' })).statusCode).toBe(500);
    await checked.close();
  });
});
