import path from 'node:path';
import { restoreDatabase } from '../db/backup.ts';
import { databaseCommand } from './database-command.ts';

/**
 * `npm run db:restore -- <file>`: a backup of `db:backup` into the configured (or embedded)
 * database, which must be empty; then every balance is checked against its ledger (exit 1 when
 * one is off).
 */
await databaseCommand('restore', async (url, file) => {
  const { tool, contents: c, offLedger } = await restoreDatabase(url, file);
  console.log(`Restored ${path.resolve(file)} (${tool.version}): ${String(c?.users)} users, ${String(c?.payments)} payments, ${String(c?.ledger)} ledger lines, ${String(c?.runs)} runs, ${String(c?.chats)} chats.`);
  if (offLedger.length === 0) {
    console.log(`Every balance (${String(c?.wallets)} wallets) equals the sum of its ledger.`);
    return true;
  }
  console.error(`${String(offLedger.length)} balances differ from their ledger:`);
  for (const w of offLedger.slice(0, 20)) console.error(`  user ${String(w.user_id)} ${w.kind}: balance ${String(w.balance)}, ledger ${String(w.ledger)}`);
  return false;
});
