import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { migrations } from '../../src/db/migrations/index.ts';
import { insertFile } from '../../src/features/files/files.queries.ts';
import type { NewFileRow } from '../../src/features/files/files.table.ts';
import { newStorageKey } from '../../src/storage/storage.ts';
import { createTestDatabase, newUser, type TestUser } from '../support/index.ts';

let db: Db;
let drop: () => Promise<void>;
let owner: TestUser;
beforeAll(async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  db = createDb(database.url, 2);
  owner = await newUser(db);
});
afterAll(async () => {
  await db.destroy();
  await drop();
});

const row = (over: Partial<NewFileRow> = {}): NewFileRow => ({
  owner_id: owner.id,
  storage_key: newStorageKey(),
  content_type: 'image/png',
  size: 10,
  original_name: 'a.png',
  purpose: 'chat_attachment',
  ...over,
});

/** The SQLSTATE a failed insert answers. */
const refusal = (values: NewFileRow) => insertFile(db, values).then(() => 'accepted', (err: unknown) => (err as { code?: string }).code);

describe('the files table', () => {
  it('keeps a row with its owner, key, type, size, name, purpose and time', async () => {
    const file = await insertFile(db, row());
    expect(file).toMatchObject({ owner_id: owner.id, content_type: 'image/png', size: 10, original_name: 'a.png', purpose: 'chat_attachment' });
    expect(file.created_at).toBeInstanceOf(Date);
  });

  it('refuses what the storage and the service never write', async () => {
    expect(await refusal(row({ storage_key: '../../etc/passwd' }))).toBe('23514');
    expect(await refusal(row({ size: -1 }))).toBe('23514');
    expect(await refusal(row({ original_name: '' }))).toBe('23514');
    expect(await refusal(row({ original_name: 'я'.repeat(256) }))).toBe('23514');
    expect(await refusal(row({ purpose: 'Not a purpose' as NewFileRow['purpose'] }))).toBe('23514');
    const key = newStorageKey();
    await insertFile(db, row({ storage_key: key }));
    expect(await refusal(row({ storage_key: key }))).toBe('23505');
    expect(await refusal(row({ owner_id: 999_999_999 }))).toBe('23503');
  });

  it('keeps a user who still has files from being deleted (their blobs would be orphaned)', async () => {
    const user = await newUser(db);
    await insertFile(db, row({ owner_id: user.id }));
    await expect(db.deleteFrom('users').where('id', '=', user.id).execute()).rejects.toMatchObject({ code: '23503' });
  });
});

describe('migrations from parallel branches', () => {
  it('applies a migration that sorts before one already applied (0005 landing after 0010)', async () => {
    const withParallel = {
      ...migrations,
      '0005_probe_parallel_branch': {
        up: async (k: Parameters<typeof migrateToLatest>[0]) => {
          await sql`create table probe_parallel_branch (id int)`.execute(k);
        },
      },
    };
    expect(await migrateToLatest(db, withParallel)).toEqual(['0005_probe_parallel_branch']);
    await expect(sql`select count(*) from probe_parallel_branch`.execute(db)).resolves.toBeDefined();
    expect(await migrateToLatest(db, withParallel)).toEqual([]);
  });
});
