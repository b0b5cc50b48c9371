import { pipeline, Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  assertStorageKey,
  BlobTooLargeError,
  ByteCounter,
  clampRange,
  newStorageKey,
  normalizeContentType,
  RangeNotSatisfiableError,
  type BlobBody,
  type BlobInfo,
  type BlobStream,
  type ByteRange,
  type PutOptions,
  type Storage,
  type StoredBlob,
} from './storage.ts';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** Unset: AWS S3 itself. */
  endpoint?: string | undefined;
  forcePathStyle?: boolean;
  /** Unset: the SDK's default credential chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
}

const isMissing = (err: unknown) => err instanceof S3ServiceException && (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404);

/** `bytes 0-99/1234` → 1234. */
const totalOf = (contentRange: string | undefined) => Number(/\/(\d+)$/.exec(contentRange ?? '')?.[1] ?? Number.NaN);

/**
 * Blobs in one bucket of an S3-compatible service (AWS, MinIO, Yandex Object Storage, …), under
 * their random keys. Streams of unknown length go up in parts (a failed one is aborted, so no
 * parts stay behind); a single PUT is atomic on the service's side.
 */
export class S3Storage implements Storage {
  readonly kind = 's3';
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle ?? false,
      ...(options.credentials ? { credentials: options.credentials } : {}),
      // Checksums only where S3 requires them: many S3-compatible services reject the SDK's
      // default CRC trailers (aws-chunked uploads) that AWS itself accepts.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(body: BlobBody, options: PutOptions): Promise<StoredBlob> {
    const key = newStorageKey();
    const contentType = normalizeContentType(options.contentType);
    if (Buffer.isBuffer(body)) {
      if (options.maxBytes !== undefined && body.length > options.maxBytes) throw new BlobTooLargeError(options.maxBytes);
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.length }));
      return { key, size: body.length, contentType };
    }
    const counter = new ByteCounter(options.maxBytes);
    pipeline(body, counter, () => undefined);
    const upload = new Upload({ client: this.client, params: { Bucket: this.bucket, Key: key, Body: counter, ContentType: contentType } });
    try {
      await upload.done();
    } catch (err) {
      // A failed source or a too large body surfaces as the upload's failure (or as a failed
      // abort of its parts); the caller is told the cause.
      const cause = counter.errored;
      counter.destroy();
      throw cause ?? err;
    }
    return { key, size: counter.bytes, contentType };
  }

  async get(key: string, options: { range?: ByteRange } = {}): Promise<BlobStream | null> {
    assertStorageKey(key);
    const { range } = options;
    if (range && (!Number.isSafeInteger(range.start) || !Number.isSafeInteger(range.end) || range.start < 0 || range.end < range.start)) {
      return this.refuseRange(key, range);
    }
    try {
      const res = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, ...(range ? { Range: `bytes=${String(range.start)}-${String(range.end)}` } : {}) }),
      );
      if (!(res.Body instanceof Readable)) throw new Error('S3 answered a body that is not a Node stream');
      const size = res.ContentRange ? totalOf(res.ContentRange) : (res.ContentLength ?? 0);
      const served = res.ContentRange ? /^bytes (\d+)-(\d+)\//.exec(res.ContentRange) : null;
      return {
        body: res.Body,
        size,
        contentType: normalizeContentType(res.ContentType),
        range: served ? { start: Number(served[1]), end: Number(served[2]) } : clampRange(undefined, size),
      };
    } catch (err) {
      if (isMissing(err)) return null;
      if (range && err instanceof S3ServiceException && err.$metadata.httpStatusCode === 416) return this.refuseRange(key, range);
      throw err;
    }
  }

  async head(key: string): Promise<BlobInfo | null> {
    assertStorageKey(key);
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: res.ContentLength ?? 0, contentType: normalizeContentType(res.ContentType) };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.head(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    assertStorageKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
  }

  close(): void {
    this.client.destroy();
  }

  /** A range the blob cannot serve: `null` when the blob is missing, else the error with its size. */
  private async refuseRange(key: string, range: ByteRange): Promise<null> {
    const info = await this.head(key);
    if (!info) return null;
    throw new RangeNotSatisfiableError(range, info.size);
  }
}
