import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/config.ts';
import { createDb, type Db } from '../../src/db/database.ts';
import { SERVER_NODE_FLAGS } from '../../src/lib/node-flags.ts';
import { createTestDatabase, freePort, multipart, userWithTokens } from '../support/index.ts';
import { progressiveJpeg8000x5000, TINY_JPEG } from '../support/images.ts';

/*
 * What checking pictures costs a web process: eight 8000×5000 progressive JPEGs (0.3 MB each; a
 * progressive JPEG's decoder holds all its coefficients, ~120 MB at this size, whatever scale it
 * is asked for) sent at once to the chat's upload route of a real web process, started as
 * production starts it (`server/src/main.ts`, `NODE_ENV=production`, workers elsewhere) with the
 * image's malloc settings. Its memory is read from Linux's /proc: the peak (VmHWM, reset just
 * before) against what it held before.
 */

const MB = 1024 * 1024;
/** What eight such pictures at once may add to a web process at most. */
const MAX_GROWTH = 300 * MB;
/** What the process may still hold once they are checked. */
const MAX_HELD = 100 * MB;

/** The malloc settings the image runs its processes with (the Dockerfile's `ENV MALLOC_…`), which a deployment must set too. */
function allocatorSettings(): Record<string, string> {
  const dockerfile = fs.readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8');
  const settings = Object.fromEntries(Array.from(dockerfile.matchAll(/^ENV (MALLOC_\w+)=(\S+)$/gm), (m) => [m[1] ?? '', m[2] ?? '']));
  if (!Object.keys(settings).length) throw new Error('the Dockerfile sets no MALLOC_ variable');
  return settings;
}

const cleanups: (() => Promise<unknown>)[] = [];
let db: Db;
let port: number;
let pid: number;
let chatModel: number;
let picture: Buffer;

/** Starts one web process on its own database and waits (as long as a loaded machine needs) until it answers /readyz. */
async function startWebProcess(databaseUrl: string): Promise<ChildProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-image-memory-'));
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  port = await freePort();
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    ALLOW_SANDBOX: 'true',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    RUN_WORKERS: 'false',
    APP_SECRET: crypto.randomBytes(32).toString('hex'),
    RATE_LIMIT_PER_MINUTE: '1000000',
    DEMO_WORD_DELAY_MS: '0',
    ...allocatorSettings(),
  };
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(REPO_ROOT, 'server', 'dist', 'main.js')], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  for (const end = Date.now() + 170_000; ; ) {
    if (child.exitCode !== null) throw new Error(`the web process exited (${String(child.exitCode)}):\n${output}`);
    const ready = await fetch(`http://127.0.0.1:${String(port)}/readyz`, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false);
    if (ready) return child;
    if (Date.now() > end) throw new Error(`the web process is not ready:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  picture = await progressiveJpeg8000x5000();
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  db = createDb(database.url, 2);
  cleanups.push(() => db.destroy());
  const connection = await db.insertInto('provider_connections').values({ name: 'Демо', protocol: 'demo' }).returning('id').executeTakeFirstOrThrow();
  chatModel = (await db.insertInto('ai_models').values({ name: 'Демо-ассистент', kind: 'chat', connection_id: connection.id, provider_model: 'demo', max_output_tokens: 300 }).returning('id').executeTakeFirstOrThrow()).id;
  const child = await startWebProcess(database.url);
  if (!child.pid) throw new Error('no web process');
  pid = child.pid;
}, 240_000);
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The process's resident memory now and its peak since the last reset (`resetPeak`). */
function memory(): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${String(pid)}/status`, 'utf8');
  const bytes = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
  return { rss: bytes('VmRSS'), peak: bytes('VmHWM') };
}
const resetPeak = () => fs.writeFileSync(`/proc/${String(pid)}/clear_refs`, '5');
const mb = (bytes: number) => `${String(Math.round(bytes / MB))} MB`;

/** `POST /api/new/chat` straight to the web process, as the chat widget sends a message with a picture. */
async function send(token: string, image: Buffer, filename: string) {
  const body = multipart([
    { name: 'ai_models_id', value: String(chatModel) },
    { name: 'message', value: 'Что на картинке?' },
    { name: 'image_example', file: { filename, type: 'image/jpeg', data: image } },
  ]);
  const res = await fetch(`http://127.0.0.1:${String(port)}/api/new/chat`, { method: 'POST', headers: { ...body.headers, authorization: `Bearer ${token}` }, body: body.payload });
  return { status: res.status, data: (await res.json()) as { status: string; text?: unknown; code?: string } };
}

describe('the memory of checking pictures', () => {
  it('eight 8000×5000 progressive JPEGs at once grow a web process by less than 300 MB', { timeout: 300_000 }, async () => {
    const users = await Promise.all(Array.from({ length: 8 }, () => userWithTokens(db, 0, 100_000)));
    // A first small picture: what the first upload loads and compiles is not the pictures' cost.
    const first = await userWithTokens(db, 0, 100_000);
    expect((await send(first.token, TINY_JPEG, 'small.jpg')).status).toBe(200);
    const before = memory();
    resetPeak();
    const replies = await Promise.all(users.map((user, i) => send(user.token, picture, `photo-${String(i)}.jpg`)));
    const after = memory();
    const checked = replies.filter((r) => r.status === 200).length;
    console.info(`eight progressive JPEGs at once (${String(checked)} checked): RSS ${mb(before.rss)} before, peak ${mb(after.peak)} (+${mb(after.peak - before.rss)}), ${mb(after.rss)} after (+${mb(after.rss - before.rss)} held)`);
    // Each is checked, or (a machine too slow to check them all in time) refused as busy, in Russian, beside its field.
    for (const reply of replies) {
      if (reply.status === 200) continue;
      expect([reply.status, reply.data.code]).toEqual([503, 'IMAGES_BUSY']);
      expect((reply.data.text as { image_example: string[] }).image_example[0]).toMatch(/^Сервер сейчас проверяет много изображений/);
    }
    expect(checked).toBeGreaterThan(0);
    expect(after.peak - before.rss, `peak ${mb(after.peak)} against ${mb(before.rss)} before`).toBeLessThan(MAX_GROWTH);
    // Nothing keeps the decoded pictures once they are checked (libvips' operation cache did: a gigabyte).
    expect(after.rss - before.rss, `${mb(after.rss)} after against ${mb(before.rss)} before`).toBeLessThan(MAX_HELD);
  });
});
