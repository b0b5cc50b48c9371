import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createDb } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import PgBoss from 'pg-boss';
import { isAlive } from '../../src/db/embedded.ts';
import { adminConnection, databaseUrl, withAdmin } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    templateDb: string;
  }
}

/**
 * Builds one migrated template database per run (schema plus the job queue's schema);
 * every test file then gets its own copy (`CREATE DATABASE ... TEMPLATE`), so files run
 * in parallel against real Postgres without seeing each other's rows.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The built server, which the tests of the start commands and of the service as production runs
  // it start (incremental: nothing to do when no source changed since the last build).
  execFileSync(process.execPath, [path.join(import.meta.dirname, '..', '..', '..', 'scripts', 'build-server.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
  const { adminUrl, embedded } = await adminConnection();
  const template = `ns_tpl_${String(process.pid)}_${Date.now().toString(36)}`;
  await withAdmin(adminUrl, async (client) => {
    // Leftovers of runs that were killed; runs still going (other terminals, CI jobs) keep theirs.
    const stale = await client.query<{ datname: string }>("select datname from pg_database where datname like 'ns\\_t%'");
    for (const { datname } of stale.rows) {
      const owner = /^ns_(?:tpl|t)_(\d+)_/.exec(datname)?.[1];
      if (owner === undefined) {
        // An older name without the run's pid: dropped only when nobody is connected.
        await client.query(`drop database if exists "${datname}"`).catch(() => undefined);
        continue;
      }
      if (isAlive(Number(owner))) continue;
      await client.query(`alter database "${datname}" is_template false`).catch(() => undefined);
      await client.query(`drop database if exists "${datname}" with (force)`).catch(() => undefined);
    }
    await client.query(`create database "${template}"`);
  });
  const url = databaseUrl(adminUrl, template);
  const db = createDb(url, 2);
  await migrateToLatest(db);
  await db.destroy();
  // The job queue's schema, so each copy starts with it.
  const boss = new PgBoss({ connectionString: url, schema: 'pgboss', max: 2 });
  await boss.start();
  await boss.stop({ close: true, timeout: 1000 });
  await withAdmin(adminUrl, (client) => client.query(`alter database "${template}" is_template true`));

  project.provide('pgAdminUrl', adminUrl);
  project.provide('templateDb', template);

  return async () => {
    await withAdmin(adminUrl, async (client) => {
      await client.query(`alter database "${template}" is_template false`);
      await client.query(`drop database if exists "${template}" with (force)`);
    });
    await embedded?.stop();
  };
}
