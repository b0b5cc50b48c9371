import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobTooLargeError, InvalidStorageKeyError, RangeNotSatisfiableError, type BlobStream, type Storage } from '../../src/storage/storage.ts';

export interface StorageHarness {
  storage: Storage;
  /** Every blob key the backend holds, read from the backend itself (not through `storage`). */
  listKeys(): Promise<string[]>;
  /** Anything left over that is not a blob: temporary files, unfinished uploads. */
  leftovers(): Promise<string[]>;
  close(): Promise<void>;
}

/** Keys that `put` never makes: paths, traversal, wrong case or length, encodings. */
export const HOSTILE_KEYS = [
  '',
  '..',
  '../../etc/passwd',
  '/etc/passwd',
  'ab/cd/0123456789abcdef0123456789abcdef',
  '0123456789abcdef0123456789abcdef/../../../x',
  '..%2f..%2fetc%2fpasswd',
  '0123456789ABCDEF0123456789ABCDEF',
  '0123456789abcdef0123456789abcde',
  '0123456789abcdef0123456789abcdef0',
  '0123456789abcdef0123456789abcdef.json',
  '0123456789abcdef0123456789abcdef\0',
  '0123456789abcdef0123456789abcdef\n',
  '.tmp',
];

const read = async (blob: BlobStream | null) => {
  if (!blob) throw new Error('no blob');
  return (await buffer(blob.body)).toString('utf8');
};

/** A stream that yields `chunks` and then fails. */
function failingStream(chunks: Buffer[], error: Error): Readable {
  return Readable.from(
    (async function* () {
      for (const chunk of chunks) yield chunk;
      await Promise.resolve();
      throw error;
    })(),
  );
}

/**
 * The behaviour every storage backend must have; each backend's test file runs it against a
 * real backend (a directory, an S3-protocol server).
 */
export function describeStorageContract(name: string, open: () => Promise<StorageHarness>): void {
  describe(`${name}: the storage contract`, () => {
    let h: StorageHarness;
    let storage: Storage;
    beforeAll(async () => {
      h = await open();
      storage = h.storage;
    });
    afterAll(() => h.close());

    it('stores a buffer under a new random key and reads it back with its size and type', async () => {
      const blob = await storage.put(Buffer.from('привет, мир'), { contentType: 'text/plain; charset=utf-8' });
      expect(blob.key).toMatch(/^[0-9a-f]{32}$/);
      expect(blob).toMatchObject({ size: Buffer.byteLength('привет, мир'), contentType: 'text/plain; charset=utf-8' });
      expect(await storage.head(blob.key)).toEqual({ size: blob.size, contentType: 'text/plain; charset=utf-8' });
      expect(await storage.exists(blob.key)).toBe(true);
      const got = await storage.get(blob.key);
      expect(got).toMatchObject({ size: blob.size, contentType: 'text/plain; charset=utf-8', range: { start: 0, end: blob.size - 1 } });
      expect(await read(got)).toBe('привет, мир');
      expect(await h.listKeys()).toContain(blob.key);
    });

    it('gives every blob its own key, even for the same bytes', async () => {
      const blobs = await Promise.all(Array.from({ length: 12 }, (_, i) => storage.put(Buffer.from(`same ${String(i % 2)}`), { contentType: 'text/plain' })));
      expect(new Set(blobs.map((b) => b.key)).size).toBe(12);
      for (const [i, blob] of blobs.entries()) expect(await read(await storage.get(blob.key))).toBe(`same ${String(i % 2)}`);
    });

    it('stores a stream of unknown length, counting its size', async () => {
      const blob = await storage.put(Readable.from([Buffer.from('one,'), Buffer.from('two,'), Buffer.from('three')]), { contentType: 'text/csv' });
      expect(blob.size).toBe(13);
      expect(await read(await storage.get(blob.key))).toBe('one,two,three');
    });

    it('stores a stream larger than one upload part (6 MiB) intact', async () => {
      const bytes = crypto.randomBytes(6 * 1024 * 1024);
      const chunks = Array.from({ length: 24 }, (_, i) => bytes.subarray(i * 256 * 1024, (i + 1) * 256 * 1024));
      const blob = await storage.put(Readable.from(chunks), { contentType: 'application/octet-stream' });
      expect(blob.size).toBe(bytes.length);
      const got = await storage.get(blob.key);
      if (!got) throw new Error('no blob');
      const back = await buffer(got.body);
      expect(crypto.createHash('sha256').update(back).digest('hex')).toBe(crypto.createHash('sha256').update(bytes).digest('hex'));
      await storage.delete(blob.key);
    });

    it('stores an empty blob', async () => {
      const blob = await storage.put(Buffer.alloc(0), { contentType: 'text/plain' });
      expect(blob.size).toBe(0);
      expect(await storage.head(blob.key)).toEqual({ size: 0, contentType: 'text/plain' });
      const got = await storage.get(blob.key);
      expect(got).toMatchObject({ size: 0, range: { start: 0, end: -1 } });
      expect(await read(got)).toBe('');
    });

    it('reads a range, cutting its end to the blob', async () => {
      const { key } = await storage.put(Buffer.from('hello world'), { contentType: 'text/plain' });
      const part = await storage.get(key, { range: { start: 1, end: 3 } });
      expect(part).toMatchObject({ size: 11, range: { start: 1, end: 3 } });
      expect(await read(part)).toBe('ell');
      const tail = await storage.get(key, { range: { start: 6, end: 1000 } });
      expect(tail).toMatchObject({ size: 11, range: { start: 6, end: 10 } });
      expect(await read(tail)).toBe('world');
      expect(await read(await storage.get(key, { range: { start: 10, end: 10 } }))).toBe('d');
    });

    it('refuses a range that starts past the end or ends before it starts, naming the size', async () => {
      const { key } = await storage.put(Buffer.from('hello'), { contentType: 'text/plain' });
      for (const range of [
        { start: 5, end: 9 },
        { start: 3, end: 1 },
        { start: -1, end: 2 },
      ]) {
        const err = await storage.get(key, { range }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(RangeNotSatisfiableError);
        expect(err).toMatchObject({ size: 5 });
      }
    });

    it('answers null for a key with no blob, and deleting it is not an error', async () => {
      const key = crypto.randomBytes(16).toString('hex');
      expect(await storage.get(key)).toBeNull();
      expect(await storage.get(key, { range: { start: 0, end: 1 } })).toBeNull();
      expect(await storage.head(key)).toBeNull();
      expect(await storage.exists(key)).toBe(false);
      await expect(storage.delete(key)).resolves.toBeUndefined();
    });

    it('deletes a blob, once or twice', async () => {
      const { key } = await storage.put(Buffer.from('bye'), { contentType: 'text/plain' });
      await storage.delete(key);
      expect(await storage.exists(key)).toBe(false);
      expect(await storage.get(key)).toBeNull();
      expect(await h.listKeys()).not.toContain(key);
      await expect(storage.delete(key)).resolves.toBeUndefined();
    });

    it('keeps only well-formed content types', async () => {
      const cases: [string, string][] = [
        ['IMAGE/PNG', 'image/png'],
        ['Text/HTML; Charset="UTF-8"', 'text/html; charset=utf-8'],
        ['image/svg+xml; foo=bar', 'image/svg+xml'],
        ['', 'application/octet-stream'],
        ['text/html\r\nSet-Cookie: a=b', 'application/octet-stream'],
        ['not a type', 'application/octet-stream'],
      ];
      for (const [given, kept] of cases) {
        const blob = await storage.put(Buffer.from('x'), { contentType: given });
        expect({ given, kept: blob.contentType }).toEqual({ given, kept });
        expect((await storage.head(blob.key))?.contentType).toBe(kept);
      }
    });

    it('refuses a body over maxBytes and stores nothing of it', async () => {
      const before = await h.listKeys();
      await expect(storage.put(Buffer.alloc(11), { contentType: 'text/plain', maxBytes: 10 })).rejects.toBeInstanceOf(BlobTooLargeError);
      const chunks = Array.from({ length: 8 }, () => Buffer.alloc(4096, 1));
      await expect(storage.put(Readable.from(chunks), { contentType: 'text/plain', maxBytes: 20_000 })).rejects.toBeInstanceOf(BlobTooLargeError);
      expect(await h.listKeys()).toEqual(before);
      expect(await h.leftovers()).toEqual([]);
      const exact = await storage.put(Readable.from([Buffer.alloc(10)]), { contentType: 'text/plain', maxBytes: 10 });
      expect(exact.size).toBe(10);
    });

    it('stores nothing when the source stream fails', async () => {
      const before = await h.listKeys();
      const boom = new Error('upload interrupted');
      await expect(storage.put(failingStream([Buffer.alloc(1000, 2), Buffer.alloc(1000, 3)], boom), { contentType: 'text/plain' })).rejects.toThrow('upload interrupted');
      expect(await h.listKeys()).toEqual(before);
      expect(await h.leftovers()).toEqual([]);
    });

    it('refuses every key it did not make, before touching anything', async () => {
      for (const key of HOSTILE_KEYS) {
        for (const op of [() => storage.get(key), () => storage.head(key), () => storage.exists(key), () => storage.delete(key)]) {
          await expect(op(), JSON.stringify(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
        }
      }
    });
  });
}
