import crypto from 'node:crypto';
import { Transform, type Readable, type TransformCallback } from 'node:stream';

/** What a blob is written from: bytes in memory or a stream (an upload being received). */
export type BlobBody = Buffer | Readable;

export interface PutOptions {
  /** Stored with the blob and answered by `get`/`head`; a malformed type is kept as `application/octet-stream`. */
  contentType: string;
  /** The write fails with `BlobTooLargeError`, leaving nothing stored, once the body passes this many bytes. */
  maxBytes?: number;
}

/** A blob that `put` wrote. */
export interface StoredBlob {
  /** Random, chosen by the storage; the only name a blob has. */
  key: string;
  size: number;
  contentType: string;
}

export interface BlobInfo {
  /** The whole blob's size, also when a range of it is read. */
  size: number;
  contentType: string;
}

/** Bytes `start` to `end`, both included, as in an HTTP `Range`. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface BlobStream extends BlobInfo {
  body: Readable;
  /** The part of the blob that `body` carries; the whole blob when no range was asked for. */
  range: ByteRange;
}

/**
 * Where files live: local disk or an S3-compatible service. Keys are made by `put` (128 random
 * bits), never taken from users; every method refuses anything that is not such a key.
 */
export interface Storage {
  readonly kind: 'local' | 's3';
  /** Writes a new blob under a new random key; nothing is left behind when it fails. */
  put(body: BlobBody, options: PutOptions): Promise<StoredBlob>;
  /**
   * Opens a blob for reading, or a range of it (`end` past the blob is cut to its last byte);
   * `null` when there is no such blob. A range starting past the end throws `RangeNotSatisfiableError`.
   */
  get(key: string, options?: { range?: ByteRange }): Promise<BlobStream | null>;
  /** Size and type of a blob, or `null` when there is none. */
  head(key: string): Promise<BlobInfo | null>;
  exists(key: string): Promise<boolean>;
  /** Deletes a blob; deleting a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Releases connections (S3); the storage is not used afterwards. */
  close(): void;
}

/** A key that `put` did not make: a bug or an attack, never a missing file. */
export class InvalidStorageKeyError extends Error {
  constructor(key: string) {
    super(`Invalid storage key ${JSON.stringify(key.slice(0, 80))}`);
    this.name = 'InvalidStorageKeyError';
  }
}

/** The body passed `maxBytes`; nothing was stored. */
export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${String(maxBytes)} bytes`);
    this.name = 'BlobTooLargeError';
  }
}

/** A range that starts past the end of the blob. */
export class RangeNotSatisfiableError extends Error {
  constructor(
    readonly range: ByteRange,
    readonly size: number,
  ) {
    super(`Range ${String(range.start)}-${String(range.end)} is outside a blob of ${String(size)} bytes`);
    this.name = 'RangeNotSatisfiableError';
  }
}

const KEY_PATTERN = /^[0-9a-f]{32}$/;

/** A new random key: 32 lowercase hex digits (128 bits from the system's CSPRNG). */
export function newStorageKey(): string {
  return crypto.randomBytes(16).toString('hex');
}

/** Throws `InvalidStorageKeyError` unless `key` has the shape of a key made by `newStorageKey`. */
export function assertStorageKey(key: string): void {
  if (!KEY_PATTERN.test(key)) throw new InvalidStorageKeyError(key);
}

const TOKEN = "[a-z0-9!#$%&'*+.^_`|~-]+";
const MEDIA_TYPE = new RegExp(`^(${TOKEN}/${TOKEN})(?:\\s*;\\s*charset\\s*=\\s*"?([a-z0-9_.:-]+)"?)?(?:\\s*;.*)?$`);

/**
 * A content type safe to store and send back: `type/subtype` in lower case, with its charset
 * if it had one; anything else (empty, malformed, a header injection) is `application/octet-stream`.
 */
export function normalizeContentType(value: string | undefined): string {
  const match = MEDIA_TYPE.exec((value ?? '').trim().toLowerCase());
  if (!match?.[1] || (value ?? '').length > 200) return 'application/octet-stream';
  return match[2] ? `${match[1]}; charset=${match[2]}` : match[1];
}

/** Checks a requested range against a blob's size: `end` is cut to the last byte, a start past the end throws. */
export function clampRange(range: ByteRange | undefined, size: number): ByteRange {
  // An empty blob read whole is the empty range 0..-1.
  if (!range) return { start: 0, end: size - 1 };
  if (!Number.isSafeInteger(range.start) || !Number.isSafeInteger(range.end) || range.start < 0 || range.end < range.start || range.start >= size) {
    throw new RangeNotSatisfiableError(range, size);
  }
  return { start: range.start, end: Math.min(range.end, size - 1) };
}

/** Counts the bytes that pass and fails with `BlobTooLargeError` past `maxBytes`. */
export class ByteCounter extends Transform {
  bytes = 0;

  constructor(private readonly maxBytes = Number.POSITIVE_INFINITY) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      callback(new BlobTooLargeError(this.maxBytes));
      return;
    }
    callback(null, chunk);
  }
}
