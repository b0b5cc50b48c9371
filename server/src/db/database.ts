import pg from 'pg';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import type { AccountTables } from '../features/accounts/accounts.table.ts';
import type { WalletTables } from '../features/wallet/wallet.table.ts';
import type { BillingTables } from '../features/billing/billing.table.ts';
import type { FileTables } from '../features/files/files.table.ts';

// int8 (ids, balances, sums) as numbers: every value we store is far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

/** Every table, from each feature's `.table.ts`. */
export interface DB extends AccountTables, WalletTables, BillingTables, FileTables {}

export type Db = Kysely<DB>;
export type Tx = Transaction<DB>;
/** A query function that may run inside or outside a transaction. */
export type Executor = Db | Tx;

export function createDb(connectionString: string, poolSize: number): Db {
  const pool = new pg.Pool({ connectionString, max: poolSize, idleTimeoutMillis: 30_000 });
  // A broken idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
}
