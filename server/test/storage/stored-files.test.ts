import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/database.ts';
import { findFileById } from '../../src/features/files/files.queries.ts';
import { deleteFile, storeFiles } from '../../src/features/files/files.service.ts';
import { LocalStorage } from '../../src/storage/local.storage.ts';
import { S3Storage } from '../../src/storage/s3.storage.ts';
import { BlobTooLargeError, type Storage } from '../../src/storage/storage.ts';
import { withStoredFiles } from '../../src/storage/with-stored-files.ts';
import { createTestDatabase, newUser, type TestUser } from '../support/index.ts';
import { startTestS3 } from '../support/s3.ts';

interface Backend {
  storage: Storage;
  listKeys(): Promise<string[]>;
  close(): Promise<void>;
}

async function localBackend(): Promise<Backend> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-test-files-'));
  const storage = new LocalStorage(dir);
  return {
    storage,
    listKeys: async () =>
      fs
        .readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile() && /^[0-9a-f]{32}$/.test(e.name))
        .map((e) => e.name),
    close: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

async function s3Backend(): Promise<Backend> {
  const s3 = await startTestS3();
  const storage = new S3Storage(s3.options);
  return {
    storage,
    listKeys: () => s3.listKeys(),
    close: async () => {
      storage.close();
      await s3.stop();
    },
  };
}

let db: Db;
let dropDatabase: () => Promise<void>;
let owner: TestUser;
beforeAll(async () => {
  const database = await createTestDatabase();
  dropDatabase = database.drop;
  db = createDb(database.url, 4);
  owner = await newUser(db);
});
afterAll(async () => {
  await db.destroy();
  await dropDatabase();
});

describe.each([
  ['local disk', localBackend],
  ['S3 (s3rver)', s3Backend],
])('%s: nothing stays stored for refused work', (_name, open) => {
  let b: Backend;
  beforeAll(async () => {
    b = await open();
  });
  afterAll(() => b.close());

  it('withStoredFiles keeps the blobs of work that succeeds and answers its result', async () => {
    const result = await withStoredFiles(b.storage, async (store) => {
      const one = await store(Buffer.from('one'), { contentType: 'text/plain' });
      const two = await store(Buffer.from('two'), { contentType: 'text/plain' });
      return [one.key, two.key];
    });
    expect(await b.listKeys()).toEqual(expect.arrayContaining(result));
    for (const key of result) await b.storage.delete(key);
  });

  it('withStoredFiles deletes every blob when the work throws, and rethrows the same error', async () => {
    const before = await b.listKeys();
    const refusal = new Error('refused');
    const written: string[] = [];
    const err = await withStoredFiles(b.storage, async (store) => {
      written.push((await store(Buffer.from('a'), { contentType: 'text/plain' })).key);
      written.push((await store(Buffer.from('b'), { contentType: 'text/plain' })).key);
      expect(await b.listKeys()).toEqual(expect.arrayContaining(written));
      throw refusal;
    }).catch((e: unknown) => e);
    expect(err).toBe(refusal);
    expect(written).toHaveLength(2);
    expect((await b.listKeys()).sort()).toEqual([...before].sort());
  });

  it('withStoredFiles waits for writes still under way when the work fails, then deletes them too', async () => {
    const before = await b.listKeys();
    const slow = new PassThrough();
    const err = await withStoredFiles(b.storage, async (store) => {
      const pending = store(slow, { contentType: 'text/plain' });
      slow.write('still arriving…');
      setTimeout(() => slow.end(' done'), 50);
      await Promise.all([pending, store(Buffer.alloc(100), { contentType: 'text/plain', maxBytes: 10 })]);
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlobTooLargeError);
    expect((await b.listKeys()).sort()).toEqual([...before].sort());
  });

  it('storeFiles: a transaction that rolls back leaves neither rows nor blobs', async () => {
    const before = await b.listKeys();
    const ids: number[] = [];
    const err = await storeFiles(db, b.storage, async (_tx, save) => {
      ids.push((await save({ ownerId: owner.id, purpose: 'chat_attachment', body: Buffer.from('png'), contentType: 'image/png', originalName: 'a.png' })).id);
      ids.push((await save({ ownerId: owner.id, purpose: 'chat_attachment', body: Buffer.from('jpg'), contentType: 'image/jpeg', originalName: 'b.jpg' })).id);
      throw new Error('the message could not be sent');
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ message: 'the message could not be sent' });
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(await findFileById(db, id)).toBeUndefined();
    expect((await b.listKeys()).sort()).toEqual([...before].sort());
  });

  it('storeFiles: a row the database refuses takes its blob with it', async () => {
    const before = await b.listKeys();
    const err = await storeFiles(db, b.storage, (_tx, save) =>
      save({ ownerId: 999_999_999, purpose: 'generation_result', body: Buffer.from('orphan?'), contentType: 'text/plain', originalName: 'x.txt' }),
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: '23503' });
    expect((await b.listKeys()).sort()).toEqual([...before].sort());
  });

  it('storeFiles: a committed transaction keeps rows and blobs; deleteFile removes both', async () => {
    const file = await storeFiles(db, b.storage, (_tx, save) =>
      save({ ownerId: owner.id, purpose: 'generation_input', body: Buffer.from('photo'), contentType: 'IMAGE/JPEG', originalName: '../../Фото\u202Egpj.exe' }),
    );
    expect(file).toMatchObject({ owner_id: owner.id, size: 5, content_type: 'image/jpeg', original_name: 'Фотоgpj.exe', purpose: 'generation_input' });
    expect(await findFileById(db, file.id)).toEqual(file);
    expect(await b.storage.exists(file.storage_key)).toBe(true);
    expect(await deleteFile(db, b.storage, file.id)).toBe(true);
    expect(await findFileById(db, file.id)).toBeUndefined();
    expect(await b.storage.exists(file.storage_key)).toBe(false);
    expect(await deleteFile(db, b.storage, file.id)).toBe(false);
  });
});

describe('withStoredFiles', () => {
  let b: Backend;
  beforeAll(async () => {
    b = await localBackend();
  });
  afterAll(() => b.close());

  it('refuses to store once its scope has ended', async () => {
    let leaked: ((body: Buffer) => Promise<unknown>) | undefined;
    await withStoredFiles(b.storage, async (store) => {
      leaked = (body) => store(body, { contentType: 'text/plain' });
    });
    await expect(leaked?.(Buffer.from('late'))).rejects.toThrow('after its scope ended');
    expect(await b.listKeys()).toEqual([]);
  });

  it('deletes a blob still being written when successful work returned (nothing can name it)', async () => {
    const slow = new PassThrough();
    await withStoredFiles(b.storage, async (store) => {
      void store(slow, { contentType: 'text/plain' });
      setTimeout(() => slow.end('late bytes'), 30);
    });
    expect(await b.listKeys()).toEqual([]);
  });

  it('reports a blob it cannot delete and still rethrows the original error', async () => {
    const warnings: { details: object; message: string }[] = [];
    const failingDelete: Storage = Object.assign(Object.create(b.storage) as Storage, {
      delete: () => Promise.reject(new Error('storage unreachable')),
    });
    const refusal = new Error('refused');
    const err = await withStoredFiles(
      failingDelete,
      async (store) => {
        await store(Buffer.from('stuck'), { contentType: 'text/plain' });
        throw refusal;
      },
      { log: { warn: (details, message) => warnings.push({ details, message }) } },
    ).catch((e: unknown) => e);
    expect(err).toBe(refusal);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.details).toMatchObject({ key: expect.stringMatching(/^[0-9a-f]{32}$/) as unknown });
  });
});
