import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  assertStorageKey,
  BlobTooLargeError,
  ByteCounter,
  clampRange,
  InvalidStorageKeyError,
  newStorageKey,
  normalizeContentType,
  type BlobBody,
  type BlobInfo,
  type BlobStream,
  type ByteRange,
  type PutOptions,
  type Storage,
  type StoredBlob,
} from './storage.ts';

const isNotFound = (err: unknown) => (err as NodeJS.ErrnoException | null)?.code === 'ENOENT';

/** Writes `body` to a new file (never an existing one) and flushes it to disk; answers its size. */
async function writeNewFile(file: string, body: BlobBody, maxBytes: number | undefined): Promise<number> {
  if (Buffer.isBuffer(body)) {
    if (maxBytes !== undefined && body.length > maxBytes) throw new BlobTooLargeError(maxBytes);
    await fsp.writeFile(file, body, { flag: 'wx', mode: 0o600, flush: true });
    return body.length;
  }
  const counter = new ByteCounter(maxBytes);
  // Opened before the pipeline starts: a stream that opens its file by itself may create it after a
  // failed pipeline's clean-up has removed it (a body refused at once), leaving it behind.
  const handle = await fsp.open(file, 'wx', 0o600);
  await pipeline(body, counter, handle.createWriteStream({ flush: true }));
  return counter.bytes;
}

/** Makes a rename in `dir` durable; file systems that cannot sync a directory are left as they are. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await fsp.open(dir, 'r');
  try {
    await handle.sync().catch(() => undefined);
  } finally {
    await handle.close();
  }
}

/**
 * Blobs as files under one directory (`DATA_DIR/files`): `<dir>/ab/cd/<key>` with the content
 * type beside it in `<key>.json`. A blob is written to `<dir>/.tmp` and renamed into place, so
 * a reader sees a whole blob or none; paths are built only from checked keys.
 */
export class LocalStorage implements Storage {
  readonly kind = 'local';
  private readonly root: string;
  private readonly tmpDir: string;

  constructor(dir: string) {
    this.root = path.resolve(dir);
    this.tmpDir = path.join(this.root, '.tmp');
  }

  /** The data file of `key`; throws for anything that is not a key. */
  private pathOf(key: string): string {
    assertStorageKey(key);
    const file = path.resolve(this.root, key.slice(0, 2), key.slice(2, 4), key);
    // The key's shape already rules out separators and dots; this keeps every path under the root if it ever changes.
    if (path.dirname(path.dirname(path.dirname(file))) !== this.root) throw new InvalidStorageKeyError(key);
    return file;
  }

  async put(body: BlobBody, options: PutOptions): Promise<StoredBlob> {
    const key = newStorageKey();
    const file = this.pathOf(key);
    const contentType = normalizeContentType(options.contentType);
    const temp = path.join(this.tmpDir, `${key}.${crypto.randomBytes(6).toString('hex')}`);
    let metaPlaced = false;
    try {
      await fsp.mkdir(this.tmpDir, { recursive: true });
      const size = await writeNewFile(`${temp}.part`, body, options.maxBytes);
      await writeNewFile(`${temp}.json.part`, Buffer.from(JSON.stringify({ contentType })), undefined);
      await fsp.mkdir(path.dirname(file), { recursive: true });
      // The blob exists once its data file is in place, so the metadata goes first: a crash
      // between the two renames leaves a metadata file that nothing reads, never a blob without its type.
      await fsp.rename(`${temp}.json.part`, `${file}.json`);
      metaPlaced = true;
      await fsp.rename(`${temp}.part`, file);
      await syncDirectory(path.dirname(file));
      return { key, size, contentType };
    } catch (err) {
      await Promise.all([fsp.rm(`${temp}.part`, { force: true }), fsp.rm(`${temp}.json.part`, { force: true }), metaPlaced ? fsp.rm(`${file}.json`, { force: true }) : undefined]);
      throw err;
    }
  }

  async get(key: string, options: { range?: ByteRange } = {}): Promise<BlobStream | null> {
    const file = this.pathOf(key);
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(file, 'r');
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
    try {
      const { size } = await handle.stat();
      const range = clampRange(options.range, size);
      const contentType = await this.contentTypeOf(file);
      // The stream reads the handle opened above (a delete meanwhile does not cut it short) and closes it at its end.
      const body = handle.createReadStream(options.range ? { start: range.start, end: range.end } : {});
      return { body, size, contentType, range };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async head(key: string): Promise<BlobInfo | null> {
    const file = this.pathOf(key);
    try {
      const { size } = await fsp.stat(file);
      return { size, contentType: await this.contentTypeOf(file) };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.head(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key);
    // The data file first: once it is gone the blob is, whatever happens to the metadata.
    await fsp.rm(file, { force: true });
    await fsp.rm(`${file}.json`, { force: true });
  }

  close(): void {
    // Nothing to release: every read closes its own file.
  }

  private async contentTypeOf(file: string): Promise<string> {
    try {
      const meta = JSON.parse(await fsp.readFile(`${file}.json`, 'utf8')) as { contentType?: unknown };
      return normalizeContentType(typeof meta.contentType === 'string' ? meta.contentType : undefined);
    } catch {
      return 'application/octet-stream';
    }
  }
}
