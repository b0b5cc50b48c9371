import { parentPort, workerData } from 'node:worker_threads';
import { sql } from 'kysely';
import pino from 'pino';
import { newAdmin, newUser } from '@app/server/testing';
import { createDb } from '../../server/src/db/database.ts';
import { migrateToLatest } from '../../server/src/db/migrate.ts';
import { seed } from '../../server/src/db/seed.ts';
import type { PreparedDatabase } from './server.ts';

/**
 * The bench server's scratch database made ready in a thread of its own (see `prepareDatabase` in
 * server.ts): migrated from nothing, seeded, with a confirmed user, an unconfirmed one with a code
 * sent, an admin and `customers` more users. Answers the three users to the server's thread.
 */
const { url, customers } = workerData as { url: string; customers: number };
const db = createDb(url, 2);
try {
  await migrateToLatest(db);
  await seed(db, pino({ level: 'silent' }));
  const user = await newUser(db);
  const unconfirmed = await newUser(db, { confirmed: false });
  await db.insertInto('email_codes').values({ user_id: unconfirmed.id, code_hash: 'x', expires_at: new Date(Date.now() + 1_800_000) }).execute();
  const admin = await newAdmin(db);
  // The admin panel's lists have pages to turn: a few hundred customers (who cannot sign in).
  if (customers) await sql`insert into users (email, password_hash, email_confirmed_at) select 'client-' || n || '@example.ru', 'x', now() from generate_series(1, ${customers}) as n`.execute(db);
  await sql`analyze`.execute(db);
  parentPort?.postMessage({ user, unconfirmed, admin } satisfies PreparedDatabase);
} finally {
  await db.destroy();
}
