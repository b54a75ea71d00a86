import SqliteDatabase from 'better-sqlite3';
import type { AuthOptions, FusionApp } from '@mcpfusion/core';
import type { HarnessInputAnswer, HarnessInputRequest } from '@mcpfusion/core/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { POSTGRES_INSTALL, postgresBin, startPostgres, type PostgresServer } from '../test/helpers/postgres-server';
import { createBillingApp } from './app';
import { PostgresDatabase } from './db/postgres-database';
import type { SqlParams, SqlRunner } from './db/sql-database';

/** A fixed state key for tests (at least 32 bytes), so no app warns about a random one. */
export const TEST_STATE_KEY = 'billing-desk-test-state-key-of-32-bytes-or-more';

/** A fresh database location in a temp folder of its own, and its removal (WAL and SHM files included). */
export interface TempDb {
  readonly path: string;
  remove(): void;
}

/** A unique, not yet existing database file under the OS temp folder. */
export function tempDb(): TempDb {
  const dir = mkdtempSync(join(tmpdir(), 'billing-desk-'));
  return { path: join(dir, 'billing.db'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A connection of the test's own to the file: what it reads is what is committed on disk,
 * independently of the app's connections. `timeout: 0` makes a held write lock fail at
 * once instead of waiting.
 */
export function inspect(path: string): SqliteDatabase.Database {
  return new SqliteDatabase(path, { timeout: 0 });
}

/** The databases the sample runs on. */
export type DatabaseEngine = 'sqlite' | 'postgres';

/** What {@link useBillingApp} gives each test: the app, and the test's own connection to its database. */
export interface BillingAppFixture {
  /** The app of the current test, on a fresh (seeded) database, with {@link TEST_STATE_KEY}. */
  readonly app: FusionApp;
  /** The current test's own connection to the same SQLite file (see {@link inspect}); SQLite only. */
  readonly disk: SqliteDatabase.Database;
  /** The current test's own connection to the same database, on either engine (what the app commits is what it reads). */
  readonly sql: SqlRunner;
}

/** Options of {@link useBillingApp}. */
export interface BillingAppFixtureOptions {
  /** Default `sqlite`: a temp file. `postgres`: a new database per test on a server started for the file (see {@link eachDatabase}). */
  database?: DatabaseEngine;
  /** Serve as an OAuth protected resource (`createBillingApp`'s `auth`), read as each test's app opens (a getter may use what a `beforeAll` made). Default: none. */
  auth?: AuthOptions;
}

/** Whether PostgreSQL's server programs are installed (the `postgres` variants skip by name without them). */
export const POSTGRES_INSTALLED = postgresBin() !== undefined;

/**
 * Runs `body` once per database, each in a `describe` named after it: SQLite always; PostgreSQL
 * when installed, else skipped with the install command in its name.
 */
export function eachDatabase(title: string, body: (database: DatabaseEngine) => void): void {
  describe(`${title} (sqlite)`, () => body('sqlite'));
  const skipped = POSTGRES_INSTALLED ? '' : ` (skipped: PostgreSQL is not installed: ${POSTGRES_INSTALL})`;
  (POSTGRES_INSTALLED ? describe : describe.skip)(`${title} (postgres)${skipped}`, () => body('postgres'));
}

/** A database of its own on the suite's PostgreSQL server: its URL, and its removal. */
export interface PostgresTestDatabase {
  /** `postgres://test@127.0.0.1:<port>/<name>`: what `DATABASE_URL` or `PostgresDatabase.open` takes. */
  readonly url: string;
  /** Drops the database (connections still open to it are ended). */
  drop(): Promise<void>;
}

/** What {@link usePostgres} gives: fresh databases on one server per `describe`. */
export interface PostgresFixture {
  /** A new, empty database (the desk creates and seeds it on open); only inside tests and hooks. */
  createDatabase(): Promise<PostgresTestDatabase>;
}

let postgresDatabases = 0;

/**
 * Registers a `beforeAll` that starts a PostgreSQL server for the `describe` (see
 * {@link startPostgres}) and an `afterAll` that stops it; each test (or hook) makes the
 * databases it needs with {@link PostgresFixture.createDatabase} and drops them.
 */
export function usePostgres(): PostgresFixture {
  let server: PostgresServer | undefined;
  let admin: Client | undefined;
  beforeAll(async () => {
    server = await startPostgres();
    admin = new Client({ connectionString: server.url });
    await admin.connect();
  }, 60_000);
  afterAll(async () => {
    await admin?.end();
    await server?.stop();
  });
  return {
    async createDatabase() {
      if (!server || !admin) throw new Error('usePostgres: the server runs only from beforeAll to afterAll');
      const name = `billing_${process.pid}_${++postgresDatabases}`;
      const own = admin;
      await own.query(`CREATE DATABASE ${name}`);
      return {
        url: server.url.replace(/\/postgres$/, `/${name}`),
        drop: async () => {
          await own.query(`DROP DATABASE ${name} WITH (FORCE)`);
        }
      };
    }
  };
}

interface OpenedDesk {
  app: FusionApp;
  sql: SqlRunner;
  disk?: SqliteDatabase.Database;
  end(): Promise<void>;
}

/**
 * Registers a `beforeEach` that opens a billing app on a new database (plus a connection of the
 * test's own to it), and an `afterEach` that closes both and removes the database. Call it at the
 * top of a test file (or a `describe`); read `app`, `sql` and `disk` only inside tests and hooks,
 * where they are the current test's. With `database: 'postgres'` it also starts a PostgreSQL
 * server for the `describe` (`beforeAll`) and stops it after (`afterAll`).
 */
export function useBillingApp(options: BillingAppFixtureOptions = {}): BillingAppFixture {
  const engine = options.database ?? 'sqlite';
  const postgres = engine === 'postgres' ? usePostgres() : undefined;
  let current: OpenedDesk | undefined;

  beforeEach(async () => {
    if (!postgres) {
      const temp = tempDb();
      const app = createBillingApp({ dbPath: temp.path, stateKey: TEST_STATE_KEY, auth: options.auth });
      const disk = inspect(temp.path);
      current = {
        app,
        disk,
        sql: sqliteRunner(disk),
        end: async () => {
          try {
            await app.close();
          } finally {
            disk.close();
            temp.remove();
          }
        }
      };
      return;
    }
    const created = await postgres.createDatabase();
    const database = await PostgresDatabase.open(created.url);
    const app = createBillingApp({ database, stateKey: TEST_STATE_KEY, auth: options.auth });
    const own = await PostgresDatabase.open(created.url);
    current = {
      app,
      sql: own,
      end: async () => {
        try {
          await app.close();
        } finally {
          await own.close();
          await created.drop();
        }
      }
    };
  }, 30_000);

  afterEach(async () => {
    const ending = current;
    current = undefined;
    await ending?.end();
  });

  const opened = (): NonNullable<typeof current> => {
    if (!current) throw new Error('useBillingApp: the app exists only while a test runs (from beforeEach to afterEach)');
    return current;
  };
  return {
    get app() {
      return opened().app;
    },
    get disk() {
      const { disk } = opened();
      if (!disk) throw new Error('useBillingApp: `disk` is the SQLite file; on PostgreSQL read through `sql`');
      return disk;
    },
    get sql() {
      return opened().sql;
    }
  };
}

/** A better-sqlite3 connection behind the engine-neutral interface of the repositories. */
export function sqliteRunner(db: SqliteDatabase.Database): SqlRunner {
  return {
    all: async <T>(sql: string, params: SqlParams = {}) => db.prepare(sql).all(params) as T[],
    get: async <T>(sql: string, params: SqlParams = {}) => db.prepare(sql).get(params) as T | undefined,
    run: async (sql: string, params: SqlParams = {}) => db.prepare(sql).run(params).changes
  };
}

/** One invoice row as stored. */
export interface InvoiceRow {
  id: number;
  customer_id: number;
  amount_cents: number;
  currency: string;
  status: string;
  issued_on: string;
  refunded_at: string | null;
  internal_note: string | null;
}

/** The invoice row with this id, as stored. */
export function invoiceRow(db: SqliteDatabase.Database, id: number): InvoiceRow {
  return db.prepare('SELECT * FROM invoices WHERE id = ?').get(id) as InvoiceRow;
}

/** The invoice row with this id, as stored, read through either engine. */
export async function readInvoiceRow(sql: SqlRunner, id: number): Promise<InvoiceRow> {
  return (await sql.get<InvoiceRow>('SELECT * FROM invoices WHERE id = @id', { id }))!;
}

/** The number of invoices with this status, read through either engine. */
export async function countWithStatus(sql: SqlRunner, status: string): Promise<number> {
  return (await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM invoices WHERE status = @status', { status }))!.n;
}

/** The whole monthly_aggregates table, in month order, read through either engine. */
export function readAggregates(sql: SqlRunner): Promise<AggregateRow[]> {
  return sql.all<AggregateRow>('SELECT * FROM monthly_aggregates ORDER BY month');
}

/** One aggregate row as stored. */
export interface AggregateRow {
  month: string;
  invoice_count: number;
  billed_cents: number;
  paid_cents: number;
  open_cents: number;
  refunded_cents: number;
  rebuilt_at: string;
}

/** The whole monthly_aggregates table, in month order. */
export function aggregates(db: SqliteDatabase.Database): AggregateRow[] {
  return db.prepare('SELECT * FROM monthly_aggregates ORDER BY month').all() as AggregateRow[];
}

/** Whether another connection could take the write lock right now. */
export function writeLockIsFree(db: SqliteDatabase.Database): boolean {
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    return true;
  } catch {
    return false;
  }
}

/** The text blocks of a tool result, joined. */
export function textOf(result: { content?: unknown }): string {
  const blocks = Array.isArray(result.content) ? (result.content as Array<{ type: string; text?: string }>) : [];
  return blocks
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');
}

/** Requests for input as a test saw them, and the `onInput` that records them. */
export interface QuestionLog {
  readonly asked: HarnessInputRequest[];
  readonly onInput: (request: HarnessInputRequest) => HarnessInputAnswer;
}

/** An `onInput` that records every request and answers it with `answer` (declining by default). */
export function recordQuestions(answer: (request: HarnessInputRequest) => HarnessInputAnswer = () => ({ action: 'decline' })): QuestionLog {
  const asked: HarnessInputRequest[] = [];
  return {
    asked,
    onInput: (request) => {
      asked.push(request);
      return answer(request);
    }
  };
}
