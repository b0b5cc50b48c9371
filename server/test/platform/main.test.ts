import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { freePort } from '../support/cluster.ts';

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

/** `npm run <script>`'s command (`node <options> <file>`), run by this test's Node (on CI's side job, the machine's Node 20). */
function npmScript(name: string, ...args: string[]): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const [node, ...rest] = (pkg.scripts[name] ?? '').split(' ');
  if (node !== 'node') throw new Error(`npm run ${name} is not a node command: ${pkg.scripts[name] ?? ''}`);
  return [...rest, ...args];
}

describe('npm start without configuration (npm run serve: server/dist/main.js)', () => {
  it('runs on an embedded PostgreSQL under DATA_DIR, seeds it, says where it runs, and shuts down cleanly on SIGTERM', { timeout: 180_000 }, async () => {
    // Nothing of the test run's own configuration: the defaults are what is tested.
    const port = await freePort();
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(PG_PORT), PORT: String(port), LOG_LEVEL: 'info' };
    const proc = spawn(process.execPath, npmScript('serve'), { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    let output = '';
    proc.stdout.on('data', (d: Buffer) => (output += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));

    const baseUrl = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
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
    // What it says is what it did: one line with the public address and the one it listens on,
    // and the seed's counts as the admin panel will list them.
    expect(output.match(/Нейростудия is running at/g)).toHaveLength(1);
    expect(baseUrl).toBe(`http://127.0.0.1:${String(port)}`);
    expect(output).toContain(`Нейростудия is running at http://localhost:${String(port)} (listening on ${baseUrl}; payments: sandbox; mail: files in ${dataDir}/mail; job workers: in this process)`);
    expect(output).not.toContain('Server listening at');
    expect(output).toMatch(/seeded the provider connections and the chat models\s+connections: 2\s+chatModels: 3/);
    expect(output).toMatch(/seeded the generation catalogue \(its image, video and text models, categories and products\)\s+categories: 3\s+models: 3\s+products: 8/);
    expect(output.match(/embedded PostgreSQL started/g)).toHaveLength(1);

    // A command beside the running server uses its database, and says only that.
    const adminCreate = spawn(process.execPath, ['--import', 'tsx', 'server/src/cli/admin-create.ts', 'owner@example.ru'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let adminOutput = '';
    for (const stream of [adminCreate.stdout, adminCreate.stderr]) stream.on('data', (d: Buffer) => (adminOutput += d.toString()));
    expect(await new Promise((resolve) => adminCreate.on('exit', resolve)), adminOutput).toBe(0);
    expect(adminOutput).toMatch(new RegExp(`using the embedded PostgreSQL of the running server \\(process ${String(proc.pid)}; DATABASE_URL is not set\\)`));
    expect(adminOutput).not.toContain('embedded PostgreSQL started');
    expect(adminOutput).toContain('Создан администратор owner@example.ru');
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
