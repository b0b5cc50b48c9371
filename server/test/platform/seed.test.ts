import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/database.ts';
import { SEED_CARDS, SEED_TARIFFS, seed, seedIfEmpty } from '../../src/db/seed.ts';
import { createTestDatabase, newUser } from '../support/index.ts';

let db: Db;
let drop: () => Promise<void>;
const log = pino({ level: 'silent' });

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  db = createDb(database.url, 2);
});
afterAll(async () => {
  await db.destroy();
  await drop();
});

const counts = async () => ({
  tariffs: (await db.selectFrom('tariffs').select('id').execute()).length,
  cards: (await db.selectFrom('dashboard_cards').select('id').execute()).length,
  models: (await db.selectFrom('ai_models').select('id').execute()).length,
  products: (await db.selectFrom('ai_products').select('id').execute()).length,
});

describe('seed (npm run db:seed, and an empty embedded database at start)', () => {
  it('fills empty tables with plans, packages and news cards, and only empty ones', async () => {
    await seedIfEmpty(db, log);
    expect(await counts()).toEqual({ tariffs: SEED_TARIFFS.length, cards: SEED_CARDS.length, models: 6, products: 8 });
    const types = (await db.selectFrom('tariffs').select('subscriptions_type').orderBy('sort').execute()).map((t) => t.subscriptions_type);
    // Monthly plans with a trial and without one, and one-off packages (seed §3).
    expect(types).toEqual(expect.arrayContaining([1, 2, 3]));
    await seed(db, log);
    expect(await counts()).toEqual({ tariffs: SEED_TARIFFS.length, cards: SEED_CARDS.length, models: 6, products: 8 });
  });

  it('leaves a database that has users alone at start', async () => {
    await db.deleteFrom('dashboard_cards').execute();
    await newUser(db);
    await seedIfEmpty(db, log);
    expect((await counts()).cards).toBe(0);
  });
});
