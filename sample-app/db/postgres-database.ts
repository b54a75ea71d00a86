import { Pool, types, type PoolClient, type QueryResultRow } from 'pg';
import { createAndSeed } from './postgres-schema';
import { SqlDatabase, type SqlParams, type SqlTransaction } from './sql-database';

/** PostgreSQL's type ids of bigint and numeric: COUNT and SUM give them; the desk's amounts fit in a JavaScript number. */
const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** How many connections an instance opens at most (the tools' queries and the rebuild's transaction). */
const POOL_SIZE = 5;

/**
 * The billing database on PostgreSQL (`pg`), for a fleet whose instances are on several machines:
 * a pool of connections to `DATABASE_URL`, the schema and demo data created on first open (once,
 * under an advisory lock, however many instances start together). The same repositories and
 * SQL as on SQLite ({@link SqlDatabase}); a write transaction holds one pooled client from BEGIN
 * to COMMIT or ROLLBACK.
 *
 * @example
 * ```ts
 * const db = await PostgresDatabase.open('postgres://billing@db.internal/billing');
 * const app = createBillingApp({ database: db });
 * ```
 */
export class PostgresDatabase extends SqlDatabase {
  readonly engine = 'postgres';
  private closing: Promise<void> | undefined;

  private constructor(private readonly pool: Pool) {
    super();
  }

  /** Connects to `url`, creates the schema and seeds an empty database; fails if the server cannot be reached. */
  static async open(url: string): Promise<PostgresDatabase> {
    const pool = new Pool({
      connectionString: url,
      max: POOL_SIZE,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8_OID || oid === NUMERIC_OID ? Number : types.getTypeParser(oid, format as 'text')) as typeof types.getTypeParser
      }
    });
    const db = new PostgresDatabase(pool);
    // An idle client whose connection breaks (the server restarts) must not crash the process. Once closing, a
    // connection still ending that the server cuts is expected: not reported.
    pool.on('error', (error) => {
      if (!db.closing) process.stderr.write(`[billing-desk] postgres: ${error.message}\n`);
    });
    try {
      const tx = await db.beginWrite();
      try {
        await createAndSeed(tx);
        await tx.commit();
      } finally {
        tx.abandon();
      }
    } catch (error) {
      await db.close();
      throw error;
    }
    return db;
  }

  async all<T>(sql: string, params?: SqlParams): Promise<T[]> {
    return (await this.pool.query<QueryResultRow>(...positional(sql, params))).rows as T[];
  }

  async get<T>(sql: string, params?: SqlParams): Promise<T | undefined> {
    return (await this.all<T>(sql, params))[0];
  }

  async run(sql: string, params?: SqlParams): Promise<number> {
    return (await this.pool.query(...positional(sql, params))).rowCount ?? 0;
  }

  /**
   * BEGIN on a client of its own. {@link SqlTransaction.abandon} sends ROLLBACK (queued behind a
   * statement still running) and then gives the client back; if the ROLLBACK fails, the client's
   * connection is closed instead, which ends the transaction on the server just the same.
   */
  async beginWrite(): Promise<SqlTransaction> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
    } catch (error) {
      client.release(true);
      throw error;
    }
    let done = false;
    const finish = (command: 'COMMIT' | 'ROLLBACK'): Promise<void> => {
      if (done) return Promise.resolve();
      done = true;
      return client.query(command).then(
        () => client.release(),
        (error: Error) => {
          client.release(error);
          if (command === 'COMMIT') throw error;
        }
      );
    };
    // After COMMIT or abandon the client is back in the pool, perhaps another caller's: it is not used again.
    const statement = (sql: string, params?: SqlParams) => {
      if (done) return Promise.reject(new Error('The write transaction has ended'));
      return query(client, sql, params);
    };
    return {
      all: async <T>(sql: string, params?: SqlParams) => (await statement(sql, params)).rows as T[],
      get: async <T>(sql: string, params?: SqlParams) => (await statement(sql, params)).rows[0] as T | undefined,
      run: async (sql: string, params?: SqlParams) => (await statement(sql, params)).rowCount ?? 0,
      commit: () => (done ? Promise.reject(new Error('The write transaction has ended')) : finish('COMMIT')),
      abandon: () => void finish('ROLLBACK')
    };
  }

  /** Ends the pool once its clients are back (a transaction being abandoned finishes its ROLLBACK first). Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.pool.end();
    return this.closing;
  }
}

function query(client: PoolClient, sql: string, params?: SqlParams) {
  return client.query<QueryResultRow>(...positional(sql, params));
}

/** `@name` parameters as PostgreSQL's `$1, $2…`, each name once, in order of first use. */
function positional(sql: string, params: SqlParams = {}): [string, Array<string | number | null>] {
  const names: string[] = [];
  const text = sql.replace(/@([A-Za-z_][A-Za-z0-9_]*)/g, (_match, name: string) => {
    if (!(name in params)) throw new Error(`SQL parameter @${name} has no value`);
    let index = names.indexOf(name);
    if (index < 0) index = names.push(name) - 1;
    return `$${index + 1}`;
  });
  return [text, names.map((name) => params[name] ?? null)];
}
