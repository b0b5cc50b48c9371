import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { SERVER_NODE_FLAGS } from '../../src/lib/node-flags.ts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, createTestApp, createTestDatabase, eventually } from '../support/index.ts';

/*
 * The global rate limit across processes: with REDIS_URL every process counts in Redis, so the
 * limit holds for the service, not per process; without it each process counts alone. Redis
 * going away or freezing lets requests through (uncounted, with a warning), never takes the site
 * down; the client is closed with the app.
 */

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const REDIS_URL = 'redis://127.0.0.1:6379';
const LIMIT = 6;
const prefix = () => `test-${crypto.randomBytes(6).toString('hex')}:`;

interface Server {
  url: string;
  /** SIGTERM; answers the exit code. */
  stop(): Promise<number | null>;
}

const started: Server[] = [];
let database: { url: string; drop: () => Promise<void> };
let dataDir: string;
beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-rate-'));
});
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** `npm run serve` (the built server, which the tests' global setup builds) as its own process on the test database: web only, one log line a request. */
async function startServer(env: Record<string, string>): Promise<Server> {
  const proc = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'server/dist/main.js'], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      DATA_DIR: fs.mkdtempSync(path.join(dataDir, 'p-')),
      APP_SECRET: 'test-secret-test-secret-test-secret-0123',
      PORT: '0',
      RUN_WORKERS: 'false',
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout.on('data', (d: Buffer) => (output += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
      else if (proc.exitCode !== null) reject(new Error(`the server exited with ${String(proc.exitCode)}:\n${output}`));
      else setTimeout(check, 50);
    };
    check();
  });
  let stopping: Promise<number | null> | undefined;
  const server: Server = {
    url,
    stop: () => {
      stopping ??= (async () => {
        if (proc.exitCode === null) proc.kill('SIGTERM');
        return exited;
      })();
      return stopping;
    },
  };
  started.push(server);
  return server;
}

/** A request from this test's address (127.0.0.1): 401 (no sign-in) while allowed, 429 once limited. */
const ask = async (server: Server) => {
  const res = await fetch(`${server.url}/api/new/user`);
  return { status: res.status, body: (await res.json()) as { code?: string } };
};

/** Names of the clients connected to the machine's Redis. */
async function redisClients(): Promise<string[]> {
  const redis = new Redis(REDIS_URL);
  try {
    const list = (await redis.client('LIST')) as string;
    return list
      .split('\n')
      .map((line) => /(?:^| )name=(\S*)/.exec(line)?.[1] ?? '')
      .filter(Boolean);
  } finally {
    redis.disconnect();
  }
}

describe('the rate limit shared by processes (REDIS_URL)', () => {
  it('with Redis, two processes count together: the limit is the service’s, not each process’s', { timeout: 120_000 }, async () => {
    const env = { REDIS_URL, REDIS_KEY_PREFIX: prefix() };
    const [a, b] = await Promise.all([startServer(env), startServer(env)]);
    for (let i = 0; i < LIMIT; i++) expect((await ask(i % 2 === 0 ? a : b)).status).toBe(401);
    for (const server of [a, b]) {
      const limited = await ask(server);
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe('RATE_LIMITED');
    }
    // Both shut down cleanly, their Redis clients closed.
    expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
  });

  it('without Redis, each process counts alone', { timeout: 120_000 }, async () => {
    const [a, b] = await Promise.all([startServer({}), startServer({})]);
    for (let i = 0; i < LIMIT * 2; i++) expect((await ask(i % 2 === 0 ? a : b)).status).toBe(401);
    for (const server of [a, b]) expect((await ask(server)).status).toBe(429);
    expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
  });

  it('closes its Redis client when the app closes', async () => {
    const keyPrefix = prefix();
    const t = await createTestApp({ workers: false, env: { REDIS_URL, REDIS_KEY_PREFIX: keyPrefix } });
    const name = `${keyPrefix}rate-limit`;
    try {
      expect(await redisClients()).toContain(name);
    } finally {
      await t.close();
    }
    expect(await eventually(redisClients, (names) => !names.includes(name))).not.toContain(name);
  });
});

/** A TCP hop to the machine's Redis that a test can freeze (nothing passes) or take away. */
async function redisProxy(): Promise<{ url: string; freeze(): void; kill(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let frozen = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(6379, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('data', (d: Buffer) => frozen || upstream.write(d));
    upstream.on('data', (d: Buffer) => frozen || client.write(d));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return {
    url: `redis://127.0.0.1:${String(address.port)}`,
    freeze: () => {
      frozen = true;
    },
    kill: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('a Redis outage', () => {
  it('lets requests through uncounted with a warning, whether Redis freezes or goes away', async () => {
    const proxy = await redisProxy();
    const t = await createTestApp({ workers: false, env: { REDIS_URL: proxy.url, REDIS_KEY_PREFIX: prefix(), RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const warn = vi.spyOn(t.ctx.log, 'warn');
      const ip = '10.50.0.1';
      const ask = async () => (await call(t.app, { url: '/api/new/user', remoteAddress: ip })).statusCode;
      for (let i = 0; i < 3; i++) expect(await ask()).toBe(401);
      expect(await ask()).toBe(429);

      // Redis stops answering: each count gives up after its timeout and the request goes through.
      proxy.freeze();
      expect(await ask()).toBe(401);
      const warned = warn.mock.calls.find((args) => args[1] === 'rate limit: Redis is unavailable, requests go through uncounted');
      expect((warned?.[0] as { err?: unknown } | undefined)?.err).toBeInstanceOf(Error);

      // Redis is gone: the same, at once.
      await proxy.kill();
      for (let i = 0; i < 3; i++) expect(await ask()).toBe(401);
      expect((await call(t.app, { url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('a Redis that cannot be reached at start does not stop the start', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const address = closed.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const t = await createTestApp({ workers: false, env: { REDIS_URL: `redis://127.0.0.1:${String(address.port)}`, RATE_LIMIT_PER_MINUTE: '2' } });
    try {
      for (let i = 0; i < 4; i++) expect((await call(t.app, { url: '/api/new/user', remoteAddress: '10.50.0.2' })).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });
});
