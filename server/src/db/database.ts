import pg from 'pg';
import { Kysely, PostgresDialect, type PostgresCursor, type PostgresPool, type PostgresPoolClient, type PostgresQueryResult, type Transaction } from 'kysely';
import type { AccountTables } from '../features/accounts/accounts.table.ts';
import type { WalletTables } from '../features/wallet/wallet.table.ts';
import type { BillingTables } from '../features/billing/billing.table.ts';
import type { JobTables } from '../jobs/jobs.table.ts';
import type { FileTables } from '../features/files/files.table.ts';
import type { AiTables } from '../features/ai/ai.table.ts';
import type { ChatTables } from '../features/chat/chat.table.ts';
import type { CatalogTables } from '../features/catalog/catalog.table.ts';
import type { GenerationTables } from '../features/generations/generations.table.ts';
import type { AuditTables } from '../features/admin/audit.table.ts';
import type { SettingsTables } from '../features/settings/settings.table.ts';
import type { PrivacyTables } from '../features/privacy/privacy.table.ts';
import type { PromoTables } from '../features/promo/promo.table.ts';

// int8 (ids, balances, sums) as numbers: every value we store is far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

/** Every table, from each feature's `.table.ts`. */
export interface DB extends AccountTables, WalletTables, BillingTables, JobTables, FileTables, AiTables, ChatTables, CatalogTables, GenerationTables, AuditTables, SettingsTables, PrivacyTables, PromoTables {}

export type Db = Kysely<DB>;
export type Tx = Transaction<DB>;
/** A query function that may run inside or outside a transaction. */
export type Executor = Db | Tx;

export interface DbOptions {
  /** Connections in the pool. */
  poolSize: number;
  /** Server-side limit of one statement (`statement_timeout`); the client gives up a little later. 0: no limit (migrations). */
  statementTimeoutMs?: number;
  /** How long a request waits for a connection (to open one, or for one to come free); 0: as long as it takes. */
  connectTimeoutMs?: number;
  /** Requests allowed to wait for a connection at once; more are refused at once. */
  maxWaiting?: number;
  /** Where connection failures are reported (they are also answered as 503 by the routes). */
  onError?: (err: Error) => void;
}

/** The database cannot serve now (connection lost, timed out, queue full): answered as 503, never a crash. */
export class DatabaseUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseUnavailableError';
  }
}

/**
 * SQLSTATE classes and codes that mean "the database is not reachable or not answering":
 * 08 connection exceptions, 57P01–57P03 shutdown/termination, 57014 statement timeout or cancel,
 * 53300 too many connections.
 */
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '57014', '53300']);
const UNAVAILABLE_MESSAGES = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Query read timeout|not queryable|Client was closed|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|the database system is (starting up|shutting down)/i;

/**
 * Whether an error says the connection itself is gone or in an unknown state (the backend ended,
 * the socket broke, the client gave up waiting): such a connection must not be reused. A
 * statement cancelled by `statement_timeout` leaves its connection healthy.
 */
export function isConnectionLost(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || /^E(CONNRESET|PIPE|TIMEDOUT)$/.test(code))) return true;
  return err instanceof Error && /Connection terminated|Query read timeout|not queryable|Client was closed/i.test(err.message);
}

/** Whether an error (or its cause) says the database is unavailable rather than that a query is wrong. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof DatabaseUnavailableError) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('08') || UNAVAILABLE_CODES.has(code) || /^E(CONNREFUSED|CONNRESET|PIPE|TIMEDOUT)$/.test(code))) return true;
    if (UNAVAILABLE_MESSAGES.test(e.message)) return true;
  }
  return false;
}

/**
 * Whether the database refused a wallet's balance below zero (`CHECK (balance >= 0)`): a hold's
 * debit, made at its transaction's commit, that the balance no longer covered then. The whole
 * transaction is rolled back: it is answered as too few tokens.
 */
export function isBalanceRefused(err: unknown): boolean {
  const e = err as { code?: unknown; constraint?: unknown };
  return e.code === '23514' && e.constraint === 'wallets_balance_check';
}

/** A checked-out connection that remembers whether a query broke it, so release destroys it. */
class GuardedClient implements PostgresPoolClient {
  private broken: Error | undefined;

  constructor(private readonly client: pg.PoolClient) {}

  query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  // Not async: kysely's streaming passes a cursor and expects it back synchronously.
  query(...args: unknown[]): unknown {
    const result = (this.client.query as (...a: unknown[]) => unknown)(...args);
    if (!(result instanceof Promise)) return result;
    return result.catch((err: unknown) => {
      if (isConnectionLost(err)) this.broken ??= err as Error;
      throw err;
    });
  }

  release(): void {
    this.client.release(this.broken);
  }
}

/**
 * The pool kysely draws connections from, guarded: a full wait queue is refused at once, and a
 * connection whose query failed because the connection broke (or timed out on the client side)
 * is destroyed on release instead of going back to the pool half-dead.
 */
class GuardedPool implements PostgresPool {
  constructor(
    private readonly pool: pg.Pool,
    private readonly maxWaiting: number,
  ) {}

  async connect(): Promise<PostgresPoolClient> {
    if (this.pool.waitingCount >= this.maxWaiting) throw new DatabaseUnavailableError('too many requests are waiting for a database connection');
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw new DatabaseUnavailableError(`no database connection: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    return new GuardedClient(client);
  }

  /** One statement on a pooled connection, without kysely (prepared statements on hot paths). */
  async query<R>(sql: string, parameters: readonly unknown[]): Promise<R[]> {
    if (this.pool.waitingCount >= this.maxWaiting) throw new DatabaseUnavailableError('too many requests are waiting for a database connection');
    // pg's own pool.query releases a connection that failed with the error, so a broken one is dropped.
    return (await this.pool.query<R & object>(sql, [...parameters])).rows;
  }

  /** Connections open, idle and requests waiting for one, for the metrics. */
  stats(): { total: number; idle: number; waiting: number; max: number } {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount, max: this.pool.options.max };
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}

export type ConnectionLimits = Pick<pg.PoolConfig, 'connectionTimeoutMillis' | 'statement_timeout' | 'query_timeout' | 'keepAlive'>;

/**
 * The limits of a pool's connections (pg's own options): connecting, one statement on the server
 * (`statement_timeout`) and, a little later, on the client — a frozen server or a silent network
 * never answers — with TCP keepalive. The app's pool and the job queue's (pg-boss) both take them.
 */
export function connectionLimits(opts: Pick<DbOptions, 'statementTimeoutMs' | 'connectTimeoutMs'>): ConnectionLimits {
  const statementTimeoutMs = opts.statementTimeoutMs ?? 30_000;
  return {
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 10_000,
    ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs, query_timeout: statementTimeoutMs + 5_000 } : {}),
    keepAlive: true,
  };
}

const pools = new WeakMap<Kysely<DB>, GuardedPool>();

/** The pool under `db` (not under a transaction): lets prepared statements skip kysely's per-query work. */
export const poolOf = (db: Executor): GuardedPool | undefined => (db.isTransaction ? undefined : pools.get(db));

/**
 * The application's database. Connection loss is survived: every connection has an `error`
 * listener (pg emits `error` on a checked-out client when its backend dies; unheard, it ends
 * the process), broken connections are replaced, and the failures reach routes as errors that
 * `isDatabaseUnavailable` recognises (503). Statements, connecting and waiting are time-limited.
 */
export function createDb(connectionString: string, options: number | DbOptions): Db {
  const opts: DbOptions = typeof options === 'number' ? { poolSize: options } : options;
  const pool = new pg.Pool({ connectionString, max: opts.poolSize, idleTimeoutMillis: 30_000, ...connectionLimits(opts) });
  const report = (err: Error) => opts.onError?.(err);
  // A broken idle connection: the pool drops it.
  pool.on('error', report);
  // A connection that breaks while checked out emits on the client itself.
  pool.on('connect', (client) => client.on('error', report));
  const guarded = new GuardedPool(pool, opts.maxWaiting ?? opts.poolSize * 50);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: guarded }) });
  pools.set(db, guarded);
  return db;
}
