import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineRoute, z } from '@app/contracts';
import { mountRoute } from '../../src/lib/routes.ts';
import { AppError } from '../../src/lib/app-error.ts';
import { storeFiles } from '../../src/features/files/files.service.ts';
import { call, createTestApp, csrfPair, eventually, multipart, newUser, parseEvents, type Part, type TestApp, type TestUser } from '../support/index.ts';
import { HEADER_ONLY_PNG, TINY_JPEG } from '../support/images.ts';

/**
 * The route kinds beside JSON: multipart uploads (limits, kind by content, Russian field errors,
 * nothing stored when refused) and Server-Sent Events (access rules, heartbeat, errors, the
 * handler told when the client leaves). Exercised through contracts of the test's own.
 */

const uploadRoute = defineRoute({
  method: 'POST',
  path: '/api/test/upload',
  access: 'user',
  summary: 'Test upload',
  tags: ['test'],
  body: z.object({ title: z.string({ error: 'Введите название' }).min(1, 'Введите название'), count: z.coerce.number({ error: 'Укажите число' }).int().min(1, 'Не меньше 1') }),
  multipart: { files: { photo: { accept: ['png', 'jpeg'], maxBytes: 40 * 1024 }, scan: { accept: ['pdf'], maxBytes: 40 * 1024 } }, maxFiles: 2, maxTotalBytes: 60 * 1024 },
  response: z.object({ ids: z.array(z.number()), title: z.string(), count: z.number(), kinds: z.array(z.string()) }),
});

const streamRoute = defineRoute({
  method: 'POST',
  path: '/api/test/stream',
  access: 'user',
  summary: 'Test stream',
  tags: ['test'],
  body: z.object({ ticks: z.number().int().min(0).max(50), pauseMs: z.number().int().min(0).max(5000).default(0), failAt: z.number().int().optional(), failEarly: z.boolean().optional(), silent: z.boolean().optional(), quiet: z.boolean().optional() }),
  stream: { events: { tick: z.object({ n: z.number().int() }), done: z.object({ total: z.number().int() }) } },
  response: z.null(),
});

const aborted: string[] = [];
/** A handler asked to be `quiet` waits after its first event until the test has seen what it waits for. */
let quietUntil: Promise<void> = Promise.resolve();
/** Uploads the server is done with (their request ids): their reply sent, or failed. */
const uploadsEnded = new Set<string>();

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp({
    workers: false,
    env: { SSE_HEARTBEAT_SECONDS: '1' },
    routes: (app) => {
      // An upload is over when its reply is sent, or when it failed (a client that went away gets no reply).
      app.addHook('onResponse', async (request) => {
        if (request.url === uploadRoute.path) uploadsEnded.add(request.id);
      });
      app.addHook('onError', async (request) => {
        if (request.url === uploadRoute.path) uploadsEnded.add(request.id);
      });
      mountRoute(app, uploadRoute, async ({ viewer, body, files }) => {
        const all = [...(files.photo ?? []), ...(files.scan ?? [])];
        const rows = await storeFiles(app.ctx.db, app.ctx.storage, (_tx, save) =>
          Promise.all(all.map((f) => save({ ownerId: viewer.id, purpose: 'chat_attachment', body: f.data, contentType: f.mime, originalName: f.name }))),
        );
        return { ids: rows.map((r) => r.id), title: body.title, count: body.count, kinds: all.map((f) => f.kind) };
      });
      mountRoute(app, streamRoute, async ({ body, stream }) => {
        if (body.failEarly) throw new AppError('INSUFFICIENT_TOKENS');
        if (body.silent) return;
        for (let n = 1; n <= body.ticks; n++) {
          if (stream.signal.aborted) {
            aborted.push(`stopped at ${String(n)}`);
            return;
          }
          if (n === body.failAt) throw new AppError('SERVICE_UNAVAILABLE', 'Провайдер не ответил');
          stream.send('tick', { n });
          if (body.quiet && n === 1) await quietUntil;
          if (body.pauseMs) await new Promise((r) => setTimeout(r, body.pauseMs));
        }
        stream.send('done', { total: body.ticks });
      });
    },
  });
  baseUrl = await t.listen();
});
afterAll(() => t.close());

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const JPEG = TINY_JPEG;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');

const upload = (user: TestUser | undefined, parts: Part[], extra: { headers?: Record<string, string>; cookies?: Record<string, string> } = {}) => {
  const body = multipart(parts);
  return call(t.app, { method: 'POST', url: uploadRoute.path, token: user?.token, payload: body.payload, headers: { ...body.headers, ...extra.headers }, cookies: extra.cookies });
};

const filesOf = (userId: number) => t.db.selectFrom('files').select(['id', 'content_type', 'size']).where('owner_id', '=', userId).execute();
const storedBlobs = () => {
  const dir = path.join(t.config.dataDir, 'files');
  const walk = (d: string): string[] => (fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? (e.name === '.tmp' ? [] : walk(path.join(d, e.name))) : [e.name])) : []);
  return walk(dir).filter((f) => !f.endsWith('.json'));
};

describe('multipart routes', () => {
  it('accepts declared files of allowed kinds with valid fields, and the handler stores them', async () => {
    const user = await newUser(t.db);
    const res = await upload(user, [
      { name: 'title', value: 'Моё фото' },
      { name: 'count', value: '3' },
      { name: 'photo', file: { filename: 'снимок.png', type: 'image/png', data: PNG } },
      { name: 'scan', file: { filename: 'doc.pdf', type: 'application/pdf', data: PDF } },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.data.json).toMatchObject({ title: 'Моё фото', count: 3, kinds: ['png', 'pdf'] });
    expect(await filesOf(user.id)).toHaveLength(2);
  });

  it('decides the kind by content: a PDF named .png and sent as image/png is refused, a JPEG sent as text/plain is accepted', async () => {
    const user = await newUser(t.db);
    const blobs = storedBlobs().length;
    const fake = await upload(user, [
      { name: 'title', value: 'x' },
      { name: 'count', value: '1' },
      { name: 'photo', file: { filename: 'cat.png', type: 'image/png', data: PDF } },
    ]);
    expect(fake.statusCode).toBe(415);
    expect(fake.data).toEqual({ status: 'error', code: 'FILE_TYPE_NOT_ALLOWED', text: { photo: ['Файл «cat.png» должен быть в формате PNG или JPEG'] } });
    const jpeg = await upload(user, [
      { name: 'title', value: 'x' },
      { name: 'count', value: '1' },
      { name: 'photo', file: { filename: 'notes.txt', type: 'text/plain', data: JPEG } },
    ]);
    expect(jpeg.statusCode).toBe(200);
    expect(jpeg.data.json).toMatchObject({ kinds: ['jpeg'] });
    expect(storedBlobs().length).toBe(blobs + 1);
  });

  it('decodes every picture of any multipart route: a PNG that is only its header is refused, storing nothing', async () => {
    const user = await newUser(t.db);
    const blobs = storedBlobs().length;
    const res = await upload(user, [
      { name: 'title', value: 'x' },
      { name: 'count', value: '1' },
      { name: 'scan', file: { filename: 'doc.pdf', type: 'application/pdf', data: PDF } },
      { name: 'photo', file: { filename: 'cat.png', type: 'image/png', data: HEADER_ONLY_PNG } },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.data).toEqual({ status: 'error', code: 'VALIDATION', text: { photo: ['Не удалось прочитать изображение «cat.png»: файл повреждён или загружен не полностью'] } });
    expect(await filesOf(user.id)).toHaveLength(0);
    expect(storedBlobs().length).toBe(blobs);
  });

  it('refuses too many files, an oversized file, too much in total and an undeclared field, storing nothing', async () => {
    const user = await newUser(t.db);
    const blobs = storedBlobs().length;
    const fields: Part[] = [
      { name: 'title', value: 'x' },
      { name: 'count', value: '1' },
    ];
    const tooMany = await upload(user, [...fields, ...[1, 2, 3].map((i) => ({ name: 'photo', file: { filename: `${String(i)}.png`, type: 'image/png', data: PNG } }))]);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.data).toEqual({ status: 'error', code: 'TOO_MANY_FILES', text: 'Можно прикрепить не больше 2 файлов' });
    const big = Buffer.concat([PNG, Buffer.alloc(41 * 1024)]);
    const oversized = await upload(user, [...fields, { name: 'photo', file: { filename: 'big.png', type: 'image/png', data: big } }]);
    expect(oversized.statusCode).toBe(413);
    expect(oversized.data).toEqual({ status: 'error', code: 'FILE_TOO_LARGE', text: { photo: ['Файл больше 40 КБ'] } });
    const halfFull = Buffer.concat([PNG, Buffer.alloc(35 * 1024)]);
    const pdfFull = Buffer.concat([PDF, Buffer.alloc(35 * 1024)]);
    const total = await upload(user, [...fields, { name: 'photo', file: { filename: 'a.png', type: 'image/png', data: halfFull } }, { name: 'scan', file: { filename: 'b.pdf', type: 'application/pdf', data: pdfFull } }]);
    expect(total.statusCode).toBe(413);
    expect(total.data.code).toBe('FILE_TOO_LARGE');
    const unknown = await upload(user, [...fields, { name: 'avatar', file: { filename: 'a.png', type: 'image/png', data: PNG } }]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.data.text).toEqual({ avatar: ['Этот файл здесь не нужен'] });
    expect(await filesOf(user.id)).toHaveLength(0);
    expect(storedBlobs().length).toBe(blobs);
  });

  it('validates the text fields with the same Russian per-field errors as JSON routes, storing nothing', async () => {
    const user = await newUser(t.db);
    const res = await upload(user, [{ name: 'count', value: 'много' }, { name: 'photo', file: { filename: 'a.png', type: 'image/png', data: PNG } }]);
    expect(res.statusCode).toBe(400);
    expect(res.data).toEqual({ status: 'error', code: 'VALIDATION', text: { title: ['Введите название'], count: ['Укажите число'] } });
    const twice = await upload(user, [{ name: 'title', value: 'a' }, { name: 'title', value: 'b' }, { name: 'count', value: '1' }]);
    expect(twice.statusCode).toBe(400);
    expect(Object.keys(twice.data.text as object)).toEqual(['title']);
    expect(await filesOf(user.id)).toHaveLength(0);
  });

  it('answers a truncated upload with a clear error and stores nothing', async () => {
    const user = await newUser(t.db);
    const blobs = storedBlobs().length;
    const body = multipart([
      { name: 'title', value: 'x' },
      { name: 'count', value: '1' },
      { name: 'photo', file: { filename: 'a.png', type: 'image/png', data: Buffer.concat([PNG, Buffer.alloc(20_000)]) } },
    ]);
    const cut = body.payload.subarray(0, body.payload.length - 5_000);
    const res = await call(t.app, { method: 'POST', url: uploadRoute.path, token: user.token, payload: cut, headers: body.headers });
    expect(res.statusCode).toBe(400);
    expect(res.data).toEqual({ status: 'error', code: 'UPLOAD_INCOMPLETE', text: 'Файл загрузился не полностью. Попробуйте ещё раз' });
    // A client that goes away mid-upload, over a real socket; then the server ends that request.
    const ended = uploadsEnded.size;
    await new Promise<void>((resolve) => {
      const req = http.request(`${baseUrl}${uploadRoute.path}`, { method: 'POST', headers: { ...body.headers, authorization: `Bearer ${user.token}`, 'content-length': String(body.payload.length) } });
      req.on('error', () => resolve());
      req.on('response', () => resolve());
      req.write(cut.subarray(0, 10_000), () => setTimeout(() => req.destroy(), 100));
    });
    expect(await eventually(async () => uploadsEnded.size, (n) => n > ended)).toBe(ended + 1);
    expect(await filesOf(user.id)).toHaveLength(0);
    expect(storedBlobs().length).toBe(blobs);
  });

  it('keeps the access and CSRF rules: guests 401, cookie sessions need the XSRF echo, JSON bodies are refused', async () => {
    const fields: Part[] = [
      { name: 'title', value: 'x' },
      { name: 'count', value: '1' },
    ];
    expect((await upload(undefined, fields)).statusCode).toBe(401);
    const user = await newUser(t.db);
    const noEcho = await upload(undefined, fields, { cookies: { session: user.cookie } });
    expect(noEcho.statusCode).toBe(419);
    const pair = await csrfPair(t.app);
    const echoed = await upload(undefined, fields, { cookies: { session: user.cookie, 'XSRF-TOKEN': pair.cookie }, headers: { 'x-xsrf-token': pair.header } });
    expect(echoed.statusCode).toBe(200);
    const json = await call(t.app, { method: 'POST', url: uploadRoute.path, token: user.token, payload: { title: 'x', count: 1 } });
    expect(json.statusCode).toBe(415);
    expect(json.data.status).toBe('error');
  });

  it('is described in the OpenAPI document as multipart/form-data with binary file fields', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json<{ paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties: Record<string, { format?: string }> } }> } }>> }>();
    const content = doc.paths[uploadRoute.path]?.post?.requestBody?.content['multipart/form-data'];
    expect(content?.schema.properties.photo?.format).toBe('binary');
    expect(content?.schema.properties).toHaveProperty('title');
  });
});

const streamCall = (user: TestUser | undefined, body: unknown, extra: { cookies?: Record<string, string>; headers?: Record<string, string> } = {}) =>
  call(t.app, { method: 'POST', url: streamRoute.path, token: user?.token, payload: body as Record<string, unknown>, ...extra });

describe('stream routes (Server-Sent Events)', () => {
  it('sends typed events as a text/event-stream and ends', async () => {
    const user = await newUser(t.db);
    const res = await streamCall(user, { ticks: 3 });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/event-stream');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(parseEvents(res.body).events).toEqual([
      { event: 'tick', data: { n: 1 } },
      { event: 'tick', data: { n: 2 } },
      { event: 'tick', data: { n: 3 } },
      { event: 'done', data: { total: 3 } },
    ]);
  });

  it('a failure before the first event is an ordinary error reply; after it, an error event with the envelope', async () => {
    const user = await newUser(t.db);
    const early = await streamCall(user, { ticks: 3, failEarly: true });
    expect(early.statusCode).toBe(402);
    expect(early.data).toEqual({ status: 'error', code: 'INSUFFICIENT_TOKENS', text: 'Недостаточно токенов' });
    const late = await streamCall(user, { ticks: 3, failAt: 2 });
    expect(late.statusCode).toBe(200);
    expect(parseEvents(late.body).events).toEqual([
      { event: 'tick', data: { n: 1 } },
      { event: 'error', data: { status: 'error', code: 'SERVICE_UNAVAILABLE', text: 'Провайдер не ответил' } },
    ]);
  });

  it('a handler that sends nothing answers an empty stream, not an error', async () => {
    const user = await newUser(t.db);
    const res = await streamCall(user, { ticks: 0, silent: true });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/event-stream');
    expect(parseEvents(res.body).events).toEqual([]);
  });

  it('keeps the access and CSRF rules and validates the body like JSON routes', async () => {
    expect((await streamCall(undefined, { ticks: 1 })).statusCode).toBe(401);
    const user = await newUser(t.db);
    expect((await streamCall(undefined, { ticks: 1 }, { cookies: { session: user.cookie } })).statusCode).toBe(419);
    const bad = await streamCall(user, { ticks: 'много' });
    expect(bad.statusCode).toBe(400);
    expect(bad.data.code).toBe('VALIDATION');
  });

  it('sends heartbeat comments while the handler is quiet', async () => {
    const user = await newUser(t.db);
    let speak: () => void = () => undefined;
    quietUntil = new Promise<void>((resolve) => {
      speak = resolve;
    });
    const res = await fetch(`${baseUrl}${streamRoute.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ ticks: 2, quiet: true }),
    });
    const reader = res.body?.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    const decoder = new TextDecoder();
    let text = '';
    const read = async () => {
      const { done, value } = await reader.read();
      text += decoder.decode(value, { stream: !done });
      return !done;
    };
    // The handler stays quiet after its first event until two heartbeats have come.
    while (parseEvents(text).comments < 2 && (await read()));
    expect(parseEvents(text).events.map((e) => e.event)).toEqual(['tick']);
    speak();
    while (await read());
    const parsed = parseEvents(text);
    expect(parsed.events.map((e) => e.event)).toEqual(['tick', 'tick', 'done']);
    expect(parsed.comments).toBeGreaterThanOrEqual(2);
  });

  it('tells the handler through its signal when the client goes away', async () => {
    const user = await newUser(t.db);
    const controller = new AbortController();
    const res = await fetch(`${baseUrl}${streamRoute.path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ ticks: 40, pauseMs: 50 }),
      signal: controller.signal,
    });
    const reader = res.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value as Uint8Array | undefined)).toContain('event: tick');
    const before = aborted.length;
    controller.abort();
    expect(await eventually(async () => aborted.length, (n) => n > before)).toBe(before + 1);
    expect(aborted.at(-1)).toMatch(/^stopped at \d+$/);
    expect(Number(/\d+/.exec(aborted.at(-1) ?? '')?.[0])).toBeLessThan(40);
  });

  it('is described in the OpenAPI document as text/event-stream', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json<{ paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>> }>();
    expect(Object.keys(doc.paths[streamRoute.path]?.post?.responses['200']?.content ?? {})).toContain('text/event-stream');
  });
});
