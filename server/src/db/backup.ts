import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { createDb, type Db } from './database.ts';
import { startEmbeddedPostgres } from './embedded.ts';
import { analyze, contents, serverMajor, tableCount, walletsOffLedger } from './backup.queries.ts';
import { choosePgTool, findPgTools, type PgTool } from './pg-tools.ts';

/** The database a backup or a restore works on: DATABASE_URL, or the embedded one (started for the command when the service is not running). */
export interface Target {
  url: string;
  /** Stops the embedded server if this command started it. */
  close(): Promise<void>;
}

export async function openTarget(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'embeddedPgPort'>, log: (msg: string) => void): Promise<Target> {
  if (config.databaseUrl) return { url: config.databaseUrl, close: () => Promise.resolve() };
  const embedded = await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort, log);
  return { url: embedded.url, close: () => embedded.stop() };
}

/** `url` for a client program: the password goes in PGPASSWORD, never on a command line others can read. */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** Runs a client program to its end; fails with what it wrote to stderr. */
function run(tool: PgTool, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool.path, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${path.basename(tool.path)} failed (${String(code)}): ${err.trim()}`))));
  });
}

async function withDb<T>(url: string, fn: (db: Db) => Promise<T>): Promise<T> {
  const db = createDb(url, { poolSize: 1, statementTimeoutMs: 0 });
  try {
    return await fn(db);
  } finally {
    await db.destroy();
  }
}

/**
 * Dumps the database at `url` into `file` with pg_dump's custom format (compressed; owners and
 * grants left out, so it restores under any role), through a temporary file renamed into place,
 * so `file` is never a half-written dump; then reads the archive's table of contents back.
 */
export async function backupDatabase(url: string, file: string): Promise<{ tool: PgTool; bytes: number; entries: number }> {
  const major = await withDb(url, serverMajor);
  const tool = choosePgTool('pg_dump', major, findPgTools('pg_dump'));
  const { dbname, env } = connection(url);
  const target = path.resolve(file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  try {
    await run(tool, ['--format=custom', '--no-owner', '--no-privileges', `--file=${partial}`, `--dbname=${dbname}`], env);
    const reader = choosePgTool('pg_restore', tool.major, findPgTools('pg_restore'));
    const list = await run(reader, ['--list', partial], env);
    fs.renameSync(partial, target);
    return { tool, bytes: fs.statSync(target).size, entries: list.split('\n').filter((l) => l && !l.startsWith(';')).length };
  } finally {
    fs.rmSync(partial, { force: true });
  }
}

/** What a restore found in the restored database: its contents and every wallet whose balance is not its ledger's sum. */
export interface RestoreReport {
  tool: PgTool;
  contents: Awaited<ReturnType<typeof contents>>;
  offLedger: Awaited<ReturnType<typeof walletsOffLedger>>;
}

/**
 * Restores `file` into the database at `url`, which must have no tables (a new database: a
 * restore never writes over data), in one transaction that stops at the first error, so a failed
 * restore leaves the database empty. Then statistics are gathered and the ledger checked: every
 * balance must equal the sum of its ledger.
 */
export async function restoreDatabase(url: string, file: string): Promise<RestoreReport> {
  if (!fs.existsSync(file)) throw new Error(`no such backup file: ${file}`);
  const { major, tables } = await withDb(url, async (db) => ({ major: await serverMajor(db), tables: await tableCount(db) }));
  if (tables > 0) {
    throw new Error(
      `the database has ${String(tables)} tables already: restore into a new, empty database (create one and point DATABASE_URL at it; for the embedded one, stop the service and move DATA_DIR/pg away first)`,
    );
  }
  const tool = choosePgTool('pg_restore', major, findPgTools('pg_restore'));
  const { dbname, env } = connection(url);
  await run(tool, ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${dbname}`, path.resolve(file)], env);
  return withDb(url, async (db) => {
    await analyze(db);
    return { tool, contents: await contents(db), offLedger: await walletsOffLedger(db) };
  });
}
