import type { Migration } from 'kysely/migration';
import * as m0001 from './0001_create_accounts.ts';
import * as m0002 from './0002_create_wallets.ts';

/** Every migration, in order; names are the files' names. */
export const migrations: Record<string, Migration> = {
  '0001_create_accounts': m0001,
  '0002_create_wallets': m0002,
};
