import SqliteDatabase from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { addMissingColumns, SCHEMA_SQL } from './schema';
import { seedIfEmpty } from './seed';
import { SqlDatabase, type SqlParams, type SqlTransaction } from './sql-database';

/** Where the database lives when neither the caller nor `BILLING_DB` says otherwise (relative to the cwd). */
export const DEFAULT_DB_PATH = '.data/billing.db';

/** How long a statement waits for another connection's write lock before failing with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5_000;

/** A connection for one long write transaction, and how to give it back. */
export interface WriterConnection {
  readonly connection: SqliteDatabase.Database;
  /** True when this is the main connection (an in-memory database has no second one). */
  readonly shared: boolean;
  /** Closes the connection (a no-op for the shared one). Idempotent. */
  release(): void;
}

/**
 * The billing database on SQLite (the embedded default): one better-sqlite3 connection for the
 * tools, schema and demo data created on first open. The repositories reach it through
 * {@link SqlDatabase} (its async interface, shared with PostgreSQL); the app also registers it as
 * `Database`, for what only SQLite has (the connection itself).
 *
 * @example
 * ```ts
 * const db = new Database(':memory:');
 * db.connection.prepare('SELECT COUNT(*) FROM invoices').pluck().get(); // 40
 * db.close();
 * ```
 */
export class Database extends SqlDatabase {
  readonly engine = 'sqlite';
  /** The main connection, shared by every call. */
  readonly connection: SqliteDatabase.Database;
  /** The absolute file path, or `:memory:`. */
  readonly location: string;
  private readonly writers = new Set<SqliteDatabase.Database>();

  /**
   * Opens (creating if needed) the database at `path`, else `$BILLING_DB`, else
   * `.data/billing.db` under the cwd. `:memory:` gives a private in-memory database.
   */
  constructor(path: string | undefined = process.env.BILLING_DB) {
    super();
    const requested = path && path.trim() !== '' ? path : DEFAULT_DB_PATH;
    this.location = requested === ':memory:' ? requested : resolve(process.cwd(), requested);
    if (!this.inMemory) mkdirSync(dirname(this.location), { recursive: true });
    this.connection = openConnection(this.location);
    try {
      if (!this.inMemory) this.connection.pragma('journal_mode = WAL');
      this.connection.exec(SCHEMA_SQL);
      addMissingColumns(this.connection);
      seedIfEmpty(this.connection);
    } catch (error) {
      this.connection.close();
      throw error;
    }
  }

  /** Whether this is a private in-memory database (which a second connection cannot see). */
  get inMemory(): boolean {
    return this.location === ':memory:';
  }

  /**
   * A connection of its own for a long write transaction, so that what it has written is
   * invisible to the main connection until it commits (WAL readers keep their snapshot).
   * For `:memory:` it is the main connection itself: another connection would open a
   * different, empty database.
   */
  openWriter(): WriterConnection {
    if (this.inMemory) return { connection: this.connection, shared: true, release: () => undefined };
    const connection = openConnection(this.location);
    this.writers.add(connection);
    return {
      connection,
      shared: false,
      release: () => {
        this.writers.delete(connection);
        if (connection.open) connection.close();
      }
    };
  }

  /**
   * The connection task records are written on: the same file, a connection of its own that
   * never waits for a lock inside SQLite (`timeout: 0`): the task store retries a busy write
   * without blocking the event loop. For `:memory:` it is the main connection.
   */
  openTaskConnection(): SqliteDatabase.Database {
    if (this.inMemory) return this.connection;
    const connection = new SqliteDatabase(this.location, { timeout: 0 });
    this.writers.add(connection);
    return connection;
  }

  async all<T>(sql: string, params: SqlParams = {}): Promise<T[]> {
    return this.connection.prepare(sql).all(params) as T[];
  }

  async get<T>(sql: string, params: SqlParams = {}): Promise<T | undefined> {
    return this.connection.prepare(sql).get(params) as T | undefined;
  }

  async run(sql: string, params: SqlParams = {}): Promise<number> {
    return this.connection.prepare(sql).run(params).changes;
  }

  /**
   * `BEGIN IMMEDIATE` on a writer connection ({@link openWriter}): the write lock is taken at
   * once, and WAL readers keep seeing the last commit until this one commits.
   */
  async beginWrite(): Promise<SqlTransaction> {
    const writer = this.openWriter();
    const conn = writer.connection;
    try {
      conn.exec('BEGIN IMMEDIATE');
    } catch (error) {
      writer.release();
      throw error;
    }
    let ended = false;
    // After COMMIT or abandon, a statement would run outside the transaction (on :memory:, on the main connection).
    const statement = (sql: string) => {
      if (ended) throw new Error('The write transaction has ended');
      return conn.prepare(sql);
    };
    return {
      all: async <T>(sql: string, params: SqlParams = {}) => statement(sql).all(params) as T[],
      get: async <T>(sql: string, params: SqlParams = {}) => statement(sql).get(params) as T | undefined,
      run: async (sql: string, params: SqlParams = {}) => statement(sql).run(params).changes,
      commit: async () => {
        if (ended) throw new Error('The write transaction has ended');
        conn.exec('COMMIT');
        ended = true;
      },
      // Synchronous: called from an abort listener, it frees the write lock before the next mutation starts.
      abandon: () => {
        ended = true;
        if (conn.open && conn.inTransaction) conn.exec('ROLLBACK');
        writer.release();
      }
    };
  }

  /** Closes every connection, writers still open included (a shutdown in mid-rebuild rolls it back). Idempotent. */
  close(): void {
    for (const writer of this.writers) if (writer.open) writer.close();
    this.writers.clear();
    if (this.connection.open) this.connection.close();
  }
}

function openConnection(location: string): SqliteDatabase.Database {
  const connection = new SqliteDatabase(location, { timeout: BUSY_TIMEOUT_MS });
  connection.pragma('foreign_keys = ON');
  return connection;
}
