import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createStorage } from '../../src/storage/create-storage.ts';
import { S3Storage } from '../../src/storage/s3.storage.ts';
import type { Storage } from '../../src/storage/storage.ts';
import { startTestS3, type TestS3 } from '../support/s3.ts';
import { describeStorageContract } from './storage-contract.ts';

describeStorageContract('S3 (s3rver)', async () => {
  const s3 = await startTestS3();
  const storage = new S3Storage(s3.options);
  return {
    storage,
    listKeys: () => s3.listKeys(),
    leftovers: () => s3.pendingUploads(),
    close: async () => {
      storage.close();
      await s3.stop();
    },
  };
});

describe('S3 storage', () => {
  let s3: TestS3;
  let storage: Storage;
  beforeAll(async () => {
    s3 = await startTestS3('configured-bucket');
    storage = createStorage(loadConfig(s3.env).storage);
  });
  afterAll(async () => {
    storage.close();
    await s3.stop();
  });

  it('is built from the S3_* variables and stores in their bucket, under the bare random key', async () => {
    expect(storage.kind).toBe('s3');
    const blob = await storage.put(Buffer.from('в бакете'), { contentType: 'text/plain; charset=utf-8' });
    expect(await s3.listKeys()).toEqual([blob.key]);
    const got = await storage.get(blob.key);
    if (!got) throw new Error('no blob');
    expect((await buffer(got.body)).toString('utf8')).toBe('в бакете');
  });

  it('is refused by the server with credentials it does not know', async () => {
    const stranger = new S3Storage({ ...s3.options, credentials: { accessKeyId: 'NOBODY', secretAccessKey: 'wrong' } });
    try {
      await expect(stranger.put(Buffer.from('x'), { contentType: 'text/plain' })).rejects.toMatchObject({ name: 'InvalidAccessKeyId' });
    } finally {
      stranger.close();
    }
  });
});
