/** Named parameters of a statement: `@name` in the SQL, `{ name: value }` here. */
export type SqlParams = Readonly<Record<string, string | number | null>>;

/**
 * Statements in the SQL both databases speak: `@name` parameters (each engine's own form is
 * derived from them), `CAST(@x AS TEXT)` wherever PostgreSQL cannot infer a parameter's type,
 * camelCase aliases double-quoted. Integers come back as numbers on both.
 */
export interface SqlRunner {
  /** Every row. */
  all<T>(sql: string, params?: SqlParams): Promise<T[]>;
  /** The first row, or undefined. */
  get<T>(sql: string, params?: SqlParams): Promise<T | undefined>;
  /** Runs a write; resolves with the number of rows it changed. */
  run(sql: string, params?: SqlParams): Promise<number>;
}

/**
 * A write transaction on a connection of its own: what it writes is invisible to every other
 * connection until {@link commit}. {@link abandon} rolls it back and gives the connection back;
 * it may be called at any time (from an abort listener too), more than once, and after a commit.
 */
export interface SqlTransaction extends SqlRunner {
  commit(): Promise<void>;
  abandon(): void;
}

/**
 * The billing database behind one interface: SQLite (`Database`, the embedded default) or
 * PostgreSQL (`PostgresDatabase`, when `DATABASE_URL` is set). It is the DI token the
 * repositories inject; the app closes it when it closes.
 */
export abstract class SqlDatabase implements SqlRunner {
  /** Which engine: the tests and the docs name it. */
  abstract readonly engine: 'sqlite' | 'postgres';
  abstract all<T>(sql: string, params?: SqlParams): Promise<T[]>;
  abstract get<T>(sql: string, params?: SqlParams): Promise<T | undefined>;
  abstract run(sql: string, params?: SqlParams): Promise<number>;
  /** Begins a write transaction on a connection of its own (see {@link SqlTransaction}). */
  abstract beginWrite(): Promise<SqlTransaction>;
  /** Closes every connection; an open transaction is rolled back. Idempotent. */
  abstract close(): void | Promise<void>;
}

/**
 * {@link SqlDatabase} as the DI token to register and resolve: at run time an abstract class is a
 * token like any other (the repositories inject it by type), but tsyringe's types want a class
 * that can be constructed.
 */
export const SQL_DATABASE = SqlDatabase as unknown as new () => SqlDatabase;
