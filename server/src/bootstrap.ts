import type pino from 'pino';
import { loadConfig, type Config } from './config.ts';
import { createDb, type Db } from './db/database.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seedIfEmpty } from './db/seed.ts';
import { createStorage } from './storage/create-storage.ts';
import { createLogger } from './lib/logger.ts';
import { resolveSecrets, type Secrets } from './lib/secrets.ts';

export interface Runtime {
  config: Config;
  db: Db;
  databaseUrl: string;
  secrets: Secrets;
  log: pino.Logger;
  close(): Promise<void>;
}

/**
 * What every entry point needs: configuration, the database (embedded when DATABASE_URL is
 * unset), migrations run, and seed data on an empty embedded database.
 */
export async function bootstrap(opts: { migrate?: boolean; seed?: boolean } = {}): Promise<Runtime> {
  const config = loadConfig();
  // Readable lines in development (at a terminal or piped to a file); JSON lines in production.
  const log = createLogger(config);
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort, (msg) => log.info(msg));
    databaseUrl = embedded.url;
    const where = { port: config.embeddedPgPort, dir: config.dataDir };
    if (embedded.owner === undefined) log.info(where, 'embedded PostgreSQL started (DATABASE_URL is not set)');
    else log.info(where, `using the embedded PostgreSQL of the running server (process ${String(embedded.owner)}; DATABASE_URL is not set)`);
  }
  // Once the process closes, connections still ending when the embedded database stops are no news.
  let closing = false;
  const db = createDb(databaseUrl, { poolSize: config.databasePoolSize, ...config.database, onError: (err) => (closing ? log.debug({ err }, 'database connection closed while stopping') : log.warn({ err }, 'database connection lost')) });
  try {
    if (opts.migrate !== false) {
      // Migrations may take longer than any request may (an index on a big table): no statement limit.
      const migrator = createDb(databaseUrl, { poolSize: 1, statementTimeoutMs: 0 });
      try {
        const applied = await migrateToLatest(migrator);
        if (applied.length) log.info({ applied }, 'migrations applied');
      } finally {
        await migrator.destroy();
      }
    }
    if (opts.seed !== false && embedded) {
      const storage = createStorage(config.storage);
      try {
        await seedIfEmpty(db, log, storage);
      } finally {
        storage.close();
      }
    }
  } catch (err) {
    await db.destroy();
    await embedded?.stop();
    throw err;
  }
  return {
    config,
    db,
    databaseUrl,
    secrets: resolveSecrets(config),
    log,
    async close() {
      closing = true;
      await db.destroy();
      await embedded?.stop();
    },
  };
}
