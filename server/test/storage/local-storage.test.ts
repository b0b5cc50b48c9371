import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createStorage } from '../../src/storage/create-storage.ts';
import { LocalStorage } from '../../src/storage/local.storage.ts';
import { InvalidStorageKeyError } from '../../src/storage/storage.ts';
import { describeStorageContract, HOSTILE_KEYS } from './storage-contract.ts';

/** Every file under `dir`, relative, with `/` separators. */
function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).flatMap((e) => (e.isFile() ? [path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/')] : []));
}

const blobKeys = (root: string) => walk(root).filter((f) => /^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{32}$/.test(f)).map((f) => path.basename(f));

describeStorageContract('local disk', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-test-files-'));
  const storage = new LocalStorage(path.join(dir, 'files'));
  return {
    storage,
    listKeys: async () => blobKeys(path.join(dir, 'files')),
    leftovers: async () => walk(path.join(dir, 'files', '.tmp')),
    close: async () => {
      storage.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('local disk storage', () => {
  let dataDir: string;
  let root: string;
  let storage: LocalStorage;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-test-data-'));
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.storage).toEqual({ kind: 'local', dir: path.join(dataDir, 'files') });
    const created = createStorage(config.storage);
    if (!(created instanceof LocalStorage)) throw new Error('not the local storage');
    storage = created;
    root = path.join(dataDir, 'files');
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('is the default: files go to DATA_DIR/files/ab/cd/<key>, readable by the server only, type beside them', async () => {
    const blob = await storage.put(Buffer.from('<svg/>'), { contentType: 'image/svg+xml' });
    const file = path.join(root, blob.key.slice(0, 2), blob.key.slice(2, 4), blob.key);
    expect(fs.readFileSync(file, 'utf8')).toBe('<svg/>');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(`${file}.json`, 'utf8'))).toEqual({ contentType: 'image/svg+xml' });
  });

  it('writes through a temporary file: the blob appears whole, only when its stream has ended', async () => {
    const source = new PassThrough();
    const put = storage.put(source, { contentType: 'text/plain' });
    const before = new Set(blobKeys(root));
    source.write(Buffer.alloc(64 * 1024, 1));
    // Once what was written has reached the temporary file, the blob is still not there.
    const tmp = path.join(root, '.tmp');
    const partBytes = () => walk(tmp).filter((f) => f.endsWith('.part')).reduce((n, f) => n + fs.statSync(path.join(tmp, f)).size, 0);
    await vi.waitFor(() => expect(partBytes()).toBe(64 * 1024), { timeout: 10_000 });
    expect(blobKeys(root).filter((k) => !before.has(k))).toEqual([]);
    source.end(Buffer.alloc(1024, 2));
    const blob = await put;
    expect(blob.size).toBe(65 * 1024);
    expect(blobKeys(root).filter((k) => !before.has(k))).toEqual([blob.key]);
    expect(walk(path.join(root, '.tmp'))).toEqual([]);
  });

  it('refuses traversal: no crafted key reaches a file outside its blobs', async () => {
    fs.writeFileSync(path.join(dataDir, 'secret.txt'), 'secret');
    fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
    fs.writeFileSync(path.join(root, '.tmp', 'planted'), 'planted');
    const attempts = [...HOSTILE_KEYS, '../secret.txt', '../../secret.txt', `${'0'.repeat(30)}/..`, '..\\..\\secret.txt', 'C:\\Windows\\win.ini', '.tmp/planted', 'ab/../../secret.txt'];
    for (const key of attempts) {
      await expect(storage.get(key), JSON.stringify(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(storage.delete(key), JSON.stringify(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    }
    expect(fs.readFileSync(path.join(dataDir, 'secret.txt'), 'utf8')).toBe('secret');
    expect(fs.existsSync(path.join(root, '.tmp', 'planted'))).toBe(true);
  });

  it('reads a blob whose type file is missing as application/octet-stream', async () => {
    const blob = await storage.put(Buffer.from('x'), { contentType: 'text/plain' });
    fs.rmSync(path.join(root, blob.key.slice(0, 2), blob.key.slice(2, 4), `${blob.key}.json`));
    expect(await storage.head(blob.key)).toEqual({ size: 1, contentType: 'application/octet-stream' });
  });

  it('keeps serving a read that began before the blob was deleted', async () => {
    const blob = await storage.put(Buffer.alloc(256 * 1024, 7), { contentType: 'application/octet-stream' });
    const got = await storage.get(blob.key);
    await storage.delete(blob.key);
    expect(await storage.exists(blob.key)).toBe(false);
    if (!got) throw new Error('no blob');
    expect((await buffer(got.body)).length).toBe(256 * 1024);
  });
});
