import { ConfigError, loadConfig } from '../config.ts';
import { openTarget } from '../db/backup.ts';

/**
 * Runs a command on a file and the configured (or embedded) database — `npm run db:backup -- <file>`,
 * `db:restore` — and exits with its outcome: 2 without a file, 1 when it failed or answered false.
 */
export async function databaseCommand(name: string, work: (url: string, file: string) => Promise<boolean>): Promise<never> {
  const file = process.argv[2];
  if (!file) {
    console.error(`Usage: npm run db:${name} -- <file>`);
    process.exit(2);
  }
  let ok = false;
  try {
    const config = loadConfig();
    const target = await openTarget(config, (msg) => console.log(msg));
    try {
      ok = await work(target.url, file);
    } finally {
      await target.close();
    }
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    console.error(err instanceof ConfigError ? message : `The ${name} failed: ${message}`);
  }
  // Explicitly: nothing left running may keep the process alive or decide its code.
  process.exit(ok ? 0 : 1);
}
