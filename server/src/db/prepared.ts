import { isDeepStrictEqual } from 'node:util';
import { CompiledQuery, DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type Compilable } from 'kysely';
import { poolOf, type DB, type Executor } from './database.ts';

/** A Kysely that only compiles (no connection): statements are built with it once. */
const compileOnly = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/**
 * A statement written with the query builder, built once and then run with new values: for the
 * few queries every request runs (the session lookup, the balances), where building the query
 * anew each time is a measurable share of a request's work. `values` lists the parameters in the
 * order the builder emits them; that is checked once, here, against the builder's own output for
 * `sample`, so a mismatch fails at start, not with wrong rows.
 */
export function prepared<A extends unknown[], Row>(build: (db: Kysely<DB>, ...args: A) => Compilable<Row>, values: (...args: A) => unknown[], sample: A): (db: Executor, ...args: A) => Promise<Row[]> {
  const compiled = build(compileOnly, ...sample).compile();
  if (!isDeepStrictEqual([...compiled.parameters], values(...sample))) {
    throw new Error(`prepared statement: values() does not match the builder's parameters for ${compiled.sql}`);
  }
  const run = statement<Row>(compiled.sql);
  return (db, ...args) => run(db, values(...args));
}

/**
 * A statement of fixed text run with `values`: outside a transaction straight to the pool (kysely's
 * own work per query is a measurable share of the hot paths': the session lookup, a chat message's
 * two statements), inside one through the transaction's connection.
 */
export function statement<Row>(text: string): (db: Executor, values: unknown[]) => Promise<Row[]> {
  return async (db, values) => {
    const pool = poolOf(db);
    if (pool) return pool.query<Row>(text, values);
    return (await db.executeQuery<Row>(CompiledQuery.raw(text, values))).rows;
  };
}

/**
 * `prepared` for a statement whose text depends on some of its arguments (a search or none, the
 * sort column and direction): built once per `shape(...args)` at its first use, its parameter
 * order checked against `values(...args)` then, and afterwards run with `values(...args)` alone.
 */
export function preparedByShape<A extends unknown[], Row>(build: (db: Kysely<DB>, ...args: A) => Compilable<Row>, values: (...args: A) => unknown[], shape: (...args: A) => string): (db: Executor, ...args: A) => Promise<Row[]> {
  const statements = new Map<string, (db: Executor, values: unknown[]) => Promise<Row[]>>();
  return async (db, ...args) => {
    const key = shape(...args);
    let run = statements.get(key);
    if (run === undefined) {
      const compiled = build(compileOnly, ...args).compile();
      if (!isDeepStrictEqual([...compiled.parameters], values(...args))) throw new Error(`prepared statement: values() does not match the builder's parameters for ${compiled.sql}`);
      run = statement<Row>(compiled.sql);
      statements.set(key, run);
    }
    return run(db, values(...args));
  };
}
