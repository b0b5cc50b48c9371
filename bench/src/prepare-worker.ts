import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import { newAdmin, newUser } from '@app/server/testing';
import { createDb } from '../../server/src/db/database.ts';
import { migrateToLatest } from '../../server/src/db/migrate.ts';
import { seed } from '../../server/src/db/seed.ts';
import type { PreparedDatabase } from './server.ts';
import { seedCustomers } from './seed-history.ts';

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
  await seedCustomers(db, customers);
  parentPort?.postMessage({ user, unconfirmed, admin } satisfies PreparedDatabase);
} finally {
  await db.destroy();
}
