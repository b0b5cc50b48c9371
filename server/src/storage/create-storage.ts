import type { StorageConfig } from '../config.ts';
import { LocalStorage } from './local.storage.ts';
import { S3Storage } from './s3.storage.ts';
import type { Storage } from './storage.ts';

/** The storage the configuration names: `DATA_DIR/files` on local disk, or an S3 bucket. */
export function createStorage(config: StorageConfig): Storage {
  if (config.kind === 'local') return new LocalStorage(config.dir);
  return new S3Storage(config);
}
