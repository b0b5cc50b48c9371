import path from 'node:path';
import { backupDatabase } from '../db/backup.ts';
import { databaseCommand } from './database-command.ts';

/** `npm run db:backup -- <file>`: a pg_dump of the configured (or embedded) database into `file`. */
await databaseCommand('backup', async (url, file) => {
  const done = await backupDatabase(url, file);
  console.log(`Backup written to ${path.resolve(file)}: ${(done.bytes / 1024 / 1024).toFixed(1)} MB, ${String(done.entries)} entries (${done.tool.version}).`);
  return true;
});
