import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migrator, sql, type Kysely } from 'kysely';
import { createDb } from '../../src/db/database.ts';
import { functionSource, type DbFunction } from '../../src/db/functions/index.ts';
import { migrations } from '../../src/db/migrations/index.ts';
import { createTestDatabase } from '../support/test-app.ts';

/*
 * Each database function's versions live in `db/functions/<name>.v<N>.sql`: migrating down
 * restores the version before each migration that changed it (or drops it), migrating up again
 * applies the versions in turn, and the database's body is the file's.
 */

/** The function versions after each migration that changes one (the ones before apply none). */
const VERSIONS: [migration: string, versions: Partial<Record<DbFunction, number>>][] = [
  ['0007_create_wallet_apply', { wallet_apply: 1 }],
  ['0012_wallet_apply_hold_status', { wallet_apply: 2 }],
  ['0013_chat_functions', { chat_send: 1, chat_close: 1 }],
  ['0014_chat_close_and_delete', { chat_send: 2, chat_close: 2, chat_delete: 1 }],
  ['0021_money_edges', { wallet_apply: 3, chat_send: 3, chat_close: 3, chat_delete: 2 }],
  ['0034_chat_history_in_send', { chat_send: 4, chat_close: 4 }],
  ['0110_chat_variants_and_search', { chat_send: 5 }],
  ['0130_wallet_at_commit', { wallet_apply: 4, wallet_hold_commit: 1, chat_close: 5 }],
  ['0131_chat_send_cap_lock_last', { chat_send: 6 }],
];
const NAMES: DbFunction[] = ['wallet_apply', 'wallet_hold_commit', 'chat_send', 'chat_close', 'chat_delete'];

/** Which version of each function the database should have once `migration` is the last applied. */
function expected(migration: string): Partial<Record<DbFunction, number>> {
  const versions: Partial<Record<DbFunction, number>> = {};
  for (const [name, set] of VERSIONS) if (name <= migration) Object.assign(versions, set);
  return versions;
}

/** The body between the dollar quotes, as the file has it. */
const bodyOf = (source: string) => source.slice(source.indexOf('$fn$') + 4, source.lastIndexOf('$fn$'));

let db: Kysely<unknown>;
let drop: () => Promise<void>;
let migrator: Migrator;

beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  db = createDb(database.url, { poolSize: 2 }) as unknown as Kysely<unknown>;
  migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) }, allowUnorderedMigrations: true });
});
afterAll(async () => {
  await db.destroy();
  await drop();
});

async function bodies(): Promise<Partial<Record<DbFunction, string>>> {
  const { rows } = await sql<{ proname: DbFunction; prosrc: string }>`select proname, prosrc from pg_proc where proname in (${sql.join(NAMES)}) and pronamespace = 'public'::regnamespace`.execute(db);
  return Object.fromEntries(rows.map((r) => [r.proname, r.prosrc]));
}

async function expectVersions(migration: string) {
  const want = expected(migration);
  const have = await bodies();
  expect(Object.keys(have).sort(), migration).toEqual(Object.keys(want).sort());
  for (const [name, version] of Object.entries(want) as [DbFunction, number][]) expect(have[name], `${name} after ${migration}`).toBe(bodyOf(functionSource(name, version)));
}

async function migrateTo(target: string) {
  const { error, results } = await migrator.migrateTo(target);
  if (error) throw new Error(`${results?.find((r) => r.status === 'Error')?.migrationName ?? ''}: ${error instanceof Error ? error.message : JSON.stringify(error)}`);
}

describe('database functions by version', () => {
  it('the latest migration leaves each function at its newest version', async () => {
    await expectVersions(Object.keys(migrations).sort().at(-1) ?? '');
  });

  it('migrating down restores each previous version (or drops the function), and up again applies them in turn', async () => {
    const steps = ['0130_wallet_at_commit', '0110_chat_variants_and_search', '0100_notices_and_personal_data', '0021_money_edges', '0014_chat_close_and_delete', '0013_chat_functions', '0012_wallet_apply_hold_status', '0011_create_chats', '0007_create_wallet_apply', '0006_create_job_failures'];
    for (const step of steps) {
      await migrateTo(step);
      await expectVersions(step);
    }
    for (const step of [...steps].reverse().slice(1)) {
      await migrateTo(step);
      await expectVersions(step);
    }
    const { error } = await migrator.migrateToLatest();
    expect(error).toBeUndefined();
    await expectVersions(Object.keys(migrations).sort().at(-1) ?? '');
  });
});
