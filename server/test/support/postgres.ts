import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded.ts';

/** The machine's server as its superuser: TEST_PG_URL, else 127.0.0.1:5432 (it may not answer). */
export const machineAdminUrl = (): string => process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The server tests run against: TEST_PG_URL, else 127.0.0.1:5432, else an embedded one. */
export async function adminConnection(): Promise<{ adminUrl: string; embedded?: EmbeddedDatabase }> {
  const candidate = machineAdminUrl();
  const client = new pg.Client({ connectionString: candidate, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return { adminUrl: candidate };
  } catch {
    await client.end().catch(() => undefined);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ns-test-pg-'));
  fs.chmodSync(dir, 0o755);
  const embedded = await startEmbeddedPostgres(dir, 54000 + (process.pid % 1000), () => undefined);
  const url = new URL(embedded.url);
  url.pathname = '/postgres';
  return { adminUrl: url.toString(), embedded };
}

/** The URL of database `name` on the server of `adminUrl`. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
