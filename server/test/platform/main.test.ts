import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const PG_PORT = 56_000 + (process.pid % 1000);

let child: ChildProcess | undefined;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-main-'));
// mkdtemp makes it 0700; as root, Postgres runs as `postgres`, which must be able to enter it.
fs.chmodSync(dataDir, 0o755);
afterAll(() => {
  child?.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

describe('npm start without configuration (server/src/main.ts)', () => {
  it('runs on an embedded PostgreSQL under DATA_DIR, seeds it, and shuts down cleanly on SIGTERM', { timeout: 90_000 }, async () => {
    // Nothing of the test run's own configuration: the defaults are what is tested.
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(PG_PORT), PORT: '0', LOG_LEVEL: 'info' };
    const proc = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    let output = '';
    proc.stdout.on('data', (d: Buffer) => (output += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));

    const baseUrl = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match?.[1]) {
          clearInterval(timer);
          resolve(match[1]);
        } else if (proc.exitCode !== null) {
          clearInterval(timer);
          reject(new Error(`the server exited with ${String(proc.exitCode)}:\n${output}`));
        }
      }, 100);
    });

    expect((await fetch(`${baseUrl}/readyz`)).status).toBe(200);
    const tariffs = (await (await fetch(`${baseUrl}/api/new/tariff?frontend=0`)).json()) as { json: { subscriptions_type: number }[] };
    expect(tariffs.json.map((t) => t.subscriptions_type)).toEqual(expect.arrayContaining([1, 3]));
    expect(fs.existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
    expect(await portOpen(PG_PORT)).toBe(true);

    proc.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('shutting down');
    // The embedded database went down with it.
    expect(await portOpen(PG_PORT)).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'pg.owner'))).toBe(false);
  });

  it.skipIf(process.getuid?.() !== 0)('as root, says so when DATA_DIR is closed to the postgres user (not a bare initdb error)', async () => {
    const closed = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-closed-'));
    try {
      await expect(startEmbeddedPostgres(closed, PG_PORT + 1, () => undefined)).rejects.toThrow(`DATA_DIR ${closed} cannot be entered by the postgres user (running as root)`);
    } finally {
      fs.rmSync(closed, { recursive: true, force: true });
    }
  });
});
