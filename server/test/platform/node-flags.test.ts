import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { REPO_ROOT } from '../../src/config.ts';
import { SERVER_NODE_FLAGS } from '../../src/lib/node-flags.ts';
import { createTestDatabase, freePort } from '../support/index.ts';

/*
 * Every start command of a server process, as it is written (package.json's scripts, the image's
 * CMD, docker-compose's worker), is started here, and the command line of the process running the
 * server is read from /proc: plain Node on the built server, with the servers' Node options
 * (SERVER_NODE_FLAGS) before the script, so V8 has them before it runs a line.
 */

const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const dockerfileCmd = JSON.parse(/^CMD (\[.*\])$/m.exec(fs.readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8'))?.[1] ?? '[]') as string[];
const compose = YAML.parse(fs.readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8')) as { services: Record<string, { command?: string[] }> };

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-flags-'));
/** What was started, and the server process each runs (npm's shell would not pass a signal on to it). */
const started: { child: ChildProcess; server?: number }[] = [];
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await Promise.all(
    started.map(async ({ child, server }) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      if (server === undefined) child.kill('SIGTERM');
      else process.kill(server, 'SIGTERM');
      await exited;
    }),
  );
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** `pid` and every process below it (npm runs the script through a shell). */
function processTree(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // `pid (name) state ppid …`: the name may hold spaces and parentheses, the fields after it do not.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  return tree;
}

function commandLine(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return []; // gone meanwhile
  }
}

/**
 * Starts `argv` in the repository as the given kind of process, waits until it says it is ready
 * (it then runs the server), and answers the command line of the Node process running the server.
 */
async function runningServer(argv: string[], kind: 'web' | 'worker'): Promise<string[]> {
  const [command = '', ...args] = argv;
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.tmpdir(),
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    ...(kind === 'web' ? { PORT: '0', RUN_WORKERS: 'false' } : { WORKER_HEALTH_PORT: String(await freePort()) }),
  };
  const child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const entry: (typeof started)[number] = { child };
  started.push(entry);
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (d: Buffer) => (output += d.toString()));
  const ready = kind === 'web' ? 'Нейростудия is running at' : 'workers are running';
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (output.includes(ready)) {
        clearInterval(timer);
        resolve();
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`${argv.join(' ')} exited with ${String(child.exitCode)}:\n${output}`));
      }
    }, 50);
  });
  const script = kind === 'web' ? 'server/dist/main.js' : 'server/dist/worker.js';
  const server = processTree(child.pid ?? 0)
    .map((pid) => ({ pid, line: commandLine(pid) }))
    // Node itself, not the shell npm runs it through (whose `-c` string names the script too).
    .find(({ line }) => path.basename(line[0] ?? '').startsWith('node') && line.includes(script));
  if (!server) throw new Error(`no process of ${argv.join(' ')} runs ${script}`);
  entry.server = server.pid;
  return server.line;
}

/** The Node options before the script, as the process was started with them. */
function nodeOptions(line: string[], script: string): string[] {
  const at = line.indexOf(script);
  return line.slice(1, at);
}

describe('the start commands of the server processes', () => {
  it.concurrent.each([
    ['npm run serve', ['npm', 'run', 'serve'], 'web'],
    ['npm run worker', ['npm', 'run', 'worker'], 'worker'],
    ["the image's CMD", dockerfileCmd, 'web'],
    ["docker-compose's worker", compose.services.worker?.command ?? [], 'worker'],
  ] as const)('%s runs plain Node on the built server, with the servers’ Node options', async (_name, argv, kind) => {
    const line = await runningServer([...argv], kind);
    const script = kind === 'web' ? 'server/dist/main.js' : 'server/dist/worker.js';
    expect(nodeOptions(line, script)).toEqual(SERVER_NODE_FLAGS);
    expect(line.join(' ')).not.toMatch(/tsx/);
  });

  it('npm start builds, then runs what npm run serve runs', () => {
    expect(pkg.scripts.start).toBe(`npm run build && ${pkg.scripts.serve ?? ''}`);
  });
});
