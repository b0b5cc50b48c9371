import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_CSP } from '../../src/features/files/files.routes.ts';
import { storeFiles, type NewFile } from '../../src/features/files/files.service.ts';
import type { FileRow } from '../../src/features/files/files.table.ts';
import { call, createTestApp, newAdmin, newUser, type TestApp, type TestUser } from '../support/index.ts';
import { startTestS3, type TestS3 } from '../support/s3.ts';

const NOT_FOUND = { status: 'error', code: 'NOT_FOUND', text: 'Не найдено' };
const BAD_ID = { status: 'error', code: 'VALIDATION', text: { id: ['Неверный идентификатор'] } };

const save = (t: TestApp, owner: TestUser, file: Omit<NewFile, 'ownerId' | 'purpose'>) =>
  storeFiles(t.db, t.ctx.storage, (_tx, saveFile) => saveFile({ ownerId: owner.id, purpose: 'chat_attachment', ...file }));

describe('GET /api/new/files/:id (local disk)', () => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;
  let admin: TestUser;
  let text: FileRow;
  let svg: FileRow;
  beforeAll(async () => {
    t = await createTestApp({ workers: false });
    owner = await newUser(t.db);
    other = await newUser(t.db);
    admin = await newAdmin(t.db);
    text = await save(t, owner, { body: Buffer.from('hello world'), contentType: 'text/plain; charset=utf-8', originalName: 'Отчёт за май.txt' });
    svg = await save(t, owner, {
      body: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>'),
      contentType: 'image/svg+xml',
      originalName: 'logo.svg',
    });
  });
  afterAll(() => t.close());

  const get = (id: number | string, opts: { token?: string; cookies?: Record<string, string>; headers?: Record<string, string>; query?: string } = {}) =>
    call(t.app, { url: `/api/new/files/${String(id)}${opts.query ?? ''}`, ...opts });

  it('serves the owner the bytes with their type, privately, unsniffable and unable to run', async () => {
    expect(t.ctx.storage.kind).toBe('local');
    const res = await get(text.id, { token: owner.token });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('hello world');
    expect(res.headers).toMatchObject({
      'content-type': 'text/plain; charset=utf-8',
      'content-length': '11',
      'cache-control': 'private',
      'x-content-type-options': 'nosniff',
      'content-security-policy': FILE_CSP,
      'accept-ranges': 'bytes',
      'content-disposition': `inline; filename="_____ __ ___.txt"; filename*=UTF-8''${encodeURIComponent('Отчёт за май.txt')}`,
    });
    expect(FILE_CSP).toBe("default-src 'none'; sandbox");
    expect(res.headers.etag).toMatch(/^"\d+-[0-9a-z]+"$/);
  });

  it('serves the owner through the session cookie too (an <img> on a page)', async () => {
    const res = await get(text.id, { cookies: { session: owner.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('hello world');
  });

  it('serves an uploaded SVG with script under a sandboxing CSP, as its own type', async () => {
    const res = await get(svg.id, { token: owner.token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('lets an admin read any file', async () => {
    const res = await get(text.id, { token: admin.token });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('hello world');
  });

  it('answers another user 404, exactly as for a file that does not exist', async () => {
    const res = await get(text.id, { token: other.token });
    expect(res.statusCode).toBe(404);
    expect(res.data).toEqual(NOT_FOUND);
    const missing = await get(2_147_483_647, { token: other.token });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe(res.body);
    expect(res.headers['content-disposition']).toBeUndefined();
  });

  it('answers a guest 401 with the Russian envelope', async () => {
    const res = await get(text.id);
    expect(res.statusCode).toBe(401);
    expect(res.data).toEqual({ status: 'error', code: 'UNAUTHENTICATED', text: 'Войдите в аккаунт, чтобы продолжить' });
    expect(res.body).not.toContain('hello');
  });

  it.each(['abc', '-1', '0', '1.5', '99999999999999999999', '1e400', '%00', '..%2F..%2Fetc%2Fpasswd'])('refuses the id %j with 400 in Russian', async (id) => {
    const res = await get(id, { token: owner.token });
    expect(res.statusCode).toBe(400);
    expect(res.data).toEqual(BAD_ID);
  });

  it('answers 404 for a path that is no id at all', async () => {
    for (const url of ['/api/new/files/', '/api/new/files/1/2', '/api/new/files/../../etc/passwd']) {
      const res = await call(t.app, { url, token: owner.token });
      expect({ url, status: res.statusCode, data: res.data }).toEqual({ url, status: 404, data: NOT_FOUND });
    }
  });

  it('offers a download with ?download=1: attachment with the RFC 5987 name, its type\'s extension added where the name has none', async () => {
    const res = await get(text.id, { token: owner.token, query: '?download=1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="_____ __ ___.txt"; filename*=UTF-8''%D0%9E%D1%82%D1%87%D1%91%D1%82%20%D0%B7%D0%B0%20%D0%BC%D0%B0%D0%B9.txt`);
    expect(res.body).toBe('hello world');
    expect((await get(text.id, { token: owner.token, query: '?download=0' })).headers['content-disposition']).toMatch(/^inline; /);
    // A result kept before results had extensions (`result-3-1`) downloads with its type's.
    const old = await save(t, owner, { body: Buffer.from('not really a picture'), contentType: 'image/png', originalName: 'result-3-1' });
    expect((await get(old.id, { token: owner.token, query: '?download=1' })).headers['content-disposition']).toBe(`attachment; filename="result-3-1.png"; filename*=UTF-8''result-3-1.png`);
    const clip = await save(t, owner, { body: Buffer.from('not really a clip'), contentType: 'video/mp4', originalName: 'result-4-1' });
    expect((await get(clip.id, { token: owner.token, query: '?download=1' })).headers['content-disposition']).toBe(`attachment; filename="result-4-1.mp4"; filename*=UTF-8''result-4-1.mp4`);
    const bad = await get(text.id, { token: owner.token, query: '?download=yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.data).toEqual({ status: 'error', code: 'VALIDATION', text: { download: ['Параметр download должен быть 0 или 1'] } });
  });

  it('serves a single byte range', async () => {
    const cases: [string, string, string][] = [
      ['bytes=0-4', 'hello', 'bytes 0-4/11'],
      ['bytes=6-', 'world', 'bytes 6-10/11'],
      ['bytes=-5', 'world', 'bytes 6-10/11'],
      ['bytes=6-100', 'world', 'bytes 6-10/11'],
    ];
    for (const [range, body, contentRange] of cases) {
      const res = await get(text.id, { token: owner.token, headers: { range } });
      expect({ range, status: res.statusCode, body: res.body, contentRange: res.headers['content-range'], length: res.headers['content-length'] }).toEqual({
        range,
        status: 206,
        body,
        contentRange,
        length: String(body.length),
      });
    }
  });

  it('answers 416 for a range past the end; ignores several ranges and ranges of another version', async () => {
    const past = await get(text.id, { token: owner.token, headers: { range: 'bytes=11-' } });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe('bytes */11');
    expect(past.data).toEqual({ status: 'error', code: 'RANGE_NOT_SATISFIABLE', text: 'Запрошенная часть файла недоступна' });
    expect(past.headers['cache-control']).toBe('no-store');
    const several = await get(text.id, { token: owner.token, headers: { range: 'bytes=0-1,3-4' } });
    expect(several.statusCode).toBe(200);
    expect(several.body).toBe('hello world');
    const stale = await get(text.id, { token: owner.token, headers: { range: 'bytes=0-4', 'if-range': '"1-old"' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toBe('hello world');
  });

  it('revalidates with its ETag: 304 for If-None-Match, the range for a matching If-Range', async () => {
    const first = await get(text.id, { token: owner.token });
    const etag = String(first.headers.etag);
    const again = await get(text.id, { token: owner.token, headers: { 'if-none-match': `W/${etag}` } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const ranged = await get(text.id, { token: owner.token, headers: { range: 'bytes=0-4', 'if-range': etag } });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.body).toBe('hello');
    expect((await get(text.id, { token: other.token, headers: { 'if-none-match': etag } })).statusCode).toBe(404);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: `/api/new/files/${String(text.id)}`, headers: { authorization: `Bearer ${owner.token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe('11');
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe('');
  });

  it('answers 404 when the blob of a row is gone', async () => {
    const lost = await save(t, owner, { body: Buffer.from('lost'), contentType: 'text/plain', originalName: 'lost.txt' });
    await t.ctx.storage.delete(lost.storage_key);
    const res = await get(lost.id, { token: owner.token });
    expect(res.statusCode).toBe(404);
    expect(res.data).toEqual(NOT_FOUND);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.etag).toBeUndefined();
  });

  it('serves an empty file', async () => {
    const empty = await save(t, owner, { body: Buffer.alloc(0), contentType: 'text/plain', originalName: 'empty.txt' });
    const res = await get(empty.id, { token: owner.token, headers: { range: 'bytes=0-10' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe('0');
    expect(res.body).toBe('');
  });
});

describe('GET /api/new/files/:id (S3)', () => {
  let s3: TestS3;
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    s3 = await startTestS3();
    t = await createTestApp({ workers: false, env: s3.env });
    owner = await newUser(t.db);
  });
  afterAll(async () => {
    await t.close();
    await s3.stop();
  });

  it('streams a file and a range of it from the bucket', async () => {
    expect(t.ctx.storage.kind).toBe('s3');
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
    const file = await save(t, owner, { body: bytes, contentType: 'image/png', originalName: 'картинка.png' });
    expect(await s3.listKeys()).toEqual([file.storage_key]);
    const whole = await call(t.app, { url: `/api/new/files/${String(file.id)}`, token: owner.token });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('image/png');
    expect(whole.headers['content-length']).toBe('300000');
    expect(whole.rawPayload.equals(bytes)).toBe(true);
    const part = await call(t.app, { url: `/api/new/files/${String(file.id)}`, token: owner.token, headers: { range: 'bytes=1000-1999' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 1000-1999/300000');
    expect(part.rawPayload.equals(bytes.subarray(1000, 2000))).toBe(true);

    // Over a real socket too: one CSP (the file's, not the pages'), the bytes intact.
    const baseUrl = await t.listen();
    const res = await fetch(`${baseUrl}/api/new/files/${String(file.id)}?download=1`, { headers: { authorization: `Bearer ${owner.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(FILE_CSP);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="________.png"; filename*=UTF-8''${encodeURIComponent('картинка.png')}`);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });
});
