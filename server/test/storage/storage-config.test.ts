import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, REPO_ROOT } from '../../src/config.ts';

const fails = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
};

const S3 = {
  S3_ENDPOINT: 'https://storage.example.ru/',
  S3_REGION: 'ru-central1',
  S3_BUCKET: 'neurostudio-files',
  S3_ACCESS_KEY_ID: 'AKID',
  S3_SECRET_ACCESS_KEY: 'secret',
  S3_FORCE_PATH_STYLE: 'true',
};

describe('storage configuration', () => {
  it('keeps files on local disk under DATA_DIR/files by default', () => {
    expect(loadConfig({}).storage).toEqual({ kind: 'local', dir: path.join(REPO_ROOT, '.data', 'files') });
    expect(loadConfig({ DATA_DIR: '/srv/ns', STORAGE: 'local' }).storage).toEqual({ kind: 'local', dir: '/srv/ns/files' });
  });

  it('reads every S3 variable', () => {
    expect(loadConfig({ STORAGE: 's3', ...S3 }).storage).toEqual({
      kind: 's3',
      endpoint: 'https://storage.example.ru',
      region: 'ru-central1',
      bucket: 'neurostudio-files',
      credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret' },
      forcePathStyle: true,
    });
  });

  it('takes S3 when S3_BUCKET is set and STORAGE is not; AWS itself and the SDK credentials when the rest is unset', () => {
    expect(loadConfig({ S3_BUCKET: 'files' }).storage).toEqual({ kind: 's3', bucket: 'files', region: 'us-east-1', endpoint: undefined, forcePathStyle: false, credentials: undefined });
    expect(loadConfig({ S3_BUCKET: 'files', S3_ENDPOINT: '', S3_REGION: ' ' }).storage).toMatchObject({ kind: 's3', endpoint: undefined, region: 'us-east-1' });
  });

  it('refuses STORAGE=s3 without a bucket, naming S3_BUCKET', () => {
    expect(fails({ STORAGE: 's3', S3_ENDPOINT: 'http://127.0.0.1:9000' })).toMatch(/^ {2}S3_BUCKET: is required with STORAGE=s3$/m);
  });

  it('refuses S3 variables with STORAGE=local, naming each of them', () => {
    const message = fails({ STORAGE: 'local', S3_BUCKET: 'files', S3_FORCE_PATH_STYLE: 'true' });
    expect(message).toMatch(/^ {2}S3_BUCKET: is set, but STORAGE=local/m);
    expect(message).toMatch(/^ {2}S3_FORCE_PATH_STYLE: is set, but STORAGE=local/m);
    expect(fails({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toMatch(/^ {2}S3_ENDPOINT: is set, but STORAGE=local/m);
  });

  it.each<Record<string, string>>([{ S3_ACCESS_KEY_ID: 'AKID' }, { S3_SECRET_ACCESS_KEY: 'secret' }])('refuses only one of the S3 keys: %j', (keys) => {
    const message = fails({ S3_BUCKET: 'files', ...keys });
    expect(message).toMatch(/^ {2}S3_SECRET_ACCESS_KEY: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither/m);
  });

  it.each([
    ['STORAGE', 'ftp'],
    ['S3_ENDPOINT', 'not a url'],
    ['S3_ENDPOINT', 'ftp://storage.example.ru'],
    ['S3_BUCKET', 'Bad_Bucket'],
    ['S3_BUCKET', 'a/b'],
    ['S3_FORCE_PATH_STYLE', 'maybe'],
  ])('rejects %s=%j naming the variable', (name, value) => {
    expect(fails({ STORAGE: 's3', S3_BUCKET: 'files', [name]: value })).toMatch(new RegExp(`^  ${name}: `, 'm'));
  });
});
