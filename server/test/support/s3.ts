import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from '@20minutes/s3rver';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { S3StorageOptions } from '../../src/storage/s3.storage.ts';

/** s3rver's one account. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** Options for `S3Storage` pointing at this server. */
  options: S3StorageOptions;
  /** The same as configuration variables, for `createTestApp({ env })`. */
  env: Record<string, string>;
  /** Every key in the bucket, read over the S3 API. */
  listKeys(): Promise<string[]>;
  /** Multipart uploads begun and neither completed nor aborted (read from s3rver's directory: it has no ListMultipartUploads). */
  pendingUploads(): Promise<string[]>;
  stop(): Promise<void>;
}

/**
 * A real S3-protocol server (s3rver: signatures, multipart uploads, ranges) on 127.0.0.1 with
 * one empty bucket, its objects in a temporary directory.
 */
export async function startTestS3(bucket = 'neurostudio-test'): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-test-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${String(port)}`;
  const options: S3StorageOptions = { bucket, region: 'us-east-1', endpoint, forcePathStyle: true, credentials: CREDENTIALS };
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: CREDENTIALS });
  // The SDK signs a bucket-level call as `/<bucket>/`, s3rver checks it as `/<bucket>`; only
  // this listing client makes such calls (the storage makes object calls alone).
  client.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { path?: string };
      if (request.path === `/${bucket}/`) request.path = `/${bucket}`;
      return next(args);
    },
    { step: 'build', name: 's3rverBucketPath' },
  );
  return {
    endpoint,
    bucket,
    options,
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
    async listKeys() {
      const res = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (res.Contents ?? []).flatMap((o) => (o.Key ? [o.Key] : []));
    },
    async pendingUploads() {
      return fs.promises.readdir(path.join(directory, bucket, '._S3rver_uploads')).catch(() => []);
    },
    async stop() {
      client.destroy();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
